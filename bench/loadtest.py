"""Bots play real moves against the product and a bare Channels floor, interleaved.

    python -m bench.loadtest                      # rate search: 100 rooms of 4 players
    python -m bench.loadtest --quick              # a smoke run in under a minute
    python -m bench.loadtest --scenario restart   # 2000 players, a killed server, reconnects
    python -m bench.loadtest --scenario flood     # limits on: one address floods, other rooms play on
    python -m bench.loadtest --scenario chat      # table talk beside moves: lines/s, latency, bytes
                                                  # (--flood-sockets, default 100; --no-flood-reconnect)

Prints figures and asserts nothing: people judge the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import resource
import secrets
import signal
import string
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from time import perf_counter, process_time
from urllib.parse import urlsplit

from bench.bots import (
    LOST_AFTER,
    Bot,
    JoinError,
    Room,
    Side,
    StepStats,
    join_player,
    own_address,
    seat_for,
)
from bench.flood import FLOOD_ADDRESS, MESSAGES_PER_SECOND, Flood
from bench.servers import (
    Config,
    Server,
    configure,
    counted_players,
    free_port,
    migrate,
    server_env,
    total_cpu,
    total_rss,
)

LADDER = [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 640.0, 1000.0]
QUICK_LADDER = [10.0, 40.0, 160.0]
P99_LIMIT_MS = 100.0
JOIN_THREADS = 32
JOIN_TRIES = 5
SETUP_AT_ONCE = 16
PRODUCT_RATE_LIMIT = 10.0  # rooms/consumers.py: a socket may send 10 messages a second
FLOOD_RATE_PER_ROOM = 5.0  # the victims' movers stay well inside that limit
# Two operatives talk in turn, each within a socket's chat allowance (rooms/chat.py: a line
# every 1.5 s once the burst is spent).
CHAT_RATE_PER_ROOM = 1.0
MAX_OWN_ADDRESSES = 2000  # bots.own_address stays below 127.0.9.0, the flood's block
RESTART_MARKS = [5, 10, 20, 30]
COLUMNS = [("done/s", 7), ("p50", 6), ("p95", 6), ("p99", 6), ("lost", 5), ("skip", 5), ("gaps", 5),
           ("cpu", 6), ("lag", 5), ("", 4)]  # fmt: skip
CELL_HEADER = " ".join(f"{name:>{width}}" for name, width in COLUMNS)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.loadtest", description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--scenario", choices=["rates", "restart", "flood", "chat"], default="rates")
    add("--rooms", type=int, help="rooms (default 100; 20 with --quick or --scenario flood)")
    add("--players", type=int, default=4, help="players per room, at least 4")
    add("--processes", type=int, default=1, help="product processes (more than 1 needs REDIS_URL)")
    add(
        "--rates", type=lambda text: sorted(float(r) for r in text.split(",")), help="actions/s, e.g. 5,10,20"
    )
    add(
        "--step-seconds",
        type=float,
        help="seconds of moves per step (default 6, 8 for the flood scenario; 2 with --quick)",
    )
    add("--fixed-rate", type=float, default=50.0, help="the fixed-rate step, actions/s")
    add("--players-total", type=int, default=2000, help="players of the restart scenario")
    add("--flood-sockets", type=int, default=100, help=f"sockets the flood opens from {FLOOD_ADDRESS}")
    add(
        "--flood-reconnect",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="flood sockets reconnect after a close, with the page's backoff",
    )
    add("--quick", action="store_true", help="20 rooms, 2 s steps, three rates: a smoke run")
    add("--max-seconds", type=float, default=600.0, help="hard bound on the whole run")
    args = parser.parse_args(argv)
    flood = args.scenario == "flood"
    args.rooms = args.rooms or (20 if args.quick or flood else 100)
    args.rates = args.rates or (QUICK_LADDER if args.quick else LADDER)
    args.step_seconds = args.step_seconds or (2.0 if args.quick else 8.0 if flood else 6.0)
    args.warmup = 1.0 if args.quick else 2.0
    return args


def raise_file_limit() -> None:
    """Thousands of sockets: the soft limit up to the hard one (the servers inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


async def wait_until(
    check: Callable[[], bool], timeout: float, what: str, progress: Callable[[], str] | None = None
) -> None:
    """Poll ``check``; a long wait says how far it got every 10 s."""
    start = last = perf_counter()
    while not check():
        if perf_counter() > start + timeout:
            raise RuntimeError(f"gave up after {timeout:.0f} s waiting for {what}")
        if progress is not None and perf_counter() - last > 10:
            last = perf_counter()
            print(f"  … {last - start:.0f} s: {progress()}", flush=True)
        await asyncio.sleep(0.02)


def percentile_ms(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] * 1000


def quantiles(stats: StepStats) -> tuple[float, float, float]:
    """p50, p95, p99 of the step's move latencies, in ms."""
    p50, p95, p99 = (percentile_ms(stats.latencies, q) for q in (0.5, 0.95, 0.99))
    return p50, p95, p99


def passed(stats: StepStats) -> bool:
    return bool(stats.latencies) and stats.lost == 0 and quantiles(stats)[2] < P99_LIMIT_MS


def cpu_ms(stats: StepStats) -> float:
    """Server CPU per action sent: every process of the side, every thread."""
    return stats.cpu_seconds * 1000 / max(stats.sent, 1)


def cell(stats: StepStats | None) -> str:
    """One side of a table row: times in ms; cpu in server ms per action; lag: p99 late sends."""
    if stats is None:
        return f"{'-':>7}".ljust(len(CELL_HEADER))
    p50, p95, p99 = quantiles(stats)
    return (
        f"{len(stats.latencies) / stats.seconds:7.1f} {p50:6.1f} {p95:6.1f} {p99:6.1f} "
        f"{stats.lost:5d} {stats.skipped:5d} {stats.gaps:5d} {cpu_ms(stats):6.2f} "
        f"{percentile_ms(stats.lateness, 0.99):5.0f} {'ok' if passed(stats) else 'FAIL':>4}"
    )


def _both(product: float, floor: float, unit: str) -> str:
    return f"product {product:.2f} {unit}, floor {floor:.2f} {unit}"


class Bench:
    def __init__(self, args: argparse.Namespace, config: Config) -> None:
        self.args, self.config = args, config
        self.run_id = "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(6))
        self.log_dir = Path(tempfile.mkdtemp(prefix=f"loadtest-{self.run_id}-"))
        self.servers: list[Server] = []
        self.sides: list[Side] = []
        self.flood_steps: dict[str, StepStats] = {}  # the victims' step, by flood or none
        self.flood: Flood | None = None
        self.chat_steps: dict[str, list[StepStats]] = {}  # the chat scenario's steps, by kind

    def print_config(self) -> None:
        a, database = self.args, urlsplit(self.config.database_url).path.rsplit("/", 1)[-1]
        where = f"{self.config.vendor} ({database}), {self.config.layer} layer"
        processes = a.processes if a.scenario == "rates" else 1
        print(f"loadtest {self.run_id}: {where}, product processes {processes}")
        if a.scenario == "rates":
            rates = ", ".join(f"{rate:g}" for rate in a.rates)
            print(f"  {a.rooms} rooms × {a.players} players, {a.step_seconds:g} s steps at {rates} actions/s")
        elif a.scenario == "flood":
            print(
                f"  flood, limits on: {a.rooms} rooms × {a.players} players, each player from its own "
                f"address, {self.flood_rate():g} actions/s for {a.step_seconds:g} s without, then during "
                f"a flood of {a.flood_sockets} sockets from {FLOOD_ADDRESS}"
            )
        elif a.scenario == "chat":
            print(f"  chat: {a.rooms} rooms × {a.players} players, moves and room-channel lines in turn")
        else:
            print(f"  restart: {a.players_total // 4 * 4} players in rooms of 4")
        print(f"  server logs in {self.log_dir}")

    # ---- servers and bots ---------------------------------------------------------------

    def start(self, name: str, app: str, settings: str, rate_limits: bool = False) -> Server:
        env = server_env(self.config, settings, rate_limits)
        server = Server(name, app, free_port(), env, self.log_dir)
        server.start()
        self.servers.append(server)
        return server

    def stop_servers(self) -> None:
        for server in self.servers:
            server.stop()

    def add_side(
        self,
        name: str,
        servers: list[Server],
        prefix: str,
        rooms: int,
        players: int,
        own_addresses: bool = False,
    ) -> Side:
        """Rooms of bots; a room's players spread round-robin over the side's processes.

        ``own_addresses``: every bot on a loopback address of its own, as players on their own
        networks are, so that limits per address see each one alone.
        """
        side = Side(name, servers)
        for index in range(rooms):
            room = Room(side, f"lt-{self.run_id}-{prefix}{index}")
            room.bots = [
                Bot(
                    room,
                    servers[j % len(servers)].port,
                    own_address(index * players + j) if own_addresses else None,
                )
                for j in range(players)
            ]
            side.rooms.append(room)
        self.sides.append(side)
        return side

    async def start_product(self, processes: int, rate_limits: bool = False) -> list[Server]:
        await asyncio.to_thread(migrate, self.config)
        return [
            self.start(f"product-{i}", "config.asgi:application", "config.settings", rate_limits)
            for i in range(processes)
        ]

    async def join_all(self, side: Side) -> None:
        """The join form for every bot, JOIN_THREADS at a time; a failed join is tried again."""
        loop, start, failures = asyncio.get_running_loop(), perf_counter(), Counter[str]()
        with ThreadPoolExecutor(JOIN_THREADS) as pool:

            async def join(bot: Bot, name: str) -> None:
                for attempt in range(JOIN_TRIES):
                    try:
                        bot.use_session(
                            await loop.run_in_executor(
                                pool, join_player, bot.port, bot.room.slug, name, bot.source
                            )
                        )
                        return
                    except (OSError, JoinError) as error:
                        failures[str(error) or type(error).__name__] += 1
                        if attempt == JOIN_TRIES - 1:
                            raise JoinError(
                                f"{name} of {bot.room.slug}: {JOIN_TRIES} joins failed ({error})"
                            ) from error
                        await asyncio.sleep(2.0**attempt)

            await asyncio.gather(
                *(join(bot, f"bot{i}") for room in side.rooms for i, bot in enumerate(room.bots))
            )
        seconds = perf_counter() - start
        print(
            f"{side.name}: {len(side.bots)} players joined in {seconds:.1f} s (not part of the connect time)"
        )
        if failures:
            print(f"  failed joins, tried again: {dict(failures)}")

    async def connect_all(self, side: Side) -> None:
        """Every socket at once: from the first attempt to the last first state."""
        bots, rss_before, start = side.bots, total_rss(side.servers), perf_counter()
        for bot in bots:
            bot.start()
        have_state = lambda: sum(b.state_at is not None for b in bots)  # noqa: E731
        await wait_until(
            lambda: have_state() == len(bots),
            180,
            f"{side.name} sockets",
            lambda: f"{have_state()} have a state",
        )
        side.connect_seconds = max(b.state_at or 0.0 for b in bots) - start
        await asyncio.sleep(0.5)  # the last connect handlers finish before RSS is read
        rss_after = total_rss(side.servers)
        side.kib_per_socket = (rss_after - rss_before) / len(bots)
        failures = dict(sum((b.failures for b in bots), Counter()))
        memory = f"{side.kib_per_socket:.0f} KiB each (RSS {rss_before // 1024} → {rss_after // 1024} MiB)"
        print(f"{side.name}: {len(bots)} sockets open in {side.connect_seconds:.2f} s, {memory}")
        if failures:
            print(f"  failed tries, retried with the page's backoff: {failures}")

    async def close_bots(self) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(15):
                bots = [bot for side in self.sides for bot in side.bots]
                await asyncio.gather(*(bot.close() for bot in bots), return_exceptions=True)

    # ---- rooms ready to play ------------------------------------------------------------

    async def seat_room(self, room: Room) -> None:
        """Seats, a deal and a clue, each as the page sends them; then the guessers' mover."""
        bots = room.bots

        async def until(check: Callable[[Bot], bool], what: str) -> None:
            await wait_until(lambda: all(check(bot) for bot in bots), 60, f"{what} in {room.slug}")

        for index, bot in enumerate(bots):
            team, role = seat_for(index)
            await bot.send({"action": "sit", "team": team, "role": role})
        await until(lambda bot: bot.seated_as(*seat_for(bots.index(bot))), "seats")
        await bots[0].send({"action": "start_game"})
        await until(lambda bot: bot.play.get("phase") == "clue", "a deal")
        play = bots[0].play
        red = play["team"] == "red"
        await bots[0 if red else 2].send(
            {"action": "give_clue", "turn": play["turn"], "word": "qzxv", "number": 2}
        )
        await until(lambda bot: bot.play.get("phase") == "guess", "a clue")
        room.mover = bots[1 if red else 3]
        room.turn = room.mover.play["turn"]
        uncovered = [card["position"] for card in room.mover.play["cards"] if not card["covered"]]
        room.positions = (uncovered[0], uncovered[1])

    async def seat_all(self, side: Side) -> None:
        limit = asyncio.Semaphore(SETUP_AT_ONCE)

        async def one(room: Room) -> None:
            async with limit:
                await self.seat_room(room)

        await asyncio.gather(*(one(room) for room in side.rooms))

    # ---- measured steps -----------------------------------------------------------------

    async def expire_moves(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            now = perf_counter()
            for side in self.sides:
                for room in side.rooms:
                    room.expire(now)

    async def run_step(self, side: Side, rate: float, seconds: float, kind: str = "move") -> StepStats:
        """Open loop: move n is sent at start + n/rate by room n mod R, whatever came before
        (``kind="chat"``: a line of table talk instead, done when every socket has it)."""
        stats = side.stats = StepStats(seconds=seconds)
        for room in side.rooms:
            room.last_target = None
        began, bench_cpu_before = perf_counter(), process_time()
        cpu_before, start = total_cpu(side.servers), began + 0.01
        for n in range(max(1, round(rate * seconds))):
            due = start + n / rate
            if due > perf_counter():
                await asyncio.sleep(due - perf_counter())
            stats.lateness.append(max(0.0, perf_counter() - due))
            room = side.rooms[n % len(side.rooms)]
            await (room.send_line(stats) if kind == "chat" else room.send_move(stats))
        await wait_until(lambda: side.pending() == 0, LOST_AFTER + 2, "moves in flight")
        stats.cpu_seconds = total_cpu(side.servers) - cpu_before
        stats.wall_seconds = perf_counter() - began
        stats.bench_cpu_seconds = process_time() - bench_cpu_before
        side.stats = None
        side.frames += stats.frames
        side.bytes += stats.bytes
        return stats

    async def search(self) -> None:
        """Up the ladder, product then floor at each rate; a side stops after two fails in a row."""
        fails = {side.name: 0 for side in self.sides}
        if max(self.args.rates) / self.args.rooms > PRODUCT_RATE_LIMIT:
            print(
                f"note: past {PRODUCT_RATE_LIMIT:g} actions/s per room the product refuses moves (too_fast)"
            )
        print(f"\n{'target':>7} | {'product':<{len(CELL_HEADER)}} | floor")
        print(f"{'':>7} | {CELL_HEADER} | {CELL_HEADER}")
        for rate in self.args.rates:
            row: dict[str, StepStats] = {}
            for side in (side for side in self.sides if fails[side.name] < 2):
                stats = row[side.name] = await self.run_step(side, rate, self.args.step_seconds)
                fails[side.name] = 0 if passed(stats) else fails[side.name] + 1
                side.best = max(side.best, rate) if passed(stats) else side.best
            if not row:
                break
            print(f"{rate:7g} | {cell(row.get('product'))} | {cell(row.get('floor'))}", flush=True)
            for name, stats in row.items():
                if stats.errors:
                    print(f"{'':>7}   {name} lost moves: {dict(stats.errors)}")

    async def rate_scenario(self) -> None:
        a = self.args
        product_servers = await self.start_product(a.processes)
        floor_server = self.start("floor", "bench.floor:application", "bench.floor_settings")
        await asyncio.gather(*(server.wait_ready() for server in self.servers))
        product = self.add_side("product", product_servers, "", a.rooms, a.players)
        floor = self.add_side("floor", [floor_server], "f", a.rooms, a.players)
        await self.join_all(product)
        await self.connect_all(product)
        await self.connect_all(floor)
        await self.seat_all(product)
        for room in floor.rooms:
            room.mover = room.bots[1]  # the floor has no seats: any one bot moves
        for side in self.sides:
            await self.run_step(side, a.rates[0], a.warmup)
            side.frames = side.bytes = 0  # frame sizes count from the measured steps only
        await self.search()
        for side in self.sides:
            side.fixed = await self.run_step(side, a.fixed_rate, a.step_seconds)

    def print_summary(self) -> None:
        if self.args.scenario == "flood":
            self.print_flood_summary()
            return
        if self.args.scenario == "chat":
            self.print_chat_summary()
            return
        if len(self.sides) != 2:
            return
        product, floor = self.sides
        if floor.connect_seconds:
            seconds = _both(product.connect_seconds, floor.connect_seconds, "s")
            print(f"\nconnect, {len(product.bots)} sockets at once: {seconds}")
            print(f"memory per connection: {_both(product.kib_per_socket, floor.kib_per_socket, 'KiB')}")
        if product.frames and floor.frames:
            print(
                f"bytes per frame: {_both(product.bytes / product.frames, floor.bytes / floor.frames, 'B')}"
            )
        for side in self.sides:
            if side.fixed is not None:
                p50, p95, p99 = quantiles(side.fixed)
                figures = f"p50 {p50:.1f} / p95 {p95:.1f} / p99 {p99:.1f} ms, lost {side.fixed.lost}"
                cpu = f"server CPU {cpu_ms(side.fixed):.2f} ms per action"
                print(f"fixed {self.args.fixed_rate:g}/s, {side.name}: {figures}, {cpu}")
        ratio = f"{product.best / floor.best:.3f}" if floor.best else "n/a"
        print(f"product max {product.best:g} actions/s, floor max {floor.best:g} actions/s, ratio {ratio}")

    # ---- a killed server ----------------------------------------------------------------

    async def restart_scenario(self) -> None:
        servers = await self.start_product(1)
        await servers[0].wait_ready()
        side = self.add_side("product", servers, "", max(1, self.args.players_total // 4), 4)
        await self.join_all(side)
        await self.connect_all(side)
        killed = perf_counter()
        servers[0].kill()
        servers[0].start()
        await servers[0].wait_ready()
        print(f"SIGKILL, then a new process listens after {perf_counter() - killed:.2f} s")
        bots = side.bots
        with contextlib.suppress(RuntimeError):  # the counts below say who is missing
            back_now = lambda: sum(bool(b.state_at and b.opened_at > killed) for b in bots)  # noqa: E731
            await wait_until(lambda: back_now() == len(bots), 120, "all back", lambda: f"{back_now()} back")
        back = sorted(b.state_at - killed for b in bots if b.state_at and b.opened_at > killed)
        for mark in RESTART_MARKS:
            print(f"  back within {mark:2d} s of the kill: {sum(t <= mark for t in back)}/{len(bots)}")
        print(f"  {len(back)}/{len(bots)} back, the last after {back[-1] if back else math.nan:.2f} s")

    # ---- a flood from one address ---------------------------------------------------------

    # ---- table talk beside moves ----------------------------------------------------------

    async def chat_scenario(self) -> None:
        """Moves, then lines of table talk, in turn at one rate: what a line costs beside a move."""
        a = self.args
        rate = float(min(a.fixed_rate, a.rooms * CHAT_RATE_PER_ROOM))
        servers = await self.start_product(a.processes)
        await asyncio.gather(*(server.wait_ready() for server in servers))
        side = self.add_side("product", servers, "", a.rooms, a.players)
        await self.join_all(side)
        await self.connect_all(side)
        await self.seat_all(side)
        for room in side.rooms:
            # Spymasters say nothing while the game runs (CN-36): the operatives talk.
            room.talkers = [
                bot for bot in room.bots if (bot.state.get("you") or {}).get("role") == "operative"
            ]
        await self.run_step(side, rate, a.warmup)
        print(f"\n{rate:g} actions/s over {a.rooms} rooms, {a.step_seconds:g} s per step, in turn")
        print(f"{'step':>7} | {CELL_HEADER} | bytes/frame")
        for _turn in range(2):
            for kind in ("move", "chat"):
                stats = await self.run_step(side, rate, a.step_seconds, kind)
                self.chat_steps.setdefault(kind, []).append(stats)
                per_frame = stats.bytes / stats.frames if stats.frames else 0.0
                print(f"{kind:>7} | {cell(stats)} | {per_frame:.0f}", flush=True)
                if stats.errors:
                    print(f"{'':>7}   lost: {dict(stats.errors)}")

    def print_chat_summary(self) -> None:
        def merged(kind: str) -> StepStats | None:
            steps = self.chat_steps.get(kind) or []
            if not steps:
                return None
            total = StepStats(seconds=sum(x.seconds for x in steps))
            for x in steps:
                total.latencies += x.latencies
                total.lost += x.lost
                total.frames += x.frames
                total.bytes += x.bytes
                total.cpu_seconds += x.cpu_seconds
                total.sent += x.sent
            return total

        moves, lines = merged("move"), merged("chat")
        if moves is None or lines is None or not moves.latencies or not lines.latencies:
            return
        for name, stats in (("moves", moves), ("chat lines", lines)):
            p50, p95, p99 = quantiles(stats)
            print(
                f"{name}: {stats.sent / stats.seconds:.1f}/s, "
                f"p50 {p50:.1f} / p95 {p95:.1f} / p99 {p99:.1f} ms, "
                f"lost {stats.lost}, server CPU {cpu_ms(stats):.2f} ms each, "
                f"{stats.bytes / max(1, stats.frames):.0f} B per frame received"
            )
        print(f"a line costs the server {cpu_ms(lines) / max(cpu_ms(moves), 1e-9):.2f}× a move's CPU")

    def flood_rate(self) -> float:
        return float(min(self.args.fixed_rate, self.args.rooms * FLOOD_RATE_PER_ROOM))

    async def flood_scenario(self) -> None:
        """The victims' moves at a fixed rate, without a flood, then during one, limits on."""
        a, rate = self.args, self.flood_rate()
        servers = await self.start_product(1, rate_limits=True)
        await servers[0].wait_ready()
        victims = self.add_side("product", servers, "", a.rooms, a.players, own_addresses=True)
        await self.join_all(victims)
        await self.connect_all(victims)
        await self.seat_all(victims)
        # A real room to flood (a sync reads and renders it), made by the flood's own address.
        flood_slug = f"lt-{self.run_id}-flood"
        await asyncio.to_thread(join_player, servers[0].port, flood_slug, "flood", FLOOD_ADDRESS)
        await self.run_step(victims, rate, a.warmup)
        self.flood_steps["without flood"] = await self.run_step(victims, rate, a.step_seconds)
        self.flood = Flood(servers[0].port, flood_slug, a.flood_sockets, a.flood_reconnect)
        during, _ = await asyncio.gather(
            self.run_step(victims, rate, a.step_seconds), self.flood.run(a.step_seconds)
        )
        self.flood_steps["during flood"] = during

    def print_flood_summary(self) -> None:
        a = self.args
        print(f"\nvictims: {a.rooms} rooms × {a.players} players, {self.flood_rate():g} actions/s")
        print(f"{'':>13} | {CELL_HEADER} | server CPU             | bench CPU")
        for name, stats in self.flood_steps.items():
            wall = max(stats.wall_seconds, 1e-9)
            server = f"{stats.cpu_seconds:5.2f} s, {stats.cpu_seconds / wall:4.0%} of a core"
            print(f"{name:>13} | {cell(stats)} | {server} | {stats.bench_cpu_seconds / wall:4.0%}")
            if stats.errors:
                print(f"{'':>13}   lost moves: {dict(stats.errors)}")
        if len(self.flood_steps) == 2:
            without, during = (quantiles(stats)[2] for stats in self.flood_steps.values())
            print(f"p99 during / without the flood: {during / without:.2f}")
        if self.flood is None:
            return
        f = self.flood.stats
        reconnect = "reconnecting with the page's backoff" if a.flood_reconnect else "no reconnects"
        print(
            f"flood from {FLOOD_ADDRESS}: {a.flood_sockets} sockets, sync {MESSAGES_PER_SECOND:g}/s each, "
            f"{reconnect}, {f.seconds:.1f} s"
        )
        print(
            f"  {f.attempts} connection attempts: {f.accepted} accepted, {f.refused} refused at the "
            f"handshake (too_many), {f.closed_later} closed later (too_many)"
        )
        failed = f", no socket at all: {dict(f.failed)}" if f.failed else ""
        print(f"  closes by the server, by code (4008 after too_many): {dict(f.closes)}{failed}")
        print(
            f"  messages: {f.sent} sent, {f.answered} answered; errors received: {dict(f.errors)}; "
            f"sockets open: at most {f.peak_open}, {f.open_at_end} at the end"
        )

    # ---- the whole run ------------------------------------------------------------------

    async def run(self) -> None:
        self.print_config()
        expiry = asyncio.create_task(self.expire_moves())
        bound = asyncio.timeout(self.args.max_seconds)
        try:
            async with bound:
                scenarios = {
                    "rates": self.rate_scenario,
                    "restart": self.restart_scenario,
                    "flood": self.flood_scenario,
                    "chat": self.chat_scenario,
                }
                await scenarios[self.args.scenario]()
        except TimeoutError:
            if not bound.expired():
                raise
            print(f"stopped: --max-seconds {self.args.max_seconds:g} reached")
        except (RuntimeError, JoinError) as error:
            print(f"stopped: {error}")  # the server's side of it is in the log summary below
        finally:
            expiry.cancel()
            self.print_summary()
            closed_at = perf_counter()
            await self.close_bots()
            await self.report_presence(closed_at)
            self.stop_servers()
            self.print_problems()

    async def report_presence(self, closed_at: float) -> None:
        """Every socket closed at once: how soon the database counts none of them present."""
        prefix = f"lt-{self.run_id}-"
        counted = -1
        # After a SIGKILL the dead process's counts remain until the new process, once it
        # has beaten for PRESENCE_JUDGE_SECONDS, drops it; otherwise every close counts at once.
        for _ in range(900 if self.args.scenario == "restart" else 100):
            counted = await asyncio.to_thread(counted_players, self.config.database_url, prefix)
            if counted == 0:
                break
            await asyncio.sleep(0.1)
        seconds = perf_counter() - closed_at
        print(f"presence after closing every socket at once: {counted} still counted after {seconds:.1f} s")

    def print_problems(self) -> None:
        for side in self.sides:
            if side.stray_errors:
                print(f"{side.name}: errors outside measured moves: {dict(side.stray_errors)}")
        for server in self.servers:
            lines = server.problems()
            if lines:
                print(f"{server.name} log ({server.log_path}): {len(lines)} distinct error lines, the first:")
                print("\n".join(f"    {line}" for line in lines[:8]))


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    config = configure()
    if args.processes > 1 and not config.redis_url:
        sys.exit("--processes > 1 needs REDIS_URL: the in-memory channel layer cannot reach another process.")
    if args.scenario in ("rates", "flood") and args.players < 4:
        sys.exit("--players: at least 4 (a spymaster and an operative per team).")
    if args.scenario == "flood" and args.rooms * args.players > MAX_OWN_ADDRESSES:
        sys.exit(f"--scenario flood: at most {MAX_OWN_ADDRESSES} players (a loopback address each).")
    raise_file_limit()
    signal.signal(signal.SIGTERM, _interrupted)  # a TERM stops the servers too, as Ctrl-C does
    bench = Bench(args, config)
    try:
        asyncio.run(bench.run())
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(130)
    finally:
        bench.stop_servers()  # again, in case the loop itself was torn down


if __name__ == "__main__":
    main()
