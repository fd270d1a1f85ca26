"""The access log (issue 31, config/access.py): with LOG_FORMAT=json every line Daphne's
process writes is one JSON object, each request and socket has an id that its lines
carry with the client's address (as --proxy-headers resolved it), a 429's warning names
that address, and a device link's token is written nowhere."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from bench.servers import free_port, wait_port
from config.logs import Context, JsonFormatter, Secrets, TextFormatter, Work, current_work
from tests.conftest import _database_url

FORWARDED = "203.0.113.7"  # the client's address as the proxy sets it
TOKEN = "Zq" + "9x" * 20  # a wrong device link: its path holds a would-be secret


def _get(url: str) -> int:
    request = urllib.request.Request(url, headers={"X-Forwarded-For": FORWARDED})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.django_db(transaction=True)
def test_json_access_lines_with_ids_and_the_429s_address(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "WARNING",
        "ACCESS_LOG": "true",
        "RATE_LIMITS": "true",
        "LIMIT_DEVICE_FAILURES_PER_IP": "1/minute",
        "GAME_CLOCK": "0",
    }
    for name in ("REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"):
        env.pop(name, None)  # limits counted in this process: a fresh count
    log_path = tmp_path / "daphne.log"
    # As the web unit runs it: -v 0 (Daphne's own plain-text access log off), --proxy-headers.
    command = [sys.executable, "-m", "daphne", "-v", "0", "--proxy-headers", "-b", "127.0.0.1",
               "-p", str(port), "config.asgi:application"]  # fmt: skip
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, 30)
        base = f"http://127.0.0.1:{port}"
        assert _get(f"{base}/r/access-log-room/") == 200
        device = f"{base}/r/access-log-room/device/{TOKEN}/"
        assert [_get(device), _get(device)] == [404, 429]
        with connect(
            f"ws://127.0.0.1:{port}/ws/r/access-log-room/",
            origin="http://localhost",  # type: ignore[arg-type]
            additional_headers={"X-Forwarded-For": FORWARDED},
        ) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
        _get(f"{base}/readyz")
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    text = log_path.read_text()
    assert TOKEN not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # every line JSON
    access = [line for line in lines if line["logger"] == "wordrooms.access"]
    page, wrong, refused = (
        next(line for line in access if line.get("path") == path and line.get("status") == status)
        for path, status in (
            ("/r/access-log-room/", 200),
            ("/r/access-log-room/device/(withheld)/", 404),
            ("/r/access-log-room/device/(withheld)/", 429),
        )
    )
    assert page["method"] == "GET" and page["bytes"] > 0 and page["client"] == FORWARDED
    assert len({page["id"], wrong["id"], refused["id"]}) == 3 and page["id"].startswith("r")
    # Django's warning for the 429 carries the request's id and address.
    warning = next(
        line for line in lines if line["logger"] == "django.request" and "Too Many" in line["message"]
    )
    assert (warning["level"], warning["id"], warning["client"]) == ("WARNING", refused["id"], FORWARDED)
    opened = next(line for line in access if line.get("event") == "open")
    closed = next(line for line in access if line.get("event") == "closed")
    assert opened["id"] == closed["id"] and opened["id"].startswith("s") and closed["client"] == FORWARDED
    assert closed["path"] == "/ws/r/access-log-room/" and closed["code"] is not None
    assert not [line for line in access if line.get("path") == "/readyz"]  # monitors' probes


def _format(formatter: logging.Formatter, work: Work | None) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(Context())
    handler.addFilter(Secrets())
    log = logging.getLogger("rooms.test-access")
    log.addHandler(handler)
    log.propagate = False

    async def main() -> None:
        token = current_work.set(None if work is None else Work(work.id, work.client, asyncio.current_task()))
        log.warning("on the work's own task")

        async def shared() -> None:
            log.warning("on a task it started (a hub loop serving everyone)")

        await asyncio.create_task(shared())
        await asyncio.to_thread(log.warning, "on a thread it runs")
        current_work.reset(token)

    try:
        asyncio.run(main())
    finally:
        log.removeHandler(handler)
        log.propagate = True
    return stream.getvalue()


def test_a_text_line_names_its_work_and_shared_work_names_none() -> None:
    lines = _format(TextFormatter(), Work("s0a1b2c3d", "198.51.100.4", None)).splitlines()
    assert " WARNING rooms.test-access [s0a1b2c3d 198.51.100.4]: on the work's own task" in lines[0]
    assert " WARNING rooms.test-access: on a task it started" in lines[1]
    assert "[s0a1b2c3d 198.51.100.4]: on a thread it runs" in lines[2]


def test_a_json_line_names_its_work() -> None:
    records: list[dict[str, Any]] = [
        json.loads(line) for line in _format(JsonFormatter(), Work("r00ff00ff", None, None)).splitlines()
    ]
    assert (records[0]["id"], records[0]["client"]) == ("r00ff00ff", None)
    assert "id" not in records[1] and records[2]["id"] == "r00ff00ff"
