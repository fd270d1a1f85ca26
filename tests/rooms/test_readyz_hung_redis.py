"""/readyz on a Redis that accepts connections and never answers (stopped with SIGSTOP):
503 "redis": "down" within one CHECK_TIMEOUT, the database checked beside it (issue 31;
it took the full 2 s before). The figure is printed; the bound is the timeout's."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from time import perf_counter
from typing import Any

import pytest

from bench.servers import free_port, wait_port
from config import health

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def frozen_redis(tmp_path: Path) -> Iterator[str]:
    """A Redis of this test's own on a free port, stopped once listening."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is needed (.ci/run installs it)"
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_port(port)
        os.kill(proc.pid, signal.SIGSTOP)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        os.kill(proc.pid, signal.SIGCONT)
        proc.terminate()
        proc.wait(timeout=10)


def test_readyz_gives_up_on_a_hung_redis_within_its_timeout(settings: Any, frozen_redis: str) -> None:
    settings.REDIS_URL = frozen_redis
    health._redis = None
    try:
        started = perf_counter()
        status, body = asyncio.run(asyncio.wait_for(health.readiness(), 10))
        seconds = perf_counter() - started
    finally:
        health._redis = None
        if health._executor is not None:
            from django.db import connections

            health._executor.submit(lambda: connections["default"].close()).result()
            health._executor.shutdown()
            health._executor = None
    print(f"/readyz on a Redis stopped with SIGSTOP: {status} in {seconds:.2f} s")
    assert (status, body) == (503, {"status": "unavailable", "database": "ok", "redis": "down"})
    assert health.CHECK_TIMEOUT < 1.0  # each dependency's bound, checked side by side
