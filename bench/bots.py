"""Bots that behave like the room page's script: one socket each, its state kept current.

A room's latency clock: a move is done when every socket of the room holds a version at
least the one the move makes; it is lost if that takes over 5 s or an error answers it.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from time import perf_counter
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

from bench.servers import Server

OPEN_TIMEOUT = 10.0
LOST_AFTER = 5.0
SEATS = [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")]
_refs = itertools.count(1)


def seat_for(index: int) -> tuple[str, str]:
    """Players 0-3 take the four standard seats; the rest are operatives, teams alternating."""
    if index < len(SEATS):
        return SEATS[index]
    return ("red" if index % 2 == 0 else "blue", "operative")


def backoff(attempt: int) -> float:
    """The browser's reconnect delay (static/js/room.js), attempt counting from 0."""
    return min(10.0, 0.5 * 2.0**attempt) * random.uniform(0.75, 1.25)


def _walk(state: Any, path: list[Any]) -> Any:
    for key in path:
        state = state[key]
    return state


def apply_ops(state: dict[str, Any], ops: list[list[Any]]) -> None:
    """Apply a patch's ops in place; raises LookupError/TypeError/ValueError on a bad one."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "set":
            parent = state
            for key in path[:-1]:
                # A missing object on the way is created (the floor's state has no "play").
                parent = parent.setdefault(key, {}) if isinstance(parent, dict) else parent[key]
            parent[path[-1]] = op[2]
        elif kind == "del":
            del _walk(state, path[:-1])[path[-1]]
        elif kind == "push":
            _walk(state, path).extend(op[2])
        else:
            raise ValueError(f"unknown op {kind!r}")


class JoinError(Exception):
    """The join form gave no session; the message says which request failed and how."""


def own_address(index: int) -> str:
    """Player ``index``'s loopback address, one each (Linux routes all of 127.0.0.0/8 to
    loopback): 127.0.1.1, 127.0.1.2 … 250 to a block, so 2000 fit below 127.0.9.0."""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


def join_player(port: int, slug: str, name: str, source: str | None = None) -> str:
    """Join like a browser: the room page (CSRF cookie), then the form; the session id.

    ``source``: the address the requests come from (the product counts new rooms per address).
    """
    source_address = (source, 0) if source else None
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=source_address)
    try:
        conn.request("GET", f"/r/{slug}/")
        page = conn.getresponse()
        page.read()
        csrf = _cookies(page).get("csrftoken")
        if page.status != 200 or not csrf:
            raise JoinError(f"room page: HTTP {page.status}")
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "Referer": f"http://127.0.0.1:{port}/r/{slug}/",
        }
        conn.request(
            "POST", f"/r/{slug}/join/", urlencode({"name": name, "csrfmiddlewaretoken": csrf}), headers
        )
        answer = conn.getresponse()
        answer.read()
        if answer.status != 302:
            raise JoinError(f"join form: HTTP {answer.status}")
        return _cookies(answer)["sessionid"]
    finally:
        conn.close()


def _cookies(response: http.client.HTTPResponse) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for header in response.headers.get_all("Set-Cookie") or []:
        jar.load(header)
    return {name: morsel.value for name, morsel in jar.items()}


@dataclass
class StepStats:
    """What one measured step saw on one side."""

    sent: int = 0
    latencies: list[float] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)
    lost: int = 0
    skipped: int = 0
    gaps: int = 0
    frames: int = 0
    bytes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    cpu_seconds: float = 0.0
    bench_cpu_seconds: float = 0.0  # this process's own, bots and all: is the client the limit?
    seconds: float = 0.0
    wall_seconds: float = 0.0  # the moves, then the wait for the last ones in flight


@dataclass
class Move:
    ref: int
    sent: float
    target: int
    stats: StepStats


class Side:
    """The product or the floor: its servers, its rooms, the step being measured, its totals."""

    def __init__(self, name: str, servers: list[Server]) -> None:
        self.name, self.servers = name, servers
        self.rooms: list[Room] = []
        self.stats: StepStats | None = None
        self.stray_errors: Counter[str] = Counter()
        self.connect_seconds = self.kib_per_socket = 0.0
        self.frames = self.bytes = 0
        self.best = 0.0
        self.fixed: StepStats | None = None

    @property
    def bots(self) -> list[Bot]:
        return [bot for room in self.rooms for bot in room.bots]

    def pending(self) -> int:
        return sum(len(room.pending) + len(room.lines) for room in self.rooms)


@dataclass
class Line:
    """A chat line in flight: done when every socket of its room has it."""

    ref: int
    text: str
    sent: float
    stats: StepStats
    heard: set[int] = field(default_factory=set)


class Room:
    def __init__(self, side: Side, slug: str) -> None:
        self.side, self.slug = side, slug
        self.bots: list[Bot] = []
        self.mover: Bot | None = None
        # Who talks (the chat scenario: the operatives in turn, spymasters being quiet in play).
        self.talkers: list[Bot] = []
        self.lines: dict[str, Line] = {}
        self.turn = 0
        self.positions = (0, 1)
        self.count = 0
        self.pending: deque[Move] = deque()
        # The version the latest move in flight will make: moves in flight stack up.
        self.last_target: int | None = None

    async def send_move(self, stats: StepStats) -> None:
        mover = self.mover
        assert mover is not None
        self.count += 1
        target = max(mover.version, self.last_target or 0) + 1
        self.last_target = target
        move = Move(next(_refs), perf_counter(), target, stats)
        self.pending.append(move)
        stats.sent += 1
        position = self.positions[self.count % 2]
        message = {"action": "propose", "turn": self.turn, "position": position, "ref": move.ref}
        if not await mover.send(message):
            self.drop(move, "not_connected")

    async def send_line(self, stats: StepStats) -> None:
        """A line of table talk in the room's channel, from the next talker in turn."""
        self.count += 1
        speaker = self.talkers[self.count % len(self.talkers)]
        line = Line(next(_refs), f"lt{self.slug[-6:]}-{self.count}", perf_counter(), stats)
        self.lines[line.text] = line
        stats.sent += 1
        message = {"action": "say", "channel": "room", "text": line.text, "ref": line.ref}
        if not await speaker.send(message):
            self.drop_line(line, "not_connected")

    def on_chat(self, bot: Bot, message: dict[str, Any], now: float) -> None:
        for said in message.get("messages", []):
            line = self.lines.get(said.get("text"))
            if line is None:
                continue
            line.heard.add(id(bot))
            if len(line.heard) == len(self.bots):
                del self.lines[line.text]
                line.stats.latencies.append(now - line.sent)

    def drop_line(self, line: Line, reason: str) -> None:
        if self.lines.pop(line.text, None) is not None:
            line.stats.lost += 1
            line.stats.errors[reason] += 1

    def on_version(self, now: float) -> None:
        if not self.pending:
            return
        everyone = min(bot.version for bot in self.bots)
        while self.pending and self.pending[0].target <= everyone:
            move = self.pending.popleft()
            move.stats.latencies.append(now - move.sent)

    def on_error(self, bot: Bot, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        line = next((x for x in self.lines.values() if x.ref == message.get("ref")), None)
        if line is not None:
            self.drop_line(line, code)
            return
        move = next((m for m in self.pending if m.ref == message.get("ref")), None)
        if move is None and bot is self.mover and self.pending:
            # "too_fast" carries no ref; it answers the newest message, not an older one.
            move = self.pending[-1]
        if move is None:
            self.side.stray_errors[f"{code}: {message.get('message')}"] += 1
            return
        self.drop(move, code)

    def drop(self, move: Move, reason: str) -> None:
        """A refused move makes no version: the ones after it each land one lower."""
        self.pending.remove(move)
        move.stats.lost += 1
        move.stats.errors[reason] += 1
        for later in self.pending:
            if later.target > move.target:
                later.target -= 1
        if self.last_target is not None:
            self.last_target -= 1
        self.on_version(perf_counter())

    def expire(self, now: float) -> None:
        for line in [x for x in self.lines.values() if now - x.sent > LOST_AFTER]:
            self.drop_line(line, "timeout")
        while self.pending and now - self.pending[0].sent > LOST_AFTER:
            move = self.pending.popleft()
            move.stats.lost += 1
            move.stats.errors["timeout"] += 1


class Bot:
    """One browser tab: a socket that reconnects with the page's backoff.

    ``source``: the local address its requests and socket come from (None: the system's
    choice, 127.0.0.1).
    """

    def __init__(self, room: Room, port: int, source: str | None = None) -> None:
        self.room, self.port, self.source = room, port, source
        self.url = f"ws://127.0.0.1:{port}/ws/r/{room.slug}/"
        self.origin = Origin(f"http://127.0.0.1:{port}")
        self.headers: dict[str, str] = {}
        self.state: dict[str, Any] = {}
        self.version = -1
        self.syncing = False
        self.ws: ClientConnection | None = None
        self.task: asyncio.Task[None] | None = None
        self.running = True
        self.opened_at = 0.0
        self.state_at: float | None = None  # the first state on the current connection
        self.failures: Counter[str] = Counter()
        self._sends: set[asyncio.Task[bool]] = set()

    def use_session(self, session: str) -> None:
        self.headers["Cookie"] = f"sessionid={session}"

    def start(self) -> None:
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        attempt = 0
        while self.running:
            try:
                async with connect(
                    self.url,
                    origin=self.origin,
                    additional_headers=self.headers,
                    compression=None,
                    ping_interval=None,  # the page pings in JSON; protocol pings would only add noise
                    open_timeout=OPEN_TIMEOUT,
                    close_timeout=2,
                    max_size=None,
                    local_addr=(self.source, 0) if self.source else None,
                ) as ws:
                    self.ws, self.opened_at, self.state_at, self.syncing = ws, perf_counter(), None, False
                    attempt = 0  # the page resets its backoff on "open"
                    async for text in ws:
                        try:
                            self.on_frame(text)
                        except (ValueError, LookupError, TypeError) as error:
                            # Counted, not fatal: one odd frame must not silence the bot.
                            self.room.side.stray_errors[
                                f"bad frame: {type(error).__name__} {error}"[:90]
                            ] += 1
            except (OSError, TimeoutError, WebSocketException) as error:
                cause = f" ({error.__cause__})" if error.__cause__ else ""
                self.failures[f"{type(error).__name__}{cause}"[:90]] += 1
            self.ws = None
            if self.running:
                await asyncio.sleep(backoff(attempt))
                attempt += 1

    async def send(self, message: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except ConnectionClosed:
            return False
        return True

    async def close(self) -> None:
        self.running = False
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    def on_frame(self, text: str | bytes) -> None:
        now = perf_counter()
        stats = self.room.side.stats
        if stats is not None:
            stats.frames += 1
            stats.bytes += len(text.encode() if isinstance(text, str) else text)
        message = json.loads(text)
        kind = message.get("type")
        if kind == "state":
            self.on_state(message, now, stats)
        elif kind == "patch":
            self.on_patch(message, now, stats)
        elif kind == "chat":
            self.room.on_chat(self, message, now)
        elif kind == "error":
            self.room.on_error(self, message)

    def on_state(self, message: dict[str, Any], now: float, stats: StepStats | None) -> None:
        if self.state_at is None:
            self.state_at = now
        version = message["version"]
        if version < self.version:
            return  # an older state arriving late, as the page ignores it
        if stats is not None and self.version >= 0 and version > self.version + 1:
            stats.skipped += version - self.version - 1
        self.state, self.syncing = message, False
        self.advance(version, now)

    def on_patch(self, message: dict[str, Any], now: float, stats: StepStats | None) -> None:
        version = message["version"]
        if self.syncing or version <= self.version:
            return  # waiting for the sync's state, or already past this patch
        if message["base"] != self.version:
            self.resync(stats)
            return
        try:
            apply_ops(self.state, message["ops"])
        except (LookupError, TypeError, ValueError, AttributeError):
            # A patch that does not fit the state held is a gap too: only a state repairs it.
            self.resync(stats)
            return
        self.advance(version, now)

    def resync(self, stats: StepStats | None) -> None:
        if stats is not None:
            stats.gaps += 1
        self.syncing = True
        task = asyncio.create_task(self.send({"action": "sync"}))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    def advance(self, version: int, now: float) -> None:
        if version > self.version:
            self.version = version
            self.room.on_version(now)

    @property
    def play(self) -> dict[str, Any]:
        return self.state.get("play") or {}

    def seated_as(self, team: str, role: str) -> bool:
        you = self.state.get("you") or {}
        return bool(you.get("team") == team and you.get("role") == role)
