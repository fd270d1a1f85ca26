"""Pushes between server processes: Redis Pub/Sub, one channel per room, encrypted.

Each process subscribes once to each room it serves (``rooms.hub``) and publishes each
committed change of a room once. A snapshot carries secrets (the spymasters' key, each
Decrypto player's view), so it crosses Redis encrypted and authenticated (Fernet, a key
derived from ``SECRET_KEY``). The publishing process has already served its own sockets
by then: every message names its origin outside the ciphertext, so a process skips its
own echo without decrypting it.

Channels' Redis layers do the same job with a general message format; measured under
load they cost a move 0.6–1 ms more (polling receive loop, per-message decryption of
every echo), so the push path speaks to Redis itself, through redis-py.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio
from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

log = logging.getLogger(__name__)

ORIGIN = secrets.token_hex(8).encode()  # this process, for the lifetime of the process


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


def channel_name(slug: str) -> str:
    return f"rooms.push.{slug}"


class RedisBus:
    """This process's publisher and subscriber, on one event loop."""

    def __init__(self, address: str, key: str) -> None:
        self.address = address
        digest = hashlib.sha256(key.encode()).digest()
        self.fernet = Fernet(base64.urlsafe_b64encode(digest))
        # No read timeout: a subscription waits for messages as long as it lives.
        self.client = redis.asyncio.Redis.from_url(address, socket_timeout=None, socket_connect_timeout=5)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self._listener: asyncio.Task[None] | None = None

    def seal(self, snapshot: dict[str, Any]) -> bytes:
        token = self.fernet.encrypt(json.dumps(snapshot, separators=(",", ":")).encode())
        return ORIGIN + b"." + token

    def open(self, data: bytes) -> dict[str, Any] | None:
        """The snapshot in a message, or ``None`` for this process's own or a forged one."""
        origin, _, token = data.partition(b".")
        if origin == ORIGIN:
            return None
        try:
            snapshot: dict[str, Any] = json.loads(self.fernet.decrypt(token))
        except (InvalidToken, ValueError):
            log.warning("rooms bus: a message that does not open with this SECRET_KEY was ignored")
            return None
        return snapshot

    async def publish(self, snapshot: dict[str, Any]) -> None:
        await self.client.publish(channel_name(snapshot["slug"]), self.seal(snapshot))

    async def subscribe(self, slug: str, deliver: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        await self.pubsub.subscribe(channel_name(slug))
        if self._listener is None or self._listener.done():
            self._listener = asyncio.ensure_future(self._listen(deliver))

    async def unsubscribe(self, slug: str) -> None:
        await self.pubsub.unsubscribe(channel_name(slug))

    async def _listen(self, deliver: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    snapshot = self.open(message["data"])
                    if snapshot is not None:
                        await deliver(snapshot)
                if not self.pubsub.subscribed:
                    return  # nothing left to hear; the next subscribe starts a new listener
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis went away: redis-py reconnects and subscribes again on the next read.
                log.warning("rooms bus: listening failed; retrying", exc_info=True)
                await asyncio.sleep(1)


async def publish_once(address: str, key: str, snapshot: dict[str, Any]) -> None:
    """Publish from a short-lived event loop (the clock's thread), with a client of its own."""
    bus = RedisBus(address, key)
    try:
        await bus.publish(snapshot)
    finally:
        await bus.client.aclose()
