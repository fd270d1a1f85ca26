"""No tap lost in a drain: a move resent under its ``id`` is applied once, wherever it lands,
and a move reaching a draining socket is answered ``draining`` (rooms.receipts, rooms.drain).

Runs on the configured database: SQLite by default, PostgreSQL with DATABASE_URL set.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from websockets.sync.client import ClientConnection, connect

from rooms import drain
from rooms.models import Player, Receipt
from rooms.services import room_join, room_sit
from tests.conftest import Client, DaphneServer, make_session
from tests.tinygame.models import TallyRecord

pytestmark = pytest.mark.django_db(transaction=True)


def _seat(slug: str) -> str:
    uid = f"uid-{slug}"
    room_join(slug=slug, uid=uid, name="Nia", game="tally")
    room_sit(slug=slug, uid=uid, team="north", role="player")
    room_join(slug=slug, uid=f"{uid}-sol", name="Sol", game="tally")
    room_sit(slug=slug, uid=f"{uid}-sol", team="south", role="player")
    return uid


def _deals(slug: str) -> int:
    return TallyRecord.objects.filter(room__slug=slug).count()


async def _two_sockets(slug: str) -> tuple[Client, Client]:
    """One player's two sockets (the one that dropped and the one opened after it)."""
    uid = await sync_to_async(_seat)(slug)
    first = Client(slug, await sync_to_async(make_session)(uid))
    second = Client(slug, await sync_to_async(make_session)(uid))
    await first.connect()
    await second.connect()
    return first, second


async def _answer(client: Client, ref: int) -> dict[str, Any]:
    """The error naming ``ref``, or the pong to a ping sent after it: the server answers a
    socket's frames in order, so a pong first means the move was read and not refused."""
    await client.send({"action": "ping", "version": -1})
    while True:
        message = await client.receive()
        if message["type"] == "pong" or (message["type"] == "error" and message.get("ref") == ref):
            return message


DEAL = {"action": "start_game", "confirm": True}


@pytest.mark.asyncio
async def test_a_move_resent_on_another_socket_under_its_id_is_applied_once() -> None:
    slug = "resend-once"
    first, second = await _two_sockets(slug)
    await first.send({**DEAL, "id": "tap-0001-abcd", "ref": 1})
    assert (await _answer(first, 1))["type"] == "pong", first.frames[-1]
    assert await sync_to_async(_deals)(slug) == 1

    await second.send({**DEAL, "id": "tap-0001-abcd", "ref": 1})  # the page's resend
    assert (await _answer(second, 1))["type"] == "pong"  # not refused: it is done
    assert await sync_to_async(_deals)(slug) == 1
    # Another tap with another id deals again: the id, not the action, made the difference.
    await second.send({**DEAL, "id": "tap-0002-abcd", "ref": 2})
    assert (await _answer(second, 2))["type"] == "pong"
    assert await sync_to_async(_deals)(slug) == 2
    assert await sync_to_async(Receipt.objects.count)() == 2
    await first.close()
    await second.close()


@pytest.mark.asyncio
async def test_a_lobby_action_resent_under_its_id_is_applied_once() -> None:
    slug = "resend-lobby"
    first, second = await _two_sockets(slug)

    def token() -> str | None:
        return Player.objects.get(uid=f"uid-{slug}").device_token

    relink = {"action": "device_link", "regenerate": True, "id": "relink-0001"}
    await first.send({**relink, "ref": 1})
    assert (await _answer(first, 1))["type"] == "pong"
    issued = await sync_to_async(token)()
    assert issued
    await second.send({**relink, "ref": 1})
    assert (await _answer(second, 1))["type"] == "pong"
    assert await sync_to_async(token)() == issued  # a second regeneration would revoke it
    await first.close()
    await second.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("bad", [7, "short", "x" * 65, "has space!", None])
async def test_a_malformed_id_is_refused(bad: Any) -> None:
    slug = "resend-bad-id"
    first, second = await _two_sockets(slug)
    await first.send({**DEAL, "id": bad, "ref": 3})
    answer = await _answer(first, 3)
    if bad is None:  # JSON null: no id at all, an ordinary move
        assert answer["type"] == "pong"
    else:
        assert answer["type"] == "error" and answer["code"] == "bad_message"
        assert await sync_to_async(_deals)(slug) == 0
    await first.close()
    await second.close()


@pytest.mark.asyncio
async def test_a_move_reaching_a_draining_socket_is_answered_draining_and_not_applied() -> None:
    slug = "resend-draining"
    first, second = await _two_sockets(slug)
    # What rooms.drain does to the process's room sockets before closing them with 1012.
    sockets = drain.room_sockets()
    assert len(sockets) == 2
    for socket in sockets:
        socket.closing = socket.draining = True
    await first.send({**DEAL, "id": "tap-drain-01", "ref": 9})
    answer = await first.receive()
    assert answer["type"] == "error" and answer["code"] == "draining" and answer["ref"] == 9
    await first.send({"action": "ping", "version": -1})  # changes nothing: not answered at all
    assert await first.nothing_pending()
    assert await sync_to_async(_deals)(slug) == 0
    await first.close()
    await second.close()


def _open(server: DaphneServer, slug: str, uid: str) -> ClientConnection:
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
        origin=f"http://127.0.0.1:{server.port}",
        additional_headers={"Cookie": f"sessionid={make_session(uid)}"},
        open_timeout=10,
    )


def _until_pong(ws: ClientConnection) -> list[dict[str, Any]]:
    ws.send(json.dumps({"action": "ping", "version": -1}))
    seen = []
    while True:
        message = json.loads(ws.recv(timeout=15))
        seen.append(message)
        if message["type"] == "pong":
            return seen


def test_the_same_move_sent_to_two_processes_at_once_is_applied_once(redis_url: str) -> None:
    """The race a resend can make: the move reaches the old process late while its resend
    reaches the new one. Both wait for the room's lock; the second finds the receipt."""
    slug = "resend-two-processes"
    uid = _seat(slug)
    servers = [DaphneServer(redis_url).start(), DaphneServer(redis_url).start()]
    try:
        with _open(servers[0], slug, uid) as old, _open(servers[1], slug, uid) as new:
            _race([old, new], slug)
    finally:
        for server in servers:
            server.stop()


def _race(sockets: list[ClientConnection], slug: str) -> None:
    """The same frame on every socket at once; then no error and one deal."""
    for ws in sockets:
        while json.loads(ws.recv(timeout=10))["type"] != "state":
            pass
    frame = json.dumps({**DEAL, "id": "tap-race-0001", "ref": 5})
    gate = threading.Barrier(len(sockets))

    def send(ws: ClientConnection) -> None:
        gate.wait()
        ws.send(frame)

    threads = [threading.Thread(target=send, args=(ws,)) for ws in sockets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers = [_until_pong(ws) for ws in sockets]
    errors = [m for seen in answers for m in seen if m["type"] == "error"]
    assert errors == []
    assert _deals(slug) == 1


@pytest.mark.asyncio
async def test_every_state_says_this_process_keeps_move_ids_and_no_patch_does() -> None:
    """Clients send `id` only where the state says `move_ids` (a rolling upgrade may mix in
    a release without them): every state carries it, and it is no part of a patch."""
    slug = "resend-says-ids"
    first, second = await _two_sockets(slug)
    assert first.last_state is not None and first.last_state["move_ids"] is True
    await first.send({**DEAL, "id": "tap-says-0001", "ref": 1})
    await _answer(first, 1)
    await second.send({"action": "sync"})
    state = await second.receive_type("state")
    assert state["move_ids"] is True
    await first.send({"action": "rename", "name": "Nia B", "id": "tap-says-0002", "ref": 2})
    await first.state_where(lambda s: any(p["name"] == "Nia B" for p in s["players"]))
    patches = [json.loads(f) for f in first.frames if json.loads(f).get("type") == "patch"]
    assert patches and all("move_ids" not in json.dumps(p["ops"]) for p in patches)
    await first.close()
    await second.close()
