"""A Redis outage mid-game: moves still apply and reach this process's screens, nothing lies,
and pushes between processes resume when Redis is back."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from rooms import bus, db, hub
from rooms.consumers import RoomConsumer
from tests.codenames.table import STANDARD, act, game_state, open_table, room_version
from tests.conftest import Client, free_port, make_session, wait_port

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class PrivateRedis:
    """A redis-server of this test's own, to stop and start (never the machine's)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is installed by .ci/run"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.port)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture
def private_redis(tmp_path: Path, settings: Any) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": f"redis://127.0.0.1:{server.port}/0", "socket_timeout": None}],
                "symmetric_encryption_keys": [settings.SECRET_KEY],
            },
        }
    }
    yield server
    server.stop()


async def _operative_move(table: Any, position: int) -> dict[str, Any]:
    state = await game_state(table.slug)
    operative = "rui" if state["team"] == "red" else "bo"
    return await act(table[operative], {"action": "propose", "turn": state["turn"], "position": position})


async def test_redis_outage_moves_apply_and_nothing_lies(
    private_redis: PrivateRedis, monkeypatch: Any
) -> None:
    monkeypatch.setattr(hub, "CHECK_EVERY", 0.2)
    table = await open_table("outage", STANDARD)
    await act(table["rui"], {"action": "start_game"})
    state = await game_state(table.slug)
    spymaster = "rosa" if state["team"] == "red" else "bea"
    await act(table[spymaster], {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2})

    private_redis.stop()
    # Mid-outage: the move is applied and answered with the new state, never an error.
    before = await room_version(table.slug)
    reply = await _operative_move(table, 3)
    assert reply["type"] == "state", reply
    assert await room_version(table.slug) == before + 1
    for name in table.seats:
        seen = await table[name].eventually(lambda s: s["version"] == before + 1)
        assert seen["play"]["proposals"], name
    # A newcomer can still open a socket and get the room.
    late = Client(table.slug, await _session("uid-outage-sam"))
    assert (await late.connect())["version"] == before + 1

    private_redis.start()
    # Pushes from other processes resume: publish as another process until one arrives.
    config = bus.redis_config()
    assert config is not None
    other = bus.RedisBus(*config, origin=b"another-process")
    version = await room_version(table.slug)
    state = await game_state(table.slug)
    operative = "rui" if state["team"] == "red" else "bo"
    consumer = SimpleNamespace(slug=table.slug, uid=table.seats[operative].uid, device_token=None)
    pushes: list[dict[str, Any]] = []
    move = {"action": "propose", "turn": state["turn"], "position": 4}
    await db.call_collecting(pushes, RoomConsumer.game_action, consumer, move)
    for task in hub.get_hub()._tasks:
        task.cancel()  # no catching up from the database: from here on only Redis can bring it

    async def publish_until_heard() -> None:
        # Redis needs a moment to take connections again: publish until someone hears it.
        while True:
            # Sealed afresh each time: the same message twice would be a replay.
            await other.client.publish(other.channel(table.slug), other.seal(pushes[0]))
            await asyncio.sleep(0.1)

    publisher = asyncio.create_task(publish_until_heard())
    try:
        seen = await table["sam"].state_where(lambda s: s["version"] > version, timeout=15)
    finally:
        publisher.cancel()
    assert seen["play"]["proposals"]
    await other.client.aclose()
    await late.close()
    await table.close()


async def _session(uid: str) -> str:
    from asgiref.sync import sync_to_async

    return await sync_to_async(make_session)(uid)
