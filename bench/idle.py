"""What an idle site costs PostgreSQL: transactions and new connections per second.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/idle python -m bench.idle --setup thread
    … python -m bench.idle --setup clock --daphnes 2

``thread``: Daphne processes with the clock thread inside each (GAME_CLOCK on, the
laptop's default); ``clock``: Daphne processes with GAME_CLOCK=false and one
``manage.py clock`` process (production). Nothing is connected: the figures are what
the processes cost on their own, read from ``pg_stat_database`` (``xact_commit``,
``sessions``) over the window. Prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.servers import PYTHON, ROOT, Config, Server, free_port, migrate, server_env


def stats(database_url: str) -> tuple[int, int]:
    """(committed transactions, sessions opened) of the database so far."""
    import psycopg

    name = database_url.rsplit("/", 1)[1].split("?", 1)[0]
    with psycopg.connect(database_url, autocommit=True) as db:
        db.execute("SELECT pg_stat_clear_snapshot()")
        row = db.execute(
            "SELECT xact_commit, sessions FROM pg_stat_database WHERE datname = %s", [name]
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def measure(database_url: str, seconds: float) -> tuple[float, float]:
    """Transactions/s and new connections/s, less this probe's own (one of each per read)."""
    xact0, sess0 = stats(database_url)
    time.sleep(seconds)
    xact1, sess1 = stats(database_url)
    # PostgreSQL reports a backend's counts at most once a second and when it ends: the
    # window is long enough for that to blur by well under 0.1/s.
    return max(0, xact1 - xact0 - 1) / seconds, max(0, sess1 - sess0 - 1) / seconds


async def start_all(servers: list[Server]) -> None:
    for server in servers:
        server.start()
    for server in servers:
        await server.wait_ready()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.idle", description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=["thread", "clock"], default="clock")
    parser.add_argument("--daphnes", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    args = parser.parse_args(argv)
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        sys.exit("bench.idle reads pg_stat_database: set DATABASE_URL=postgres://…")
    config = Config(database_url=database_url, redis_url=os.environ.get("REDIS_URL", ""))
    migrate(config)
    env = server_env(config, "config.settings")
    env["GAME_CLOCK"] = "1" if args.setup == "thread" else "0"
    log_dir = Path(tempfile.mkdtemp(prefix="idle-"))
    app = "config.asgi:application"
    servers = [Server(f"daphne{i}", app, free_port(), env, log_dir) for i in range(args.daphnes)]
    clock = None
    try:
        asyncio.run(start_all(servers))
        if args.setup == "clock":
            clock = subprocess.Popen([PYTHON, "manage.py", "clock"], cwd=ROOT, env=env)
        time.sleep(args.warmup)
        xacts, sessions = measure(database_url, args.seconds)
        print(
            f"{args.setup}: {args.daphnes} Daphne process(es){' + one clock' if clock else ''}, idle "
            f"{args.seconds:.0f} s: {xacts:.2f} transactions/s, {sessions:.2f} new connections/s"
        )
    finally:
        if clock is not None:
            clock.terminate()
            clock.wait(timeout=10)
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
