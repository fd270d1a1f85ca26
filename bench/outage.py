"""A PostgreSQL outage with people playing (issue 18): two Daphne processes and the clock
as deployed, rooms of people on open sockets on both; the database refuses every
connection for ``--seconds`` (75), then takes them again.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/outage REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.outage --seconds 75

The database named in DATABASE_URL is the bench's own (created if missing, its rows
left behind); the outage is ``ALTER DATABASE … ALLOW_CONNECTIONS false`` and the end of
its sessions, so the server and its other databases go on. Figures: during the outage,
what page loads, handshakes and moves were answered (a 500 is a failure) and whether the
open sockets stayed open; after it, how long until every socket shows every player
present, and whether anyone was shown away meanwhile. Exits 1 on a 500, a socket
closed, or a player left shown away.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from bench.servers import PYTHON, ROOT, SECRET_KEY, Config, Server, free_port, migrate, server_env


def _admin(database_url: str, sql: str, params: list[Any] | None = None) -> None:
    """A statement on the server's ``postgres`` database (never the bench's own)."""
    import psycopg

    base, _slash, _name = database_url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(sql, params or [])  # type: ignore[arg-type]


def _database_name(database_url: str) -> str:
    return database_url.rpartition("/")[2].split("?")[0]


def ensure_database(database_url: str) -> None:
    import psycopg

    name = _database_name(database_url)
    base = database_url.rpartition("/")[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            admin.execute(f'CREATE DATABASE "{name}"')
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


def database_access(database_url: str, allowed: bool) -> None:
    name = _database_name(database_url)
    _admin(database_url, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"true" if allowed else "false"}')
    if not allowed:
        _admin(
            database_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


def seed(rooms: int, players: int, run: str) -> list[tuple[str, list[str]]]:
    """Rooms of people who joined: (slug, their session keys)."""
    from django.contrib.sessions.backends.db import SessionStore

    from rooms.services import room_join

    seeded = []
    for r in range(rooms):
        slug = f"outage-{run}-{r}"
        sessions = []
        for p in range(players):
            uid = f"{slug}-p{p}"
            room_join(slug=slug, uid=uid, name=f"P{p}")
            store = SessionStore()
            store["uid"] = uid
            store.create()
            assert store.session_key
            sessions.append(store.session_key)
        seeded.append((slug, sessions))
    from django.db import connections

    connections.close_all()  # the outage must not count this process as a user
    return seeded


class Socket:
    """One player's socket, its state kept as the page keeps it."""

    def __init__(self, ws: Any, slug: str) -> None:
        self.ws, self.slug = ws, slug
        self.state: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.away_seen_after: float | None = None  # first time someone showed away (monotonic)
        self.closed = False

    def everyone_here(self) -> bool:
        return self.state is not None and all(p["connected"] for p in self.state["players"])

    async def read(self) -> None:
        from rooms.patch import apply

        try:
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "patch":
                    if self.state is None or message["base"] != self.state["version"]:
                        await self.ws.send(json.dumps({"action": "sync"}))
                        continue
                    message = {**apply(self.state, message["ops"]), "version": message["version"]}
                    message["type"] = "state"
                if message["type"] == "state":
                    self.state = message
                    if not self.everyone_here() and self.away_seen_after is None:
                        self.away_seen_after = time.monotonic()
                elif message["type"] == "error":
                    self.errors.append(message["code"])
        finally:
            self.closed = True


async def open_socket(port: int, slug: str, session: str) -> Socket:
    from websockets.asyncio.client import connect

    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/r/{slug}/",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=10,
    )
    return Socket(ws, slug)


def http_status(url: str, session: str) -> int:
    request = urllib.request.Request(url, headers={"Cookie": f"sessionid={session}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0


async def probe(ports: list[int], seeded: list[tuple[str, list[str]]], sockets: list[Socket],
                answers: Counter[str]) -> None:  # fmt: skip
    """What a player meets during the outage: a page, a new socket, a move on an open one."""
    from websockets.exceptions import InvalidStatus

    port = ports[len(answers) % len(ports)]
    slug, sessions = seeded[0]
    status = await asyncio.to_thread(http_status, f"http://127.0.0.1:{port}/r/{slug}/", sessions[0])
    answers[f"room page: HTTP {status}"] += 1
    try:
        late = await open_socket(port, slug, sessions[1])
        answers["new socket: opened"] += 1
        await late.ws.close()
    except InvalidStatus as refused:
        answers[f"new socket: HTTP {refused.response.status_code}"] += 1
    except OSError as error:
        answers[f"new socket: {type(error).__name__}"] += 1
    mover = sockets[len(answers) % len(sockets)]
    before = len(mover.errors)
    await mover.ws.send(json.dumps({"action": "rename", "name": "Mover"}))
    for _ in range(100):
        if len(mover.errors) > before:
            break
        await asyncio.sleep(0.05)
    answers[
        f"move on an open socket: {mover.errors[before] if len(mover.errors) > before else 'no answer'}"
    ] += 1


async def run(args: argparse.Namespace, database_url: str, ports: list[int],
              seeded: list[tuple[str, list[str]]]) -> dict[str, Any]:  # fmt: skip
    sockets = []
    for index, (slug, sessions) in enumerate(seeded):
        for number, session in enumerate(sessions):
            sockets.append(await open_socket(ports[(index + number) % len(ports)], slug, session))
    readers = [asyncio.ensure_future(s.read()) for s in sockets]
    deadline = time.monotonic() + 30
    while not all(s.everyone_here() for s in sockets):
        if time.monotonic() > deadline:
            raise RuntimeError("the players never all showed present before the outage")
        await asyncio.sleep(0.1)
    for socket in sockets:
        socket.away_seen_after = None

    answers: Counter[str] = Counter()
    await asyncio.to_thread(database_access, database_url, False)
    cut = time.monotonic()
    while time.monotonic() - cut < args.seconds:
        await probe(ports, seeded, sockets, answers)
        await asyncio.sleep(2)
    await asyncio.to_thread(database_access, database_url, True)
    back = time.monotonic()
    closed_during = sum(s.closed for s in sockets)
    shown_away_during = sum(s.away_seen_after is not None for s in sockets)

    # After: every socket shows every player present, and keeps showing it.
    healed: list[float] = []
    for socket in sockets:
        while not socket.everyone_here() and time.monotonic() - back < args.after:
            await asyncio.sleep(0.1)
        healed.append(time.monotonic() - back if socket.everyone_here() else float("inf"))
    await asyncio.sleep(max(0.0, args.after - (time.monotonic() - back)))
    away_at_end = sum(not s.everyone_here() for s in sockets)
    away_after = sum(s.away_seen_after is not None and s.away_seen_after > back for s in sockets)
    for socket in sockets:
        await socket.ws.close()
    for reader in readers:
        reader.cancel()
    return {
        "sockets": len(sockets),
        "answers": answers,
        "closed_during": closed_during,
        "shown_away_during": shown_away_during,
        "healed": healed,
        "away_after": away_after,
        "away_at_end": away_at_end,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.outage", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=75.0, help="the outage (default 75)")
    parser.add_argument("--after", type=float, default=45.0, help="watched after it (default 45)")
    parser.add_argument("--rooms", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args(argv)
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit(
            "bench.outage cuts a PostgreSQL database: set DATABASE_URL=postgres://…/outage and REDIS_URL"
        )
    ensure_database(database_url)
    config = Config(database_url=database_url, redis_url=os.environ["REDIS_URL"])
    migrate(config)
    env = {**server_env(config, "config.settings"), "GAME_CLOCK": "0"}  # the clock: its own process
    os.environ.update(DJANGO_SETTINGS_MODULE=env["DJANGO_SETTINGS_MODULE"], DATABASE_URL=database_url,
                      SECRET_KEY=SECRET_KEY, GAME_CLOCK="0")  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    seeded = seed(args.rooms, args.players, str(int(time.time())))
    log_dir = Path(tempfile.mkdtemp(prefix="outage-"))
    servers = [Server(f"daphne{i}", "config.asgi:application", free_port(), env, log_dir) for i in (1, 2)]
    clock_log = open(log_dir / "clock.log", "ab")  # noqa: SIM115  (closed below)
    clock = subprocess.Popen([PYTHON, "manage.py", "clock"], cwd=ROOT, env=env, stdout=clock_log,
                             stderr=subprocess.STDOUT)  # fmt: skip
    try:
        for server in servers:
            server.start()

        async def started() -> None:
            for server in servers:
                await server.wait_ready()

        asyncio.run(started())
        figures = asyncio.run(run(args, database_url, [s.port for s in servers], seeded))
    finally:
        database_access(database_url, True)
        clock.terminate()
        clock.wait(timeout=20)
        clock_log.close()
        for server in servers:
            server.stop()
    errors_500 = sum(count for answer, count in figures["answers"].items() if "500" in answer)
    logged_500 = sum(
        " 500 " in line for s in servers for line in s.log_path.read_text(errors="replace").splitlines()
    )
    healed = sorted(figures["healed"])
    answers = ", ".join(f"{answer} ×{count}" for answer, count in sorted(figures["answers"].items()))
    print(
        f"PostgreSQL refused every connection for {args.seconds:.0f} s; {figures['sockets']} sockets "
        f"on two Daphne processes, {args.rooms} rooms of {args.players}, one clock (logs: {log_dir})"
    )
    print(f"during the outage: {answers}")
    print(
        f"  sockets closed: {figures['closed_during']}; sockets that showed someone away: "
        f"{figures['shown_away_during']}; 500s answered: {errors_500}, in the logs: {logged_500}"
    )
    print(
        f"after: every player shown present on every socket {healed[-1]:.1f} s after the database "
        f"came back (median socket {healed[len(healed) // 2]:.1f} s); sockets that showed someone "
        f"away after it: {figures['away_after']}; "
        f"still away after {args.after:.0f} s: {figures['away_at_end']}"
    )
    failed = errors_500 or logged_500 or figures["closed_during"] or figures["away_at_end"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
