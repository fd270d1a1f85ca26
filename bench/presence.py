"""Presence after a fault (issue 28): two Daphne processes and the clock as deployed, rooms of
people on open sockets on both, then one fault:

- ``outage``: PostgreSQL refuses every connection for ``--seconds``; halfway through,
  ``--leave`` players close their page (their departure cannot be written then);
- ``kill``: one Daphne process is SIGKILLed; its players reconnect to the other at once
  (as the page does), then ``--leave`` of them close their page.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/presence REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m bench.presence outage --seconds 30 --leave 2
    ... python -m bench.presence kill --rooms 50 --players 4 --leave 10

Figures: how long after the database came back (after the players left, for ``kill``)
until every screen shows who is really connected (the truth: a player with an open
socket present, any other away), whether a connected player was ever shown away
meanwhile, and the counts left in the database. The database named in DATABASE_URL is
the bench's own (created if missing). Exits 1 when the screens do not show the truth
within ``--after`` seconds, or showed a connected player away after the fault.
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
from pathlib import Path
from typing import Any

from bench.outage import database_access, ensure_database, seed
from bench.servers import PYTHON, ROOT, SECRET_KEY, Config, Server, free_port, migrate, server_env


class Seat:
    """One player's page: its socket (reopened on another process after a kill) and what
    its screen shows, read as the page reads it."""

    def __init__(self, watch: Watch, slug: str, name: str, session: str) -> None:
        self.watch, self.slug, self.name, self.session = watch, slug, name, session
        self.ws: Any = None
        self.port = 0
        self.state: dict[str, Any] | None = None
        self.reader: asyncio.Future[None] | None = None
        self.open = False

    async def connect(self, port: int) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://127.0.0.1:{port}/ws/r/{self.slug}/",
            origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={self.session}"},
            open_timeout=30,
        )
        self.port, self.open, self.state = port, True, None
        self.reader = asyncio.ensure_future(self.read())

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
                    self.watch.seen(self)
        except Exception:
            pass
        finally:
            self.open = False

    async def leave(self) -> None:
        self.open = False
        await self.ws.close()

    def shown(self) -> dict[str, bool]:
        if self.state is None:
            return {}
        return {p["name"]: p["connected"] for p in self.state["players"] if not p["bot"]}


class Watch:
    """Every seat, the truth, and each time a screen showed a connected player away."""

    def __init__(self) -> None:
        self.seats: list[Seat] = []
        self.wrongly_away: list[tuple[float, str, str]] = []  # (when, room, player)

    def truth(self, slug: str) -> dict[str, bool]:
        return {s.name: s.open for s in self.seats if s.slug == slug}

    def seen(self, seat: Seat) -> None:
        truth = self.truth(seat.slug)
        for name, connected in seat.shown().items():
            if truth.get(name) and not connected:
                self.wrongly_away.append((time.monotonic(), seat.slug, name))

    def right(self) -> bool:
        """Every open screen shows every player of its room as they are."""
        return all(s.shown() == self.truth(s.slug) for s in self.seats if s.open)

    async def until_right(self, since: float, limit: float) -> float:
        """Seconds from ``since`` until every screen shows the truth (inf past ``limit``)."""
        while not self.right():
            if time.monotonic() - since > limit:
                return float("inf")
            await asyncio.sleep(0.05)
        return time.monotonic() - since


def counts(database_url: str, slugs: list[str]) -> dict[tuple[str, str], int]:
    """The database's count of open sockets per (room, player)."""
    import psycopg

    with psycopg.connect(database_url.split("?")[0], autocommit=True) as db:
        rows = db.execute(
            "SELECT r.slug, p.name, p.connections FROM rooms_player p "
            "JOIN rooms_room r ON r.id = p.room_id WHERE r.slug = ANY(%s)",
            [slugs],
        ).fetchall()
    return {(slug, name): count for slug, name, count in rows}


async def open_all(watch: Watch, seeded: list[tuple[str, list[str]]], ports: list[int]) -> None:
    for index, (slug, sessions) in enumerate(seeded):
        for number, session in enumerate(sessions):
            seat = Seat(watch, slug, f"P{number}", session)
            watch.seats.append(seat)
            await seat.connect(ports[(index + number) % len(ports)])
    if await watch.until_right(time.monotonic(), 60) == float("inf"):
        raise RuntimeError("the players never all showed present before the fault")
    watch.wrongly_away.clear()


async def outage(args: argparse.Namespace, database_url: str, ports: list[int],
                 seeded: list[tuple[str, list[str]]]) -> dict[str, Any]:  # fmt: skip
    watch = Watch()
    await open_all(watch, seeded, ports)
    leaving = [watch.seats[i * len(watch.seats) // max(1, args.leave)] for i in range(args.leave)]
    await asyncio.to_thread(database_access, database_url, False)
    cut = time.monotonic()
    await asyncio.sleep(args.seconds / 2)
    for seat in leaving:
        await seat.leave()
    await asyncio.sleep(max(0.0, args.seconds - (time.monotonic() - cut)))
    await asyncio.to_thread(database_access, database_url, True)
    back = time.monotonic()
    right = await watch.until_right(back, args.after)
    await asyncio.sleep(max(0.0, min(args.after, right + 5) - (time.monotonic() - back)))
    stays = watch.right()
    away = sorted({(slug, name) for when, slug, name in watch.wrongly_away if when > back})
    found = await asyncio.to_thread(counts, database_url, [slug for slug, _ in seeded])
    truth = {(s.slug, s.name): int(s.open) for s in watch.seats}
    for seat in watch.seats:
        if seat.open:
            await seat.ws.close()
    return {
        "figure": f"every screen right {right:.1f} s after the database came back",
        "right": right,
        "stays": stays,
        "wrongly_away": away,
        "miscounted": sorted(k for k, v in truth.items() if found.get(k) != v),
    }


async def kill(args: argparse.Namespace, database_url: str, servers: list[Server],
               seeded: list[tuple[str, list[str]]]) -> dict[str, Any]:  # fmt: skip
    watch = Watch()
    ports = [s.port for s in servers]
    await open_all(watch, seeded, ports)
    victim, survivor = servers
    moved = [s for s in watch.seats if s.port == victim.port]
    victim.kill()
    killed = time.monotonic()
    await asyncio.gather(*(s.reader for s in moved if s.reader is not None))
    await asyncio.gather(*(s.connect(survivor.port) for s in moved))  # the pages come back at once
    returned = time.monotonic() - killed
    present = await watch.until_right(killed, args.after)
    leaving = moved[: args.leave]
    for seat in leaving:
        await seat.leave()
    left = time.monotonic()
    right = await watch.until_right(left, args.after)
    await asyncio.sleep(1)
    found = await asyncio.to_thread(counts, database_url, [slug for slug, _ in seeded])
    truth = {(s.slug, s.name): int(s.open) for s in watch.seats}
    away = sorted({(slug, name) for when, slug, name in watch.wrongly_away if when > killed})
    for seat in watch.seats:
        if seat.open:
            await seat.ws.close()
    return {
        "figure": (
            f"{len(moved)} players back on the other process {returned:.1f} s after the SIGKILL, "
            f"every screen right {present:.1f} s after it; {len(leaving)} of them left then: "
            f"every screen right {right:.1f} s after they left"
        ),
        "right": right,
        "stays": watch.right(),
        "wrongly_away": away,
        "miscounted": sorted(k for k, v in truth.items() if found.get(k) != v),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.presence", description=__doc__.splitlines()[0])
    parser.add_argument("fault", choices=["outage", "kill"])
    parser.add_argument("--seconds", type=float, default=30.0, help="the outage (default 30)")
    parser.add_argument("--after", type=float, default=90.0, help="watched after it at most (default 90)")
    parser.add_argument("--rooms", type=int, default=6)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--leave", type=int, default=2, help="players who leave (default 2)")
    args = parser.parse_args(argv)
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit("bench.presence needs DATABASE_URL=postgres://…/presence and REDIS_URL")
    ensure_database(database_url)
    config = Config(database_url=database_url, redis_url=os.environ["REDIS_URL"])
    migrate(config)
    env = {**server_env(config, "config.settings"), "GAME_CLOCK": "0"}  # the clock: its own process
    os.environ.update(DJANGO_SETTINGS_MODULE=env["DJANGO_SETTINGS_MODULE"], DATABASE_URL=database_url,
                      SECRET_KEY=SECRET_KEY, GAME_CLOCK="0")  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    seeded = seed(args.rooms, args.players, f"{args.fault}{int(time.time())}")
    log_dir = Path(tempfile.mkdtemp(prefix="presence-"))
    servers = [Server(f"daphne{i}", "config.asgi:application", free_port(), env, log_dir) for i in (1, 2)]
    clock_log = open(log_dir / "clock.log", "ab")  # noqa: SIM115  (closed below)
    clock = subprocess.Popen([PYTHON, "manage.py", "clock"], cwd=ROOT, env=env, stdout=clock_log,
                             stderr=subprocess.STDOUT)  # fmt: skip
    try:
        for server in servers:
            server.start()

        async def run() -> dict[str, Any]:
            for server in servers:
                await server.wait_ready()
            if args.fault == "outage":
                return await outage(args, database_url, [s.port for s in servers], seeded)
            return await kill(args, database_url, servers, seeded)

        figures = asyncio.run(run())
    finally:
        if args.fault == "outage":
            database_access(database_url, True)
        clock.terminate()
        clock.wait(timeout=20)
        clock_log.close()
        for server in servers:
            server.stop()
    fault = f"a {args.seconds:.0f} s outage" if args.fault == "outage" else "a SIGKILL"
    print(
        f"{fault}: {args.rooms * args.players} players in {args.rooms} rooms on two Daphne processes "
        f"and the clock, {args.leave} left (logs: {log_dir})"
    )
    print(f"  {figures['figure']}; still right at the end: {figures['stays']}")
    print(
        f"  connected players shown away after the fault: {len(figures['wrongly_away'])}"
        f"{' ' + str(figures['wrongly_away'][:5]) if figures['wrongly_away'] else ''}; "
        f"counts in the database not the sockets open: {len(figures['miscounted'])}"
        f"{' ' + str(figures['miscounted'][:5]) if figures['miscounted'] else ''}"
    )
    failed = figures["right"] == float("inf") or not figures["stays"] or figures["wrongly_away"]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
