"""What an idle site costs: PostgreSQL's transactions and connections, or open pages' CPU.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/idle python -m bench.idle --setup thread
    … python -m bench.idle --setup clock --daphnes 2
    python -m bench.idle --sockets 500 [--seconds 10 --rounds 2]

``--sockets N``: N open pages on one product process and N on the floor (bench/floor.py,
Channels alone, which answers a ping with a pong and nothing else), each socket pinging
as static/js/room.js does (a ping once QUIET seconds pass without a frame, on the page's
250 ms tick, never two unanswered), for each cadence in turn: ``none``, ``idle`` (the
page while its player cannot act, 15 s), ``acting`` (2.5 s: a tap pending, their turn, a
timer running) and ``before`` (1.5 s, every page before issue 31). Product and floor
windows are interleaved, round after round, so a machine whose speed swings meets both
alike; the CPU of the process (% of one core) and its memory per socket are printed,
with the ratios that survive the swings.

``thread``: Daphne processes with the clock thread inside each (GAME_CLOCK on, the
laptop's default); ``clock``: Daphne processes with GAME_CLOCK=false and one
``manage.py clock`` process (production). Nothing is connected: the figures are what
the processes cost on their own, read from ``pg_stat_database`` (``xact_commit``,
``sessions``) over the window. Prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.servers import PYTHON, ROOT, Config, Server, configure, free_port, migrate, server_env

# Seconds of silence before the page pings (static/js/room.js: QUIET_IDLE, QUIET_ACTING;
# ``before``: QUIET of the page before issue 31); None: a page that never pings.
CADENCES: dict[str, float | None] = {"none": None, "idle": 15.0, "acting": 2.5, "before": 1.5}
TICK = 0.25  # the page's watch interval


class Page:
    """One open page's socket: reads every frame, pings after ``quiet`` s of silence."""

    def __init__(self, url: str, headers: dict[str, str], source: str) -> None:
        self.url, self.headers, self.source = url, headers, source
        self.quiet: float | None = None
        self.heard_at = time.monotonic()
        self.pinged = False
        self.pings = 0
        self.ws: Any = None
        self.version = -1  # the room's version this page holds (its ping carries it)

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.url, additional_headers={k: v for k, v in self.headers.items() if k != "Origin"},
            origin=self.headers.get("Origin"),  # type: ignore[arg-type]
            ping_interval=None, compression=None, max_size=None, local_addr=(self.source, 0),
        )  # fmt: skip
        self.hear(await self.ws.recv())

    def hear(self, frame: str | bytes) -> None:
        self.heard_at, self.pinged = time.monotonic(), False
        message = json.loads(frame)
        if message.get("type") in ("state", "patch"):
            self.version = message["version"]

    async def read(self) -> None:
        async for frame in self.ws:
            self.hear(frame)

    async def watch(self) -> None:
        """The page's tick: its phase is the page's own (pages opened at random moments)."""
        await asyncio.sleep(random.random() * TICK)
        while True:
            quiet = self.quiet
            if quiet is None:
                await asyncio.sleep(1.0)
                continue
            now = time.monotonic()
            if not self.pinged and now - self.heard_at > quiet:
                self.pinged = True
                self.pings += 1
                # The version held: an up-to-date page gets a pong and nothing more.
                await self.ws.send(json.dumps({"action": "ping", "version": self.version}))
            # Sleep whole ticks until the next moment a ping may be due (the same times
            # the page's 250 ms interval would find it, without waking 4 times a second).
            due = self.heard_at + quiet - time.monotonic()
            await asyncio.sleep(TICK * max(1, math.ceil(due / TICK)) if due > 0 else TICK)


def _product_pages(port: int, count: int) -> list[Page]:
    """``count`` players joined four to a room (as browsers: page, form, session)."""
    from concurrent.futures import ThreadPoolExecutor

    from bench.bots import join_player, own_address

    def join(index: int) -> Page:
        slug = f"idle-{index // 4}-{RUN}"
        source = own_address(index)
        session = join_player(port, slug, f"P{index}", source)
        headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
        return Page(f"ws://127.0.0.1:{port}/ws/r/{slug}/", headers, source)

    # Four at once (one room's players one after another, so its creator comes first).
    with ThreadPoolExecutor(4) as pool:
        rooms = list(pool.map(lambda first: [join(i) for i in range(first, min(first + 4, count))],
                              range(0, count, 4)))  # fmt: skip
    return [page for room in rooms for page in room]


def _floor_pages(port: int, count: int) -> list[Page]:
    from bench.bots import own_address

    origin = {"Origin": f"http://127.0.0.1:{port}"}
    return [
        Page(f"ws://127.0.0.1:{port}/ws/r/idle-{i // 4}-{RUN}/", origin, own_address(i)) for i in range(count)
    ]


RUN = "".join(random.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))


async def socket_costs(config: Config, count: int, seconds: float, rounds: int) -> None:
    env = server_env(config, "config.settings")
    env["GAME_CLOCK"] = "0"  # the web process alone, as deployed (the clock runs apart)
    log_dir = Path(tempfile.mkdtemp(prefix="idle-"))
    product = Server("product", "config.asgi:application", free_port(), env, log_dir)
    floor = Server(
        "floor", "bench.floor:application", free_port(), server_env(config, "bench.floor_settings"), log_dir
    )
    sides = {"product": product, "floor": floor}
    try:
        for server in sides.values():
            server.start()
        for server in sides.values():
            await server.wait_ready()
        rss0 = {name: server.rss_kib() for name, server in sides.items()}
        pages = {
            "product": await asyncio.to_thread(_product_pages, product.port, count),
            "floor": _floor_pages(floor.port, count),
        }
        tasks = []
        for side in pages.values():
            for page in side:
                await page.open()
                tasks += [asyncio.create_task(page.read()), asyncio.create_task(page.watch())]
        await asyncio.sleep(3)  # the connects' own pushes settle
        per_socket = {name: (sides[name].rss_kib() - rss0[name]) / count for name in sides}
        cpu: dict[tuple[str, str], list[float]] = {}
        pings: dict[tuple[str, str], list[float]] = {}
        for _ in range(rounds):
            for cadence, quiet in CADENCES.items():
                for name, server in sides.items():
                    now = time.monotonic()
                    for page in pages[name]:
                        # Each page at its own point of its quiet spell, as pages opened
                        # and last spoken to at random moments are: no burst in step.
                        page.quiet, page.pinged = quiet, False
                        page.heard_at = now - random.random() * (quiet or 0)
                    await asyncio.sleep(min(3.0, quiet or 0) + 0.5)  # into the cadence's rhythm
                    sent0, cpu0, t0 = (
                        sum(p.pings for p in pages[name]),
                        server.cpu_seconds(),
                        time.monotonic(),
                    )
                    await asyncio.sleep(seconds)
                    elapsed = time.monotonic() - t0
                    cpu.setdefault((name, cadence), []).append(100 * (server.cpu_seconds() - cpu0) / elapsed)
                    pings.setdefault((name, cadence), []).append(
                        (sum(p.pings for p in pages[name]) - sent0) / elapsed
                    )
                    for page in pages[name]:
                        page.quiet = None
        for task in tasks:
            task.cancel()
        report(count, seconds, rounds, cpu, pings, per_socket)
    finally:
        for server in sides.values():
            server.stop()


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def report(
    count: int,
    seconds: float,
    rounds: int,
    cpu: dict[tuple[str, str], list[float]],
    pings: dict[tuple[str, str], list[float]],
    per_socket: dict[str, float],
) -> None:
    print(f"\n{count} open pages per process, {rounds} rounds of {seconds:.0f} s windows, product and floor "
          f"interleaved (median of the rounds; % of one core)")  # fmt: skip
    print(f"{'cadence':>8} {'pings/s':>8} {'product %':>10} {'floor %':>8} {'product/floor':>14}")
    for cadence in CADENCES:
        product, floor = _median(cpu[("product", cadence)]), _median(cpu[("floor", cadence)])
        rate = _median(pings[("product", cadence)])
        ratio = f"{product / floor:.1f}" if floor > 0.05 else "-"
        print(f"{cadence:>8} {rate:8.1f} {product:10.2f} {floor:8.2f} {ratio:>14}")
    before, idle = _median(cpu[("product", "before")]), _median(cpu[("product", "idle")])
    acting = _median(cpu[("product", "acting")])
    none = _median(cpu[("product", "none")])
    print(f"product: idle pages cost {idle:.2f} % against {before:.2f} % before "
          f"({before / max(idle, 0.01):.1f}× less); pages whose players can act {acting:.2f} %; "
          f"no pings {none:.2f} %")  # fmt: skip
    print(
        f"memory per open page: product {per_socket['product']:.0f} KiB, floor {per_socket['floor']:.0f} KiB"
    )


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
    parser.add_argument("--sockets", type=int, help="open pages per process: their CPU by ping cadence")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    if args.sockets:
        config = configure()
        migrate(config)
        asyncio.run(socket_costs(config, args.sockets, args.seconds, args.rounds))
        return
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
