"""bench/outage.py runs: two Daphne processes and the clock through a short PostgreSQL outage,
no 500, no socket closed, everyone shown present afterwards (the bench's own verdict)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.conftest import _database_url


def test_the_outage_bench_runs_through_a_short_outage(redis_url: str) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the outage is a PostgreSQL database refusing connections (the CI's second run)")
    base = _database_url().rpartition("/")[0]
    env = {**os.environ, "DATABASE_URL": f"{base}/outage_bench_test", "REDIS_URL": redis_url}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.outage",
            "--seconds",
            "5",
            "--after",
            "12",
            "--rooms",
            "2",
            "--players",
            "3",
        ],
        cwd=django_settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "room page: HTTP 503" in done.stdout and "new socket: HTTP 403" in done.stdout
    assert "move on an open socket: unavailable" in done.stdout
    assert "500s answered: 0, in the logs: 0" in done.stdout
