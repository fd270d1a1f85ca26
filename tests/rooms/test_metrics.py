"""/metrics: each process's Prometheus page, off by default and never through a proxy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from channels.testing import HttpCommunicator

from config.asgi import application
from tests.conftest import act, joined_client

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def scrape(headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, str]:
    response = await HttpCommunicator(application, "GET", "/metrics", headers=headers or []).get_response()
    return response["status"], response["body"].decode()


def value(page: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", page, re.M)
    assert found, f"{name} not on the page"
    return float(found[1])


async def test_metrics_count_sockets_and_moves(settings: Any, channel_layer: str) -> None:
    settings.METRICS = True
    status, before = await scrape()
    assert status == 200
    ada = await joined_client("metrics-room", "Ada")
    bo = await joined_client("metrics-room", "Bo")
    status, during = await scrape()
    assert value(during, "wordrooms_open_sockets") == value(before, "wordrooms_open_sockets") + 2
    assert value(during, "wordrooms_rooms_followed") >= 1
    moves = value(during, "wordrooms_moves_total")
    reply = await act(ada, {"action": "rename", "name": "Ada Lovelace"})
    assert reply["type"] == "state"
    refused = await act(ada, {"action": "give_clue", "turn": 0, "word": "x", "number": 1})
    assert refused["type"] == "error"
    _, after = await scrape()
    assert value(after, "wordrooms_moves_total") == moves + 1
    assert f'wordrooms_refused_total{{code="{refused["code"]}"}}' in after
    assert 'wordrooms_pushes_total{kind="patch"}' in after and "wordrooms_action_seconds_bucket" in after
    assert "process_resident_memory_bytes" in after  # the process's own figures too
    # Closed sockets are counted out (and nothing of theirs is left writing to the database).
    await ada.close()
    await bo.close()
    _, closed = await scrape()
    assert value(closed, "wordrooms_open_sockets") == value(before, "wordrooms_open_sockets")


async def test_metrics_are_off_by_default_and_never_through_a_proxy(settings: Any) -> None:
    settings.METRICS = False
    assert (await scrape())[0] == 404
    settings.METRICS = True
    assert (await scrape())[0] == 200
    for header in (b"x-forwarded-for", b"x-real-ip", b"forwarded"):
        assert (await scrape([(header, b"203.0.113.9")]))[0] == 404
