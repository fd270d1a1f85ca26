"""The site's clock as its own process (``manage.py clock``): moves, one connection, SKIP LOCKED."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction

from rooms import clock
from rooms.models import Room
from tests.bots.test_bot_games import MODES, _deal_and_leave, _room
from tests.conftest import _database_url

pytestmark = pytest.mark.django_db(transaction=True)


def start_clock(**env: str) -> subprocess.Popen[bytes]:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
        **env,
    }
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [sys.executable, "manage.py", "clock", "--poll", "0.2"]
    return subprocess.Popen(command, cwd=settings.BASE_DIR, env=environment, stdout=subprocess.PIPE)


def version(slug: str) -> int:
    return Room.objects.get(slug=slug).version


def clock_backends() -> list[tuple[int, Any]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE application_name = %s",
            [clock.APPLICATION_NAME],
        )
        return list(cursor.fetchall())


def test_the_clock_process_plays_the_bots_on_one_kept_connection_and_stops_on_sigterm() -> None:
    _room("clock-process", "en", MODES["standard"])
    _deal_and_leave("clock-process", MODES["standard"])
    start = version("clock-process")
    process = start_clock(BOT_THINK_SECONDS="0")
    try:
        assert process.stdout is not None
        assert b"clock running" in process.stdout.readline()
        backends: list[tuple[int, Any]] = []
        deadline = time.monotonic() + 60
        # Many passes (every bot move is followed by another pass at once).
        while version("clock-process") < start + 12:
            assert time.monotonic() < deadline, "the clock process made no bot moves"
            if connection.vendor == "postgresql" and not backends:
                backends = clock_backends()
            time.sleep(0.05)
        if connection.vendor == "postgresql":
            # The same single session from the first moves to now: no connection per pass.
            assert len(backends) == 1
            assert clock_backends() == backends
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_room_locked_elsewhere_is_skipped_not_waited_for() -> None:
    """SKIP LOCKED: a second clock (or a move) holding a room does not hold this clock up."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole file: SKIP LOCKED is PostgreSQL's")
    _room("clock-locked", "en", MODES["standard"])
    _deal_and_leave("clock-locked", MODES["standard"])
    later = time.time() + 3600  # every bot's think time has passed
    locked, release = threading.Event(), threading.Event()

    def hold_the_room() -> None:
        with transaction.atomic():
            Room.objects.select_for_update().get(slug="clock-locked")
            locked.set()
            release.wait(timeout=30)
        connection.close()

    holder = threading.Thread(target=hold_the_room)
    holder.start()
    try:
        assert locked.wait(timeout=10)
        before = version("clock-locked")
        started = time.monotonic()
        assert clock.sweep(now=later) == 0  # the room is skipped …
        assert time.monotonic() - started < 2  # … at once, not after the lock is released
    finally:
        release.set()
        holder.join(timeout=10)
    assert version("clock-locked") == before
    assert clock.sweep(now=later) == 1  # free again: its bot moves


def test_an_idle_pass_reads_in_one_transaction_and_knows_when_to_wake() -> None:
    """Nothing due: the pass only reads (one transaction on PostgreSQL) and names the
    moment the next bot will be due, so the clock sleeps until then instead of polling."""
    _room("clock-idle", "en", MODES["standard"])
    _deal_and_leave("clock-idle", MODES["standard"])
    changed = Room.objects.get(slug="clock-idle").updated_at.timestamp()
    queries: list[tuple[str, bool]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append((sql, connection.in_atomic_block))
        return execute(sql, params, many, context)

    now = changed + 0.5  # within the bots' think time
    with connection.execute_wrapper(record):
        due = clock.find_due(now)
        assert clock.work(due, now) == 0
    assert due.bot_rooms == [] and not any(due.deadlines.values())
    assert due.next_at == pytest.approx(changed + settings.BOT_THINK_SECONDS, abs=0.01)
    assert queries and all(sql.lstrip().upper().startswith("SELECT") for sql, _ in queries)
    if connection.vendor == "postgresql":
        assert all(atomic for _, atomic in queries)
