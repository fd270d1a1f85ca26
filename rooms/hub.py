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
push lost to a full channel or a Redis outage heals without waiting for a client). Its
``process`` counts its sockets for presence (``rooms.presence``: a thread beats for it and
re-asserts them after an outage); the hub pushes the rooms whose players that shows
otherwise, and every room it serves once the database is back.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.conf import settings

from rooms import bus, db, metrics, presence
from rooms.patch import PatchCache, encode

log = logging.getLogger(__name__)

# Seconds between version checks against the database (PUSH_CHECK_SECONDS).
CHECK_EVERY = float(getattr(settings, "PUSH_CHECK_SECONDS", 5.0))
TOUCH_EVERY = 4  # checks between stamps of its players' last_seen (20 s, within the 60 s grace)
UNSUBSCRIBE_AFTER = 10.0  # seconds a room stays subscribed with no local socket
PRESENCE_DELAY = 0.25  # presence pushes of a room coalesce over this window


class RoomSocket(Protocol):
    """What the hub needs of a socket (``rooms.consumers.RoomConsumer``)."""

    slug: str
    player_pk: int | None
    player_id: str | None

    async def push(self, snapshot: dict[str, Any], patches: PatchCache) -> None: ...

    async def said(self, line: dict[str, Any], frame: str) -> None: ...

    async def room_closed(self) -> None: ...


@dataclass(eq=False)
class LocalRoom:
    sockets: set[RoomSocket] = field(default_factory=set)
    snapshot: dict[str, Any] | None = None
    subscribed: asyncio.Future[Any] | None = None
    presence_pending: bool = False
    resubscribe: bool = False
    idle_since: float | None = None
    # A push heard before the room was first read: believed only if the read agrees
    # it is the same room (see ``snapshot``).
    early: dict[str, Any] | None = None
    reloading: bool = False
    # The number of the last line of talk delivered here (``None``: not known yet), and
    # the lock that keeps lines in order while missed ones are read from the database.
    chat_seq: int | None = None
    chat_lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def identity(snapshot: dict[str, Any] | None) -> Any:
    """Which room a snapshot is of (``None``: a room not stored when it was read)."""
    return None if snapshot is None else snapshot.get("room")


class Hub:
    """The process's subscriber for the rooms its sockets are in (one per event loop)."""

    def __init__(self) -> None:
        self.config = bus.redis_config()
        self.bus = bus.RedisBus(*self.config) if self.config else None
        self.rooms: dict[str, LocalRoom] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._touch_due = False
        self._quiet = bus.Quiet(logger=log)
        self._outage = db.Outage(log, "hub: periodic check")
        self._loop = asyncio.get_running_loop()
        self.process = presence.Process(on_change=self._presence_moved, loop=self._loop)

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
            # others (they wait on it shielded). It never fails and never waits past
            # bus.SUBSCRIBE_WAIT: see _subscribe.
            room.subscribed = asyncio.ensure_future(self._subscribe(socket.slug))
        await asyncio.shield(room.subscribed)

    async def _subscribe(self, slug: str) -> None:
        """Hear the room's pushes from other processes; with Redis away, serve without them.

        A socket must open even while Redis is away or hung: this process's own changes
        reach it directly, others' within a version check (``CHECK_EVERY``); the
        subscription is confirmed when Redis answers, or tried again then.
        """
        if self.bus is None:
            return
        try:
            confirmed = await self.bus.subscribe(slug, self.receive)
        except Exception:
            log.exception("room %s: subscribing failed", slug)
            confirmed = False
        if not confirmed:
            self._quiet.warn(
                "room %s: no subscription yet (Redis away?); catching up from the database", slug
            )
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
        if room is not None:
            early, room.early = room.early, None
            if (
                early is not None
                and identity(early) is not None
                and identity(early) == identity(snapshot)
                and early["version"] > snapshot["version"]
            ):
                snapshot = early  # committed after the read, heard before it returned
            held = room.snapshot
            if held is None or identity(held) != identity(snapshot) or snapshot["version"] > held["version"]:
                if held is None or identity(held) != identity(snapshot):
                    room.chat_seq = snapshot.get("chat_seq")  # the history a socket gets covers the rest
                room.snapshot = snapshot
        return snapshot

    async def reload(self, slug: str) -> dict[str, Any]:
        """Read the room again (a client saw a gap or asked to sync) and serve everyone the result."""
        from rooms.state import load_snapshot

        snapshot = await db.run_in_pool(load_snapshot)(slug)
        await self.deliver(snapshot)
        return snapshot

    # ---- pushes ----------------------------------------------------------------------
    async def receive(self, snapshot: dict[str, Any]) -> None:
        """A push from another process (authenticated by ``rooms.bus``): believed only for
        the room this process holds, and only when newer than what it holds."""
        room = self.rooms.get(str(snapshot.get("slug")))
        if room is None:
            return  # a room this process stopped following
        if snapshot.get("kind") == "chat":
            # Only for the room this process has read (a line of an older room of that
            # name must not reach this one's sockets).
            if room.snapshot is None or identity(room.snapshot) != snapshot.get("room"):
                bus.IGNORED.count("other_room")
                return
            await self.deliver_chat(snapshot)
            return
        held = room.snapshot
        if held is None:
            # Not read yet (a socket is opening): kept until the read says which room it is.
            if room.early is None or snapshot.get("version", 0) > room.early.get("version", 0):
                room.early = snapshot
            return
        if identity(held) is None:
            # The room was not stored when this process read it: its first push is
            # checked against the database, never believed (it could be an old room's).
            if not room.reloading:
                room.reloading = True
                try:
                    await self.reload(str(snapshot["slug"]))
                except Exception:
                    self._quiet.warn("room %s: reading a new room failed", snapshot.get("slug"))
                finally:
                    room.reloading = False
            return
        if identity(snapshot) != identity(held):
            bus.IGNORED.count("other_room")
            return
        version = snapshot.get("version")
        if (
            not isinstance(version, int)
            or version < held["version"]
            or (version == held["version"] and not snapshot.get("closed"))
        ):
            bus.IGNORED.count("stale")
            return
        await self.deliver(snapshot)

    async def deliver(self, snapshot: dict[str, Any]) -> None:
        """A newer version of a room: each local socket of it gets its own view."""
        room = self.rooms.get(snapshot["slug"])
        if room is None:
            return
        previous = room.snapshot
        same_room = previous is not None and identity(previous) == identity(snapshot)
        if snapshot.get("closed"):
            if previous is not None and identity(previous) is not None and not same_room:
                return  # another room of that name was closed
            await self.close_room(snapshot["slug"])
            return
        if same_room and snapshot["version"] <= previous["version"]:  # type: ignore[index]
            return  # late or repeated
        room.snapshot = snapshot
        if not same_room:
            room.chat_seq = snapshot.get("chat_seq")
        elif (snapshot.get("chat_seq") or 0) > (room.chat_seq or 0) and room.chat_seq is not None:
            # A line this process has not delivered (its push lost on the way): read it.
            asyncio.ensure_future(self.catch_up_chat(snapshot["slug"]))
        patches = PatchCache(previous if same_room else None, snapshot)
        for socket in list(room.sockets):
            try:
                await socket.push(snapshot, patches)
            except Exception:
                # A socket being closed (a drain, a removal) refuses sends: expected.
                if not getattr(socket, "closing", False):
                    log.exception("room %s: push to a socket failed", snapshot["slug"])

    async def deliver_chat(self, said: dict[str, Any]) -> None:
        """A chat line to the local sockets of its readers (``None``: the whole room),
        in the room's order: once each, the missed ones before it read from the database."""
        slug = said["slug"]
        room = self.rooms.get(slug)
        if room is None:
            return
        seq = said["line"].get("seq") or 0
        if not seq or room.snapshot is None or identity(room.snapshot) != said.get("room"):
            # A line of a process of the previous release (unnumbered), or of a room this
            # process has not read yet: delivered as it comes.
            await self._send_chat(room, said)
            return
        async with room.chat_lock:
            held = room.chat_seq
            if held is not None and seq <= held:
                return  # delivered already (caught up from the database first)
            if held is not None and seq > held + 1:
                await self._chat_from_database(slug, room, upto=seq - 1)
            await self._send_chat(room, said)
            room.chat_seq = max(room.chat_seq or 0, seq)

    async def catch_up_chat(self, slug: str) -> None:
        """Deliver the room's lines this process missed (Redis lost their pushes)."""
        room = self.rooms.get(slug)
        if room is None or room.chat_seq is None:
            return
        async with room.chat_lock:
            await self._chat_from_database(slug, room)

    async def _chat_from_database(self, slug: str, room: LocalRoom, upto: int | None = None) -> None:
        """The lines after the last delivered here (the room's chat lock held)."""
        held = room.chat_seq
        if held is None:
            return
        from rooms.chat import chat_since

        missed = await db.run_in_pool(chat_since)(slug=slug, after=held, upto=upto)
        for said in missed:
            if room.snapshot is not None and said["room"] != identity(room.snapshot):
                return  # the room was closed and made again meanwhile
            await self._send_chat(room, said)
            room.chat_seq = max(room.chat_seq or 0, said["line"]["seq"])
        if missed:
            log.info("room %s: %d line(s) of talk caught up from the database", slug, len(missed))

    async def _send_chat(self, room: LocalRoom, said: dict[str, Any]) -> None:
        readers = said.get("readers")
        allowed = None if readers is None else set(readers)
        frame = encode({"type": "chat", "history": False, "messages": [said["line"]]})
        for socket in list(room.sockets):
            if allowed is None or socket.player_id in allowed:
                try:
                    await socket.said(said["line"], frame)
                except Exception:
                    if not getattr(socket, "closing", False):  # a closing socket refuses sends
                        log.exception("room %s: chat to a socket failed", said["slug"])

    async def close_room(self, slug: str) -> None:
        """The operators closed the room: every socket is told, then closed."""
        room = self.rooms.get(slug)
        if room is None:
            return
        for socket in list(room.sockets):
            await socket.room_closed()
        room.snapshot = None
        room.chat_seq = None

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

    def _presence_moved(self, rooms: set[str], healed: bool) -> None:
        """From the presence thread: ``rooms`` now show someone otherwise; ``healed``: the
        database is back and this process's sockets re-asserted (every room it serves is
        checked, as a presence push may have failed meanwhile)."""
        try:
            self._loop.call_soon_threadsafe(self._presence_rooms, rooms, healed)
        except RuntimeError:
            pass  # the loop is closed

    def _presence_rooms(self, rooms: set[str], healed: bool) -> None:
        if healed:
            rooms = rooms | {slug for slug, room in self.rooms.items() if room.sockets}
        for slug in rooms:
            room = self.rooms.get(slug)
            if room is not None and room.snapshot is not None:
                self.presence_changed(slug)  # compared with what its sockets were shown
            else:
                asyncio.ensure_future(self._presence_push(slug))  # a room served elsewhere

    async def _presence_push(self, slug: str) -> None:
        room = self.rooms.get(slug)
        shown = None
        if room is not None:
            room.presence_pending = False
            if room.snapshot is not None:
                shown = {p["id"]: p["connected"] for p in room.snapshot["base"]["players"]}
        pushes: list[dict[str, Any]] = []
        try:
            await db.call_collecting(pushes, presence.presence_refresh, slug=slug, shown=shown)
        except Exception:
            self._quiet.warn("room %s: presence push failed (database away?)", slug, exc_info=True)
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
        """Leave idle rooms, retry subscriptions, catch up versions, vouch for players.

        Each step stands alone: whatever Redis or the database does to one (a hung
        Redis, a database outage), the others still run on every check.
        """
        now = time.monotonic()
        for slug, room in list(self.rooms.items()):
            if not room.sockets and room.idle_since is not None and now - room.idle_since > UNSUBSCRIBE_AFTER:
                del self.rooms[slug]
                if room.subscribed is not None and self.bus is not None:
                    self.bus.forget(slug)  # never waits on Redis
        for slug, room in list(self.rooms.items()):
            if room.resubscribe and room.sockets and room.subscribed is not None and room.subscribed.done():
                room.resubscribe = False
                room.subscribed = asyncio.ensure_future(self._subscribe(slug))
        try:
            await self._catch_up()
            self._outage.succeeded()
        except Exception as error:
            self._outage.failed(error)
        if tick % TOUCH_EVERY == 0 or self._touch_due:
            try:
                await self._touch()
                self._touch_due = False
            except Exception as error:
                # Tried again on every check until it succeeds: presence heals as soon
                # as the database is back, not a touch interval later.
                self._touch_due = True
                self._outage.failed(error)
        bus.IGNORED.flush()

    async def _catch_up(self) -> None:
        """Read the followed rooms' versions: a missed push is loaded, a closed room closed."""
        from rooms.models import Room, room_identity

        followed = {slug: room for slug, room in self.rooms.items() if room.sockets and room.snapshot}
        if not followed:
            return
        rows = await db.run_in_pool(
            lambda: list(
                Room.objects.filter(slug__in=list(followed)).values_list(
                    "slug", "pk", "created_at", "version", "chat_seq"
                )
            )
        )()
        found = {
            slug: (room_identity(pk, created), version, said) for slug, pk, created, version, said in rows
        }
        for slug, room in followed.items():
            held = room.snapshot
            if held is None:
                continue
            row = found.get(slug)
            if identity(held) is None:
                if row is not None:
                    await self.reload(slug)  # created since it was read
            elif row is None or row[0] != identity(held):
                await self.close_room(slug)  # closed (and perhaps created again) meanwhile
            else:
                if row[1] > held["version"]:
                    await self.reload(slug)
                if room.chat_seq is not None and row[2] > room.chat_seq:
                    await self.catch_up_chat(slug)

    async def _touch(self) -> None:
        """Vouch for this process's players (``last_seen`` now), and push a room that shows
        one of them away though here (a presence push a database outage failed)."""
        await db.run_in_pool(presence.presence_touch)(self.process.players())
        for slug, room in self.rooms.items():
            if room.snapshot is None:
                continue
            shown = {p["id"]: p["connected"] for p in room.snapshot["base"]["players"]}
            here = {getattr(s, "player_id", None) for s in room.sockets if s.player_pk}
            if any(shown.get(player) is False for player in here):
                self.presence_changed(slug)  # shown away though here: push the truth


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def get_hub() -> Hub:
    """This event loop's hub (one per process under Daphne; tests run one loop each)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.config != bus.redis_config():
        hub = _hubs[loop] = Hub()
    return hub


async def _each_hub(call: Callable[[Hub], Coroutine[Any, Any, None]]) -> None:
    """Every hub of this process: this loop's at once, another thread's on its own loop."""
    running = asyncio.get_running_loop()
    for loop, hub in list(_hubs.items()):
        if loop is running:
            await call(hub)
        elif not loop.is_closed():
            asyncio.run_coroutine_threadsafe(call(hub), loop)


async def publish_chat(said: dict[str, Any]) -> None:
    """A chat line (``rooms.chat.chat_say``) to its readers here and, through Redis, elsewhere.

    A line Redis loses is read from the database by the processes that missed it: at
    the next line, the next push of the room, or the next version check (``CHECK_EVERY``).
    """
    await _each_hub(lambda hub: hub.deliver_chat(said))
    own = _hubs.get(asyncio.get_running_loop())
    if own is not None and own.bus is not None:
        own.bus.enqueue(said)


async def publish(snapshot: dict[str, Any]) -> None:
    """Send a committed change to every socket of its room, in this process and others.

    This process's hubs get it at once (a hub on another thread's loop, as the clock's
    publishes come from its own thread, gets it on its loop); other processes through
    Redis, from the bus's publishing task: nothing here waits on Redis. The change is
    saved whatever happens there: if Redis fails, each process's version check (or a
    client's sync) brings its sockets up to date.
    """
    await _each_hub(lambda hub: hub.deliver(snapshot))
    own = _hubs.get(asyncio.get_running_loop())
    if own is not None:
        if own.bus is not None:
            own.bus.enqueue(snapshot)
        return
    config = bus.redis_config()
    if config is None:
        return
    for loop, hub in list(_hubs.items()):
        if hub.bus is not None and hub.config == config and loop.is_running():
            loop.call_soon_threadsafe(hub.bus.enqueue, snapshot)  # the server's loop sends it
            return
    try:
        bus.publish_sync(*config, snapshot)
    except Exception:
        _quiet.warn("room %s: push of version %s not sent", snapshot["slug"], snapshot.get("version"))


_quiet = bus.Quiet(logger=log)

# Read at each scrape of /metrics: the rooms this process serves sockets in.
metrics.follow_rooms(lambda: sum(1 for h in list(_hubs.values()) for r in h.rooms.values() if r.sockets))
