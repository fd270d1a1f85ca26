"""Pushes between server processes: Redis Pub/Sub, one channel per room, encrypted.

Each process subscribes once to each room it serves (``rooms.hub``), on ONE subscription
connection read by one listener, and publishes each committed change of a room once.
A snapshot carries secrets (the spymasters' key, each Decrypto player's view), so it
crosses Redis encrypted and authenticated (Fernet, a key derived from ``SECRET_KEY``).

What a message speaks for is inside the authenticated part: the sending process, the
channel (so the deployment: ``REDIS_PREFIX`` and the Redis database number, which Pub/Sub
itself ignores) and the snapshot with the room's identity and version. The origin is
also written in clear in front, so a process skips its own echo without decrypting it;
a clear origin that does not match the sealed one is a forgery. A receiver refuses
what it cannot open, what is older than ``MAX_AGE``, what belongs to another channel and
what it has already heard, and counts them: one log line per interval, never one per
message (``IGNORED``).

Publishing never waits on Redis where a player waits: ``enqueue`` hands the snapshot to
a task that seals and publishes pending snapshots in one pipeline, with a timeout, the
latest per room (a process that misses a version gets the next one whole, or catches up
from the database). Every other Redis call has a timeout too: a hung Redis costs other
processes their pushes for a while, never this process's players their moves.

Channels' Redis layers do the same job with a general message format; measured under
load they cost a move 0.6–1 ms more, so the push path speaks to Redis itself (redis-py).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import json
import logging
import os
import secrets
import struct
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import redis
import redis.asyncio
from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from redis.asyncio.connection import parse_url

log = logging.getLogger(__name__)

ORIGIN = secrets.token_hex(8).encode()  # this process, for the lifetime of the process
MAX_AGE = 60  # seconds a sealed message is believed (a replay needs a fresh capture)
COMMAND_TIMEOUT = 2.0  # any single Redis call: connecting, subscribing, publishing
SUBSCRIBE_WAIT = 2.0  # a socket waits at most this long for its room's subscription
SUMMARY_EVERY = 60.0  # seconds between summary lines of refused messages
SEEN_KEPT = 20_000  # tokens remembered to recognise a replay within MAX_AGE

_BUS_NUMBERS = itertools.count(1)

Deliver = Callable[[dict[str, Any]], Awaitable[None]]


def redis_config() -> tuple[str, str] | None:
    """The Redis address and the key of the configured channel layer, if it is on Redis."""
    layer = settings.CHANNEL_LAYERS.get("default", {})
    if "redis" not in layer.get("BACKEND", ""):
        return None
    config = layer.get("CONFIG", {})
    host = config["hosts"][0]
    address = host["address"] if isinstance(host, dict) else str(host)
    keys = config.get("symmetric_encryption_keys") or [settings.SECRET_KEY]
    return address, str(keys[0])


def deployment(address: str) -> str:
    """This deployment's name on Redis: its prefix and its database number."""
    return f"{settings.REDIS_PREFIX}:{parse_url(address).get('db', 0)}"


def channel_name(slug: str, address: str | None = None) -> str:
    if address is None:
        config = redis_config()
        address = config[0] if config else "redis://localhost/0"
    return f"{deployment(address)}:rooms.push.{slug}"


class Ignored:
    """Bus messages refused, by reason: counted, and summed up in one line per interval."""

    def __init__(self) -> None:
        self.totals: Counter[str] = Counter()
        self._window: Counter[str] = Counter()
        self._since = time.monotonic()

    def count(self, reason: str) -> None:
        self.totals[reason] += 1
        self._window[reason] += 1
        self.flush()

    def flush(self, force: bool = False) -> None:
        """Log the window's counts if an interval has passed (the hub calls this too)."""
        now = time.monotonic()
        if not self._window or (not force and now - self._since < SUMMARY_EVERY):
            return
        parts = ", ".join(f"{reason} {n}" for reason, n in sorted(self._window.items()))
        log.warning("rooms bus: ignored %s messages in %.0f s (%s)", sum(self._window.values()),
                    now - self._since, parts)  # fmt: skip
        self._window.clear()
        self._since = now


IGNORED = Ignored()


class Quiet:
    """A warning at most once per interval, whatever the rate of failures behind it."""

    def __init__(self, every: float = SUMMARY_EVERY, logger: logging.Logger | None = None) -> None:
        self.every = every
        self.log = logger or log
        self.last = -every
        self.missed = 0

    def warn(self, message: str, *args: Any, exc_info: bool = False) -> None:
        now = time.monotonic()
        if now - self.last < self.every:
            self.missed += 1
            return
        suffix = f" ({self.missed} more like it since the last line)" if self.missed else ""
        self.log.warning(message + suffix, *args, exc_info=exc_info)
        self.last, self.missed = now, 0


class Sealer:
    """Seals and opens this deployment's messages (no connection of its own)."""

    def __init__(self, address: str, key: str, origin: bytes = ORIGIN) -> None:
        self.address = address
        self.origin = origin
        self.deployment = deployment(address)
        digest = hashlib.sha256(key.encode()).digest()
        self.fernet = Fernet(base64.urlsafe_b64encode(digest))
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    def channel(self, slug: str) -> str:
        return f"{self.deployment}:rooms.push.{slug}"

    def seal(self, snapshot: dict[str, Any]) -> bytes:
        envelope = {
            "origin": self.origin.decode(),
            "channel": self.channel(snapshot["slug"]),
            "snapshot": snapshot,
        }
        token = self.fernet.encrypt(json.dumps(envelope, separators=(",", ":")).encode())
        return self.origin + b"." + token

    def open(self, data: bytes, channel: bytes | str | None = None) -> dict[str, Any] | None:
        """The snapshot a message carries, or ``None``: this process's own echo, or refused
        (counted in ``IGNORED``) because it does not open, is too old, was sealed for
        another channel or deployment, names another sender than its clear origin, or was
        heard already."""
        origin, _dot, token = data.partition(b".")
        if origin == self.origin:
            return None
        try:
            envelope = json.loads(self.fernet.decrypt(token))
            stamp = struct.unpack(">Q", base64.urlsafe_b64decode(token)[1:9])[0]
        except (InvalidToken, ValueError, TypeError, struct.error):
            IGNORED.count("unreadable")
            return None
        if not isinstance(envelope, dict) or not isinstance(envelope.get("snapshot"), dict):
            IGNORED.count("unreadable")
            return None
        if abs(time.time() - stamp) > MAX_AGE:
            IGNORED.count("expired")
            return None
        if envelope.get("origin") != origin.decode(errors="replace"):
            IGNORED.count("forged")
            return None
        expected = self.channel(str(envelope["snapshot"].get("slug")))
        heard_on = channel.decode(errors="replace") if isinstance(channel, bytes) else channel
        if envelope.get("channel") != expected or (heard_on is not None and heard_on != expected):
            IGNORED.count("foreign")
            return None
        tag = token[-48:]
        if tag in self._seen:
            IGNORED.count("replayed")
            return None
        self._seen[tag] = None
        if len(self._seen) > SEEN_KEPT:
            self._seen.popitem(last=False)
        snapshot: dict[str, Any] = envelope["snapshot"]
        return snapshot


class RedisBus(Sealer):
    """This process's publisher and subscriber, on one event loop and one subscription."""

    def __init__(self, address: str, key: str, origin: bytes = ORIGIN) -> None:
        super().__init__(address, key, origin)
        # Commands time out; the listener's blocking read does not (redis-py 8 reads a
        # subscription with no timeout whatever socket_timeout says).
        # Named after the process, so CLIENT LIST tells whose connections are whose.
        # One bus per event loop: under Daphne one per process, in tests one per test.
        self.client_name = f"{settings.REDIS_PREFIX}-bus-{os.getpid()}-{next(_BUS_NUMBERS)}"
        self.client = redis.asyncio.Redis.from_url(
            address,
            socket_timeout=COMMAND_TIMEOUT,
            socket_connect_timeout=COMMAND_TIMEOUT,
            client_name=self.client_name,
        )
        self.pubsub = self.client.pubsub()
        self._lock = asyncio.Lock()  # one command at a time on the subscription connection
        self._wanted: set[bytes] = set()
        self._heard: dict[bytes, asyncio.Event] = {}
        self._deliver: Deliver | None = None
        self._listener: asyncio.Task[None] | None = None
        self._pending: dict[tuple[str, Any], dict[str, Any]] = {}
        self._ready = asyncio.Event()
        self._publisher: asyncio.Task[None] | None = None
        self._quiet = Quiet()
        self.dropped = 0  # snapshots whose publish failed (other processes caught up later)

    # ---- subscribing -----------------------------------------------------------------
    async def subscribe(self, slug: str, deliver: Deliver, timeout: float = SUBSCRIBE_WAIT) -> bool:
        """Hear the room's channel; True once Redis confirmed it within ``timeout``.

        Concurrent first subscriptions share the one connection: every command on it
        goes through one lock, so redis-py never opens a second connection that nobody
        reads. On False the channel stays wanted: it is subscribed when Redis answers.
        """
        self._deliver = deliver
        channel = self.channel(slug).encode()
        self._wanted.add(channel)
        heard = self._heard.setdefault(channel, asyncio.Event())
        if heard.is_set():
            return True
        try:
            async with asyncio.timeout(timeout):
                async with self._lock:
                    if not heard.is_set():
                        await self.pubsub.subscribe(channel)
                self._listen_soon()
                await heard.wait()
            return True
        except (TimeoutError, redis.RedisError, OSError):
            self._listen_soon()
            return False

    def forget(self, slug: str) -> None:
        """Stop hearing the room (without waiting: Redis may be away)."""
        channel = self.channel(slug).encode()
        self._wanted.discard(channel)
        self._heard.pop(channel, None)
        asyncio.ensure_future(self._unsubscribe(channel))

    async def unsubscribe(self, slug: str) -> None:
        channel = self.channel(slug).encode()
        self._wanted.discard(channel)
        self._heard.pop(channel, None)
        await self._unsubscribe(channel)

    async def _unsubscribe(self, channel: bytes) -> None:
        try:
            async with asyncio.timeout(COMMAND_TIMEOUT):
                async with self._lock:
                    if channel not in self._wanted and self.pubsub.connection is not None:
                        await self.pubsub.unsubscribe(channel)
        except (TimeoutError, redis.RedisError, OSError):
            # redis-py subscribes it again when it reconnects; the listener then drops it.
            self._quiet.warn("rooms bus: an unsubscribe failed (Redis away?)")

    @property
    def channels(self) -> set[bytes]:
        """The channels this process wants to hear."""
        return set(self._wanted)

    def _listen_soon(self) -> None:
        if self.pubsub.connection is not None and (self._listener is None or self._listener.done()):
            self._listener = asyncio.ensure_future(self._listen())

    async def _listen(self) -> None:
        backoff = 0.1
        while (self._wanted or self.pubsub.subscribed) and not _cancelled():
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis went away: redis-py reconnects (and subscribes again) on the next
                # read; until Redis confirms, new sockets do not wait for it.
                for heard in self._heard.values():
                    heard.clear()
                self._quiet.warn("rooms bus: listening failed; retrying", exc_info=True)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            backoff = 0.1
            if message is not None:
                await self._handle(message)

    async def _handle(self, message: dict[str, Any]) -> None:
        kind, channel = message.get("type"), message.get("channel")
        if not isinstance(channel, bytes):
            return
        if kind == "subscribe":
            if channel in self._wanted:
                self._heard.setdefault(channel, asyncio.Event()).set()
            else:  # a room left meanwhile (or resubscribed by a reconnect): let it go
                asyncio.ensure_future(self._unsubscribe(channel))
        elif kind == "message" and channel in self._wanted and self._deliver is not None:
            snapshot = self.open(message["data"], channel)
            if snapshot is not None:
                try:
                    await self._deliver(snapshot)
                except Exception:
                    log.exception("rooms bus: delivering a push failed")

    # ---- publishing ------------------------------------------------------------------
    def enqueue(self, snapshot: dict[str, Any]) -> None:
        """Publish ``snapshot`` soon, from a task of its own (never awaited by a socket)."""
        # The latest snapshot of a room is the one worth sending; every chat line goes.
        key: tuple[Any, ...] = (snapshot["slug"], snapshot.get("room"))
        if snapshot.get("kind") == "chat":
            key = ("chat", snapshot["slug"], snapshot["line"]["id"])
        self._pending.pop(key, None)
        self._pending[key] = snapshot
        self._ready.set()
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.ensure_future(self._publish_loop())

    async def _publish_loop(self) -> None:
        while not _cancelled():
            await self._ready.wait()
            self._ready.clear()
            batch, self._pending = list(self._pending.values()), {}
            sealed = [(self.channel(s["slug"]), self.seal(s)) for s in batch]
            try:
                async with asyncio.timeout(COMMAND_TIMEOUT):
                    pipe = self.client.pipeline(transaction=False)
                    for channel, data in sealed:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                self.dropped += len(batch)
                self._quiet.warn(
                    "rooms bus: %s push(es) not sent (Redis away?); other processes catch up "
                    "from the database", len(batch)
                )  # fmt: skip

    async def publish(self, snapshot: dict[str, Any]) -> None:
        """Publish at once and wait for Redis (within ``COMMAND_TIMEOUT``)."""
        async with asyncio.timeout(COMMAND_TIMEOUT):
            await self.client.publish(self.channel(snapshot["slug"]), self.seal(snapshot))

    async def aclose(self) -> None:
        for task in (self._listener, self._publisher):
            if task is not None:
                task.cancel()
        await self.pubsub.aclose()
        await self.client.aclose()


def _cancelled() -> bool:
    """True once this task was asked to stop (redis-py may swallow a cancellation while
    it cleans a connection up; a loop that went on would never let its event loop close)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


_sync_clients: dict[tuple[str, str], tuple[Sealer, redis.Redis]] = {}


def publish_sync(address: str, key: str, snapshot: dict[str, Any]) -> None:
    """Publish from a thread with no hub (the clock's own process), with a short timeout."""
    found = _sync_clients.get((address, key))
    if found is None:
        client = redis.Redis.from_url(
            address, socket_timeout=COMMAND_TIMEOUT, socket_connect_timeout=COMMAND_TIMEOUT
        )
        found = _sync_clients[(address, key)] = (Sealer(address, key), client)
    sealer, client = found
    client.publish(sealer.channel(snapshot["slug"]), sealer.seal(snapshot))
