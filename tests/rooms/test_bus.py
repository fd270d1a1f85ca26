"""The bus between processes on real Redis: one subscription, messages bound to the room,
the deployment and the sender; replays, strangers and garbage change nothing and log little."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio
from asgiref.sync import sync_to_async

from rooms import bus, hub, operators, services
from tests.conftest import joined_client, room_version

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_layer(redis_url: str, settings: Any, monkeypatch: Any) -> Iterator[str]:
    """This process on Redis, with no catching up from the database: only the bus speaks."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": redis_url, "socket_timeout": None}],
                "symmetric_encryption_keys": [settings.SECRET_KEY],
            },
        }
    }
    monkeypatch.setattr(hub, "CHECK_EVERY", 600.0)
    yield redis_url


def _other_process() -> bus.RedisBus:
    config = bus.redis_config()
    assert config is not None
    return bus.RedisBus(*config, origin=b"another-process")


async def _subscribers(redis_url: str) -> list[dict[str, Any]]:
    """The connections of this event loop's bus that hold a subscription (CLIENT LIST);
    earlier tests' buses, on loops now closed, are not this one's."""
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        listed = await client.client_list()
    finally:
        await client.aclose()
    bus = hub.get_hub().bus
    assert bus is not None
    mine = [c for c in listed if c.get("name", "") == bus.client_name]
    return [c for c in mine if int(c.get("sub", 0)) > 0 or c.get("cmd") in {"subscribe", "psubscribe"}]


async def _pushes_of(slug: str, change: Any) -> list[dict[str, Any]]:
    """The snapshots a change made in the database produces (as another process would send)."""
    from rooms import db

    pushes: list[dict[str, Any]] = []
    await db.call_collecting(pushes, change)
    assert pushes, "the change was a visible one"
    return pushes


async def test_concurrent_first_subscriptions_share_one_connection_and_leave_with_the_rooms(
    redis_layer: str, monkeypatch: Any
) -> None:
    slugs = [f"bus-many-{i}" for i in range(12)]
    clients = await asyncio.gather(*(joined_client(slug, "Ada") for slug in slugs))
    the_hub = hub.get_hub()
    assert the_hub.bus is not None
    held = await _subscribers(redis_layer)
    assert len(held) == 1, held
    assert int(held[0]["sub"]) == len(slugs)
    # Another process's move in each room arrives over that one connection.
    other = _other_process()
    versions = {}
    for slug, client in zip(slugs, clients, strict=True):
        uid = client.uid  # type: ignore[attr-defined]
        for snapshot in await _pushes_of(
            slug, lambda s=slug, u=uid: services.room_rename(slug=s, uid=u, name="Bea")
        ):
            versions[slug] = snapshot["version"]
            await other.publish(snapshot)
    await other.aclose()
    for slug, client in zip(slugs, clients, strict=True):
        seen = await client.eventually(lambda s, v=versions[slug]: s["version"] == v)
        assert seen["you"]["name"] == "Bea"
    for client in clients:
        await client.close()
    # Unsubscribed once idle: the channels are released.
    monkeypatch.setattr(hub, "UNSUBSCRIBE_AFTER", 0.0)
    for client in clients:
        the_hub.detach(client)  # type: ignore[arg-type]
    await the_hub._check(1)
    for _ in range(100):
        held = await _subscribers(redis_layer)
        if not held:
            break
        await asyncio.sleep(0.02)
    assert held == []


async def test_a_push_replayed_after_the_room_was_closed_and_its_name_reused_changes_nothing(
    redis_layer: str,
) -> None:
    slug = "bus-replay"
    # The first room of that name, and a push of it captured on the wire.
    ada = await joined_client(slug, "Ada")
    other = _other_process()
    for n in range(8):
        [old_push] = await _pushes_of(
            slug, lambda n=n: services.room_rename(slug=slug, uid=ada.uid, name=f"A{n}")
        )
    captured = other.seal(old_push)
    await ada.close()
    closed_at = await room_version(slug)
    await sync_to_async(operators.room_close)(slug=slug)
    captured_closed = other.seal(
        {"slug": slug, "room": old_push["room"], "version": closed_at, "closed": True}
    )
    # The name is taken again: a new room, new players, version counting from 1 again.
    bo = await joined_client(slug, "Bo")
    cy = await joined_client(slug, "Cy")
    for client in (bo, cy):
        await client.eventually(
            lambda s: len(s["players"]) == 2 and all(p["connected"] for p in s["players"])
        )
    await asyncio.sleep(hub.PRESENCE_DELAY * 2)  # a presence push still on its way has arrived
    while not await bo.nothing_pending() or not await cy.nothing_pending():
        pass
    before = dict(bus.IGNORED.totals)
    version = await room_version(slug)
    assert old_push["version"] > version  # the replay would look newer by its version alone
    await other.client.publish(other.channel(slug), captured)
    await other.client.publish(other.channel(slug), captured_closed)
    for _ in range(100):
        if sum(bus.IGNORED.totals.values()) >= sum(before.values()) + 2:
            break
        await asyncio.sleep(0.02)
    assert bus.IGNORED.totals["other_room"] - before.get("other_room", 0) == 2
    # Nobody kicked, nothing sent, nothing changed.
    assert await bo.nothing_pending() and await cy.nothing_pending()
    assert await room_version(slug) == version
    assert hub.get_hub().rooms[slug].snapshot["version"] == version  # type: ignore[index]
    # The same room's own push, heard twice: the second one is a replay.
    [push] = await _pushes_of(slug, lambda: services.room_rename(slug=slug, uid=bo.uid, name="Bob"))
    sealed = other.seal(push)
    await other.client.publish(other.channel(slug), sealed)
    await bo.eventually(lambda s: s["version"] == push["version"])
    await other.client.publish(other.channel(slug), sealed)
    for _ in range(100):
        if bus.IGNORED.totals["replayed"] > before.get("replayed", 0):
            break
        await asyncio.sleep(0.02)
    assert bus.IGNORED.totals["replayed"] == before.get("replayed", 0) + 1
    await other.aclose()
    await bo.close()
    await cy.close()


async def test_another_deployment_with_the_same_secret_key_is_not_heard(
    redis_layer: str, settings: Any
) -> None:
    slug = "bus-deployment"
    ada = await joined_client(slug, "Ada")
    [push] = await _pushes_of(slug, lambda: services.room_rename(slug=slug, uid=ada.uid, name="Ada2"))
    ours = _other_process()
    config = bus.redis_config()
    assert config is not None
    base = config[0].rsplit("/", 1)[0]
    strangers = [bus.RedisBus(f"{base}/3", config[1], origin=b"staging-db3")]
    settings.REDIS_PREFIX = "staging"
    strangers.append(bus.RedisBus(config[0], config[1], origin=b"staging-prefix"))
    settings.REDIS_PREFIX = "wordrooms"
    assert len({ours.channel(slug), *(s.channel(slug) for s in strangers)}) == 3
    before = bus.IGNORED.totals["foreign"]
    for stranger in strangers:
        await stranger.publish(push)  # on its own channel: not ours to hear
        # Copied onto our channel by someone with access to Redis: refused, counted.
        await stranger.client.publish(ours.channel(slug), stranger.seal(push))
    for _ in range(100):
        if bus.IGNORED.totals["foreign"] >= before + 2:
            break
        await asyncio.sleep(0.02)
    assert bus.IGNORED.totals["foreign"] == before + 2
    assert await ada.nothing_pending()
    for each in [ours, *strangers]:
        await each.aclose()
    await ada.close()


async def test_twenty_thousand_garbage_messages_write_one_line_of_log(redis_layer: str) -> None:
    slug = "bus-garbage"
    ada = await joined_client(slug, "Ada")
    other = _other_process()
    output = io.StringIO()
    handler = logging.StreamHandler(output)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        before = sum(bus.IGNORED.totals.values())
        channel = other.channel(slug)
        sealed = other.seal({"slug": slug, "version": 10**6})
        kinds = [b"x", b"another.notatoken", sealed[:-8] + b"AAAAAAAA", b"\xff" * 300]
        pipe = other.client.pipeline(transaction=False)
        for i in range(20_000):
            pipe.publish(channel, kinds[i % len(kinds)] + str(i).encode())
            if i % 1000 == 999:
                await pipe.execute()
                pipe = other.client.pipeline(transaction=False)
        for _ in range(1000):
            if sum(bus.IGNORED.totals.values()) >= before + 20_000:
                break
            await asyncio.sleep(0.05)
        assert sum(bus.IGNORED.totals.values()) == before + 20_000
        bus.IGNORED.flush(force=True)  # the interval's summary, written now
    finally:
        root.removeHandler(handler)
    written = output.getvalue()
    print(f"\n20,000 garbage messages: {len(written.encode())} bytes of log: {written.strip()!r}")
    assert len(written.encode()) < 500 and written.count("\n") <= 2
    assert "ignored" in written
    assert await ada.nothing_pending()
    await other.aclose()
    await ada.close()
