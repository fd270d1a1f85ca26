"""The push path: one render per view, patches, no socket reads, resync after a lost push."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from rooms import changes, db, hub, services
from rooms.consumers import RoomConsumer
from rooms.state import room_state
from tests.codenames.table import STANDARD, act, game_state, open_table, room_version

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _guessing(slug: str, extra_spectators: int = 0) -> Any:
    """A table in red's or blue's guess phase (a clue given), plus extra spectators."""
    layout = STANDARD + [(f"fan{i}", "", "spectator") for i in range(extra_spectators)]
    table = await open_table(slug, layout)
    await act(table["rui"], {"action": "start_game"})
    # A presence push (the sockets just opened) may overtake each move's own: wait for the
    # move itself before reading the saved game.
    await table["rui"].eventually(lambda s: s["play"] is not None)
    state = await game_state(slug)
    spymaster = "rosa" if state["team"] == "red" else "bea"
    reply = await act(
        table[spymaster], {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2}
    )
    assert reply["type"] == "state", reply
    await table[spymaster].eventually(lambda s: s["play"] is not None and s["play"]["phase"] == "guess")
    return table


def _operative(state: dict[str, Any]) -> str:
    return "rui" if state["team"] == "red" else "bo"


async def test_a_move_reaches_every_socket_as_a_small_patch(channel_layer: str) -> None:
    table = await _guessing("push-small")
    state = await game_state(table.slug)
    version = await room_version(table.slug)
    mover = table[_operative(state)]
    await mover.send({"action": "propose", "turn": state["turn"], "position": 3})
    for name in table.seats:
        seen = await table[name].eventually(lambda s: s["version"] > version)
        assert seen["play"]["proposals"], name
        raw = [
            f
            for f in table[name].frames
            if f.startswith('{"type":"patch"') and f'"version":{version + 1}' in f
        ]
        assert len(raw) == 1, name
        # A proposal is a few dozen bytes, not the room (the bound: 2 KB).
        assert len(raw[0].encode()) < 300, raw[0]
    await table.close()


async def test_a_push_never_reads_the_database_for_a_socket(channel_layer: str, monkeypatch: Any) -> None:
    """Pooled database calls during a move: the mover's action only, whatever the crowd."""
    table = await _guessing("push-no-reads", extra_spectators=6)
    state = await game_state(table.slug)
    version = await room_version(table.slug)
    calls: list[str] = []
    real = db.run_in_pool

    def counting(func: Any) -> Any:
        calls.append(getattr(func, "__name__", repr(func)))
        return real(func)

    monkeypatch.setattr(db, "run_in_pool", counting)
    await table[_operative(state)].send({"action": "propose", "turn": state["turn"], "position": 4})
    for name in table.seats:
        await table[name].eventually(lambda s: s["version"] > version)
    assert calls == ["wrapped"], calls  # the action itself (rooms.db.call_collecting)
    await table.close()


async def test_queries_per_action_do_not_grow_with_the_room(
    channel_layer: str, django_assert_max_num_queries: Any
) -> None:
    """The move's transaction reads and writes the same rows for 5 or 25 people present."""
    counts = []
    for spectators in (0, 20):
        slug = f"push-queries-{spectators}"
        table = await _guessing(slug, extra_spectators=spectators)
        state = await game_state(slug)
        uid = next(seat.uid for seat in table.seats.values() if seat.name == _operative(state))
        consumer = SimpleNamespace(slug=slug, uid=uid, device_token=None)
        message = {"action": "propose", "turn": state["turn"], "position": 5}

        def move(consumer: Any = consumer, message: dict[str, Any] = message) -> int:
            # Lock, players, game, save the game, bump the version (+ the transaction's own).
            with django_assert_max_num_queries(8) as queries:
                RoomConsumer.game_action(consumer, message)  # type: ignore[arg-type]
            return len(queries)

        counts.append(await sync_to_async(move)())
        await table.close()
    assert counts[0] == counts[1], counts


async def test_a_lost_push_heals_without_the_client(channel_layer: str, monkeypatch: Any) -> None:
    """A push that never left (a full channel, Redis down) reaches every socket anyway."""
    table = await _guessing("push-lost")
    state = await game_state(table.slug)
    version = await room_version(table.slug)
    monkeypatch.setattr(hub, "CHECK_EVERY", 0.05)
    # The hub's periodic check reads the new interval on its next round: restart it.
    the_hub = hub.get_hub()
    for task in the_hub._tasks:
        task.cancel()
    the_hub._tasks = [asyncio.create_task(the_hub._check_loop())]
    dropped: list[int] = []

    async def drop(snapshot: dict[str, Any]) -> None:
        dropped.append(snapshot["version"])

    monkeypatch.setattr(hub, "publish", drop)
    await table[_operative(state)].send({"action": "propose", "turn": state["turn"], "position": 6})
    for name in table.seats:
        seen = await table[name].eventually(lambda s: s["version"] > version)
        assert seen["play"]["proposals"], name
    assert dropped == [version + 1]
    await table.close()


async def test_a_client_that_missed_a_version_asks_and_gets_the_whole_state(channel_layer: str) -> None:
    table = await _guessing("push-gap")
    rui = table["rui"]
    version = await room_version(table.slug)
    await rui.eventually(lambda s: s["version"] == version)
    # As if a patch had been lost on the way: the client's next patch will not fit.
    rui.last_state = {**rui.last_state, "version": version - 1}  # type: ignore[dict-item]
    state = await game_state(table.slug)
    await table[_operative(state)].send({"action": "propose", "turn": state["turn"], "position": 7})
    seen = await rui.state_where(lambda s: s["version"] > version)
    assert rui.gaps == 1
    fresh = await sync_to_async(room_state)(slug=table.slug, uid=table.seats["rui"].uid)
    assert seen["play"] == fresh["play"] and seen["players"] == fresh["players"]
    await table.close()


async def test_a_seat_change_sends_the_new_view_whole(channel_layer: str) -> None:
    """Becoming a spymaster between games is a change of view: a whole state, key included."""
    table = await open_table("push-seat", STANDARD)
    await act(table["rui"], {"action": "start_game"})
    await act(table["sam"], {"action": "sit", "team": "red", "role": "spymaster"})  # taken: refused
    reply = await act(table["rosa"], {"action": "sit", "team": "", "role": "spectator"})
    reply = await act(table["sam"], {"action": "sit", "team": "red", "role": "spymaster"})
    assert reply["play"]["sees_key"] is True
    last = json.loads(table["sam"].frames[-1])
    assert last["type"] == "state" and last["play"]["sees_key"] is True
    await table.close()


async def test_one_version_per_action_even_when_a_deadline_is_applied_on_the_way() -> None:
    """The version goes up once per transaction, however many saves it made."""
    from codenames.game import GAME

    await sync_to_async(_table_for_versions)("push-one-version")
    before = await room_version("push-one-version")

    def deal() -> None:
        with changes.locked_room("push-one-version") as room:
            GAME.act(room, room.players.get(name="rosa"), {"action": "start_game"})

    await sync_to_async(deal)()
    assert await room_version("push-one-version") == before + 1


def _table_for_versions(slug: str) -> None:
    for name, team, role in STANDARD[:4]:
        services.room_join(slug=slug, uid=f"{slug}-{name}", name=name)
        services.room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role=role)


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
async def test_pushes_cross_redis_encrypted(channel_layer: str, redis_url: str) -> None:
    """A snapshot carries the spymasters' key between processes: Redis sees only ciphertext."""
    import redis.asyncio

    from rooms import bus

    table = await open_table("push-encrypted", STANDARD)
    client = redis.asyncio.Redis.from_url(redis_url)
    listener = client.pubsub()
    await listener.subscribe(bus.channel_name("push-encrypted"))
    config = bus.redis_config()
    assert config is not None
    fernet = bus.RedisBus(*config).fernet
    before = await room_version(table.slug)
    await act(table["rui"], {"action": "start_game"})
    # The local sockets are served before Redis hears of a push, so the channel may still
    # carry an earlier one (the last presence push): read up to the deal's own.
    raw, snapshot = b"", None
    for _ in range(50):
        message = await listener.get_message(ignore_subscribe_messages=True, timeout=0.1)
        if message is None:
            continue
        raw = message["data"]
        assert b"assassin" not in raw and b"spymaster" not in raw and b"bystander" not in raw
        # The control: with the key, the same bytes are the snapshot.
        _origin, _dot, token = raw.partition(b".")
        snapshot = json.loads(fernet.decrypt(token))["snapshot"]
        if snapshot["version"] > before:
            break
    await listener.aclose()
    await client.aclose()
    state = await game_state(table.slug)
    assert snapshot is not None and snapshot["version"] > before, (
        "the deal was published on the room's channel"
    )
    assert not any(word.encode() in raw for word in state["words"] if len(word) >= 6)
    cards = snapshot["views"]["spymaster"]["cards"]
    assert [card["word"] for card in cards] == state["words"]
    assert [card["identity"] for card in cards] == state["key"]
    await table.close()


@pytest.mark.parametrize("channel_layer", ["redis"], indirect=True)
async def test_another_process_push_reaches_this_process_sockets(
    channel_layer: str, monkeypatch: Any
) -> None:
    """What another server publishes on Redis reaches the sockets here, as a patch."""
    from rooms import bus

    monkeypatch.setattr(hub, "CHECK_EVERY", 60.0)  # no catching up from the database here
    table = await _guessing("push-other-process")
    state = await game_state(table.slug)
    version = await room_version(table.slug)
    # Another process's move: saved there, published from there (another origin).
    operative = _operative(state)
    uid = table.seats[operative].uid
    consumer = SimpleNamespace(slug=table.slug, uid=uid, device_token=None)
    pushes: list[dict[str, Any]] = []
    await db.call_collecting(
        pushes,
        RoomConsumer.game_action,
        consumer,
        {"action": "propose", "turn": state["turn"], "position": 8},
    )
    config = bus.redis_config()
    assert config is not None and len(pushes) == 1
    other = bus.RedisBus(*config, origin=b"0000000000000000")
    await other.publish(pushes[0])
    await other.aclose()
    for name in table.seats:
        seen = await table[name].eventually(lambda s: s["version"] > version)
        assert seen["play"]["proposals"], name
    await table.close()
