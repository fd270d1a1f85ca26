"""bench/presence.py runs: two Daphne processes and the clock, one SIGKILLed; every screen
shows who is really connected soon after, nobody connected shown away (its own verdict)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.conftest import _database_url


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the bench reads its counts from PostgreSQL (the CI's second run)",
)
def test_the_presence_bench_runs_through_a_sigkill(redis_url: str) -> None:
    base = _database_url().rpartition("/")[0]
    env = {**os.environ, "DATABASE_URL": f"{base}/presence_bench_test", "REDIS_URL": redis_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [sys.executable, "-m", "bench.presence", "kill", "--rooms", "2", "--players", "3", "--leave", "1",
         "--after", "20"],
        cwd=django_settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )  # fmt: skip
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "connected players shown away after the fault: 0" in done.stdout
    assert "counts in the database not the sockets open: 0" in done.stdout
