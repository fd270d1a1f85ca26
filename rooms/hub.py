"""One subscriber per room per server process, fanning each push out to that room's sockets.

A change is rendered once per distinct view where it happens (``rooms.state``). The
process that made it hands the snapshot to its own hub at once and publishes it once
for the others (``rooms.bus``: Redis Pub/Sub, one channel per room, subscribed once per
*process*, not per socket). Each hub keeps it as the room's latest snapshot and sends
each of its sockets of that room exactly its own seat's view — as a short ``patch``
against the version the socket holds, or a whole ``state`` when it holds another. No
socket reads the database to receive a push.

Secrets in a snapshot (the spymasters' key, each Decrypto player's view) reach only
server processes, encrypted on Redis; the one place that chooses what a browser gets
is ``RoomSocket.push`` (``rooms.consumers``), through the seat the server itself
recorded for the socket's player.

The hub also checks its rooms' versions against the database every few seconds (a
push lost to a full channel or a Redis outage heals without waiting for a client), and
touches its players' ``last_seen`` so presence heals itself after a crash.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Protocol

from rooms import bus, db, metrics
from rooms.patch import diff

log = logging.getLogger(__name__)

CHECK_EVERY = 5.0  # seconds between version checks against the database
TOUCH_EVERY = 4  # checks between presence touches (20 s, well within the 60 s grace)
UNSUBSCRIBE_AFTER = 10.0  # seconds a room stays subscribed with no local socket
PRESENCE_DELAY = 0.25  # presence pushes of a room coalesce over this window


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class RoomSocket(Protocol):
    """What the hub needs of a socket (``rooms.consumers.RoomConsumer``)."""

    slug: str
    player_pk: int | None

    async def push(self, snapshot: dict[str, Any], patches: PatchCache) -> None: ...

    async def room_closed(self) -> None: ...


class PatchCache:
    """The encoded patch of each view from one snapshot to the next, built at most once."""

    def __init__(self, previous: dict[str, Any] | None, snapshot: dict[str, Any]) -> None:
        self.previous = previous
        self.snapshot = snapshot
        self.now = time.time()
        self._base_ops: list[Any] | None = None
        self._ops: dict[str, list[Any]] = {}
        self._text: dict[str, str] = {}

    def applies(self, version: int) -> bool:
        """True when a socket holding its view at ``version`` can take the patch."""
        return self.previous is not None and self.previous["version"] == version

    def ops(self, key: str) -> list[Any]:
        """The room part's changes (the same for every view), then the game view's."""
        assert self.previous is not None
        if self._base_ops is None:
            base = diff(self.previous["base"], self.snapshot["base"])
            # The frame's own "version" says it; the client sets it.
            self._base_ops = [op for op in base if op[1] != ["version"]]
        if key not in self._ops:
            play = diff(self.previous["views"].get(key), self.snapshot["views"].get(key), ("play",))
            self._ops[key] = self._base_ops + play
        return self._ops[key]

    def message(self, key: str, extra: list[Any] | None = None) -> str:
        """The patch frame for view ``key`` (shared by its sockets unless ``extra`` ops)."""
        if extra:
            return encode(self._frame(self.ops(key) + extra))
        if key not in self._text:
            self._text[key] = encode(self._frame(self.ops(key)))
        return self._text[key]

    def _frame(self, ops: list[Any]) -> dict[str, Any]:
        assert self.previous is not None
        return {
            "type": "patch",
            "version": self.snapshot["version"],
            "base": self.previous["version"],
            "now": self.now,
            "ops": ops,
        }


@dataclass(eq=False)
class LocalRoom:
    sockets: set[RoomSocket] = field(default_factory=set)
    snapshot: dict[str, Any] | None = None
    subscribed: asyncio.Future[Any] | None = None
    presence_pending: bool = False
    resubscribe: bool = False
    idle_since: float | None = None


class Hub:
    """The process's subscriber for the rooms its sockets are in (one per event loop)."""

    def __init__(self) -> None:
        self.config = bus.redis_config()
        self.bus = bus.RedisBus(*self.config) if self.config else None
        self.rooms: dict[str, LocalRoom] = {}
        self._tasks: list[asyncio.Task[None]] = []

    def _start(self) -> None:
        if not self._tasks:
            self._tasks = [asyncio.ensure_future(self._check_loop())]

    # ---- sockets ---------------------------------------------------------------------
    async def attach(self, socket: RoomSocket) -> None:
        """Serve ``socket`` pushes of its room (subscribing the process if it is the first)."""
        self._start()
        room = self.rooms.setdefault(socket.slug, LocalRoom())
        room.sockets.add(socket)
        room.idle_since = None
        if room.subscribed is None:
            # A task of its own: a socket that gives up waiting must not cancel it for the
            # others (they wait on it shielded). It never fails: see _subscribe.
            room.subscribed = asyncio.ensure_future(self._subscribe(socket.slug))
        await asyncio.shield(room.subscribed)

    async def _subscribe(self, slug: str) -> None:
        """Hear the room's pushes from other processes; with Redis down, serve without them.

        A socket must open even while Redis is away: this process's own changes reach it
        directly, others' within a version check (``CHECK_EVERY``); the subscription is
        tried again then.
        """
        if self.bus is None:
            return
        try:
            await self.bus.subscribe(slug, self.deliver)
        except Exception:
            log.warning("room %s: cannot subscribe (Redis away?); catching up from the database", slug)
            room = self.rooms.get(slug)
            if room is not None:
                room.resubscribe = True

    def detach(self, socket: RoomSocket) -> None:
        room = self.rooms.get(socket.slug)
        if room is not None:
            room.sockets.discard(socket)
            if not room.sockets:
                room.idle_since = time.monotonic()

    async def snapshot(self, slug: str) -> dict[str, Any]:
        """The room's latest snapshot: this process's copy while it follows the room, else read."""
        room = self.rooms.get(slug)
        if room is not None and room.snapshot is not None and room.subscribed is not None:
            return room.snapshot
        from rooms.state import load_snapshot

        snapshot = await db.run_in_pool(load_snapshot)(slug)
        if room is not None and (room.snapshot is None or snapshot["version"] > room.snapshot["version"]):
            room.snapshot = snapshot
        return snapshot

    async def reload(self, slug: str) -> dict[str, Any]:
        """Read the room again (a client saw a gap or asked to sync) and serve everyone the result."""
        from rooms.state import load_snapshot

        snapshot = await db.run_in_pool(load_snapshot)(slug)
        await self.deliver(snapshot)
        return snapshot

    # ---- pushes ----------------------------------------------------------------------
    async def deliver(self, snapshot: dict[str, Any]) -> None:
        """A newer version of a room: each local socket of it gets its own view."""
        room = self.rooms.get(snapshot["slug"])
        if room is None:
            return
        if snapshot.get("closed"):
            # The operators closed the room: every socket is told, then closed.
            for socket in list(room.sockets):
                await socket.room_closed()
            room.snapshot = None
            return
        previous = room.snapshot
        if previous is not None and snapshot["version"] <= previous["version"]:
            return  # late or repeated
        room.snapshot = snapshot
        patches = PatchCache(previous, snapshot)
        for socket in list(room.sockets):
            try:
                await socket.push(snapshot, patches)
            except Exception:
                log.exception("room %s: push to a socket failed", snapshot["slug"])

    # ---- presence --------------------------------------------------------------------
    def presence_changed(self, slug: str) -> None:
        """A player of the room now shows connected or away: push it, once per short window."""
        room = self.rooms.setdefault(slug, LocalRoom())
        if room.presence_pending:
            return
        room.presence_pending = True
        asyncio.get_running_loop().call_later(
            PRESENCE_DELAY, lambda: asyncio.ensure_future(self._presence_push(slug))
        )

    async def _presence_push(self, slug: str) -> None:
        from rooms import services

        room = self.rooms.get(slug)
        shown = None
        if room is not None:
            room.presence_pending = False
            if room.snapshot is not None:
                shown = {p["id"]: p["connected"] for p in room.snapshot["base"]["players"]}
        pushes: list[dict[str, Any]] = []
        try:
            await db.call_collecting(pushes, services.presence_refresh, slug=slug, shown=shown)
        except Exception:
            log.exception("room %s: presence push failed", slug)
        for snapshot in pushes:
            await publish(snapshot)

    # ---- the periodic check ----------------------------------------------------------
    async def _check_loop(self) -> None:
        tick = 0
        while True:
            await asyncio.sleep(CHECK_EVERY)
            tick += 1
            try:
                await self._check(tick)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hub: periodic check failed")

    async def _check(self, tick: int) -> None:
        from rooms import services
        from rooms.models import Room

        now = time.monotonic()
        for slug, room in list(self.rooms.items()):
            if not room.sockets and room.idle_since is not None and now - room.idle_since > UNSUBSCRIBE_AFTER:
                del self.rooms[slug]
                if room.subscribed is not None and self.bus is not None:
                    await self.bus.unsubscribe(slug)
        for slug, room in list(self.rooms.items()):
            if room.resubscribe and room.sockets:
                room.resubscribe = False
                await self._subscribe(slug)
        followed = {slug: room for slug, room in self.rooms.items() if room.sockets and room.snapshot}
        if followed:
            versions = await db.run_in_pool(
                lambda: dict(Room.objects.filter(slug__in=list(followed)).values_list("slug", "version"))
            )()
            for slug, version in versions.items():
                if version > followed[slug].snapshot["version"]:  # type: ignore[index]
                    await self.reload(slug)
        if tick % TOUCH_EVERY == 0:
            pks = sorted({s.player_pk for r in self.rooms.values() for s in r.sockets if s.player_pk})
            await db.run_in_pool(services.presence_touch)(pks)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def get_hub() -> Hub:
    """This event loop's hub (one per process under Daphne; tests run one loop each)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.config != bus.redis_config():
        hub = _hubs[loop] = Hub()
    return hub


async def publish(snapshot: dict[str, Any]) -> None:
    """Send a committed change to every socket of its room, in this process and others.

    This process's hubs get it at once (a hub on another thread's loop, as the clock's
    publishes come from its own thread, gets it on its loop); other processes through
    Redis. The change is saved whatever happens here: if Redis fails, each process's
    version check (or a client's sync) brings its sockets up to date.
    """
    running = asyncio.get_running_loop()
    for loop, hub in list(_hubs.items()):
        if loop is running:
            await hub.deliver(snapshot)
        elif not loop.is_closed():
            asyncio.run_coroutine_threadsafe(hub.deliver(snapshot), loop)
    own = _hubs.get(running)
    config = own.config if own is not None else bus.redis_config()
    if config is None:
        return
    try:
        if own is not None and own.bus is not None:
            await own.bus.publish(snapshot)
        else:
            await bus.publish_once(*config, snapshot)
    except Exception:
        log.warning(
            "room %s: push of version %s not sent", snapshot["slug"], snapshot["version"], exc_info=True
        )


# Read at each scrape of /metrics: the rooms this process serves sockets in.
metrics.follow_rooms(lambda: sum(1 for h in list(_hubs.values()) for r in h.rooms.values() if r.sockets))
