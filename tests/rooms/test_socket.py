"""The live layer through the real consumer, on the in-memory layer and on Redis."""

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from rooms.models import Player, Room
from tests.conftest import Client, joined_client

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _room_version(slug: str) -> int:
    return await sync_to_async(lambda: Room.objects.get(slug=slug).version)()


async def test_visitor_gets_the_empty_room_before_it_is_stored(channel_layer: str) -> None:
    visitor = Client("not-yet-here")
    state = await visitor.connect()
    assert state["stored"] is False and state["players"] == [] and state["you"] is None
    assert await sync_to_async(Room.objects.count)() == 0
    await visitor.close()


async def test_two_players_see_each_other_arrive_and_sit(channel_layer: str) -> None:
    ada = await joined_client("lobby-live", "Ada")
    bob = await joined_client("lobby-live", "Bob")
    seen = await ada.state_where(lambda s: any(p["name"] == "Bob" and p["connected"] for p in s["players"]))
    assert seen["you"]["name"] == "Ada"
    await bob.send({"action": "sit", "team": "blue", "role": "spymaster"})
    seen = await ada.state_where(
        lambda s: any(p["name"] == "Bob" and p["role"] == "spymaster" for p in s["players"])
    )
    assert next(p for p in seen["players"] if p["name"] == "Bob")["team"] == "blue"
    await ada.close()
    await bob.close()


async def test_departure_shows_as_away(channel_layer: str) -> None:
    ada = await joined_client("lobby-away", "Ada")
    bob = await joined_client("lobby-away", "Bob")
    await ada.state_where(lambda s: any(p["name"] == "Bob" and p["connected"] for p in s["players"]))
    await bob.close()
    seen = await ada.state_where(
        lambda s: any(p["name"] == "Bob" and not p["connected"] for p in s["players"])
    )
    assert any(p["name"] == "Ada" and p["connected"] for p in seen["players"])
    await ada.close()


async def test_every_push_carries_a_growing_version(channel_layer: str) -> None:
    ada = await joined_client("lobby-version", "Ada")
    first = await _room_version("lobby-version")
    await ada.send({"action": "sit", "team": "red", "role": "operative"})
    state = await ada.state_where(lambda s: s["you"]["role"] == "operative")
    assert state["version"] > first
    await ada.close()


async def test_ping_with_a_stale_version_gets_the_whole_state(channel_layer: str) -> None:
    ada = await joined_client("lobby-ping", "Ada")
    await ada.send({"action": "ping", "version": 1})
    assert (await ada.receive())["type"] == "pong"
    state = await ada.receive_type("state")
    assert state["version"] == await _room_version("lobby-ping")
    await ada.close()


async def test_repeated_stale_pings_read_the_room_once(channel_layer: str, monkeypatch: Any) -> None:
    """Out-of-date pings are each answered with the whole state, but a socket repeating
    them does not make every one read the room and push it to every socket again."""
    from rooms import consumers, hub

    await joined_client("lobby-pings", "Ada")
    tv = Client("lobby-pings", path="/ws/r/lobby-pings/table/")
    await tv.connect()
    reads: list[str] = []
    original = hub.Hub.reload

    async def counted(self: Any, slug: str) -> dict[str, Any]:
        reads.append(slug)
        return await original(self, slug)

    monkeypatch.setattr(hub.Hub, "reload", counted)
    consumers._reloaded.pop("lobby-pings", None)
    for _ in range(8):
        await tv.send({"action": "ping", "version": -5})
        assert (await tv.receive())["type"] == "pong"
        assert (await tv.receive_type("state"))["version"] == await _room_version("lobby-pings")
    assert reads == ["lobby-pings"]
    await tv.close()


BAD_FRAMES = [
    ("{not json", "bad_json"),
    ("", "bad_frame"),
    ("[1, 2]", "bad_message"),
    ('"just a string"', "bad_message"),
    ('{"no_action": 1}', "bad_message"),
    ('{"action": 42}', "bad_message"),
    ('{"action": "fly_to_the_moon"}', "unknown_action"),
    ('{"action": "sit"}', "bad_seat"),
    ('{"action": "sit", "team": "red", "role": "king"}', "bad_seat"),
    ('{"action": "rename", "name": "\\u202e"}', "bad_name"),
    ('{"action": "set_game", "game": {"x": 1}}', "bad_game"),
    ('{"action": "room.changed", "version": 99999}', "unknown_action"),
    ('{"action": "sit", "x": ' + "[" * 50 + "]" * 50 + "}", "bad_message"),
    ("[" * 100000 + "]" * 100000, "too_large"),
    (json.dumps({"action": "rename", "name": "x" * 17000}), "too_large"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
async def test_bad_input_gets_an_error_and_changes_nothing(channel_layer: str, frame: str, code: str) -> None:
    ada = await joined_client("bad-input", "Ada")
    before = await _room_version("bad-input")
    # The test communicator refuses to send an empty text frame itself.
    await ada.comm.send_input({"type": "websocket.receive", "text": frame})
    error = await ada.receive_type("error")
    assert error["code"] == code and error["message"]
    # The socket is still open and answers.
    await ada.send({"action": "sync"})
    state = await ada.receive_type("state")
    assert state["version"] == before == await _room_version("bad-input")
    await ada.close()


@pytest.mark.parametrize("text", ["x" * 17000, "\u20ac" * 6000])  # 17000 bytes; 6000 chars, 18000 bytes
async def test_a_frame_over_the_limit_is_never_read_so_names_no_ref(channel_layer: str, text: str) -> None:
    ada = await joined_client("too-large-ref", "Ada")
    frame = json.dumps({"action": "rename", "name": text, "ref": 5}, ensure_ascii=False)
    await ada.send_text(frame)
    error = await ada.receive_type("error")
    assert error["code"] == "too_large" and error["params"] == {"limit": 16}
    assert "ref" not in error, error
    await ada.send({"action": "ping", "version": ada.last_state["version"]})
    assert (await ada.receive())["type"] == "pong"
    await ada.close()


async def test_binary_frame_is_refused_and_socket_stays_open(channel_layer: str) -> None:
    ada = await joined_client("bad-binary", "Ada")
    await ada.comm.send_to(bytes_data=b"\x00\x01")
    assert (await ada.receive_type("error"))["code"] == "bad_frame"
    await ada.send({"action": "sync"})
    assert (await ada.receive_type("state"))["you"]["name"] == "Ada"
    await ada.close()


async def test_error_goes_to_the_sender_only(channel_layer: str) -> None:
    ada = await joined_client("private-errors", "Ada")
    bob = await joined_client("private-errors", "Bob")
    await ada.state_where(lambda s: len(s["players"]) == 2 and all(p["connected"] for p in s["players"]))
    await bob.send_text("{not json")
    assert (await bob.receive_type("error"))["code"] == "bad_json"
    assert await ada.nothing_pending()
    await ada.close()
    await bob.close()


async def test_visitor_cannot_act(channel_layer: str) -> None:
    await joined_client("visitors", "Ada")
    visitor = Client("visitors")
    await visitor.connect()
    await visitor.send({"action": "sit", "team": "red", "role": "operative"})
    assert (await visitor.receive_type("error"))["code"] == "not_joined"
    await visitor.close()


async def test_session_decides_the_player_not_the_message(channel_layer: str) -> None:
    ada = await joined_client("who-am-i", "Ada")
    bob = await joined_client("who-am-i", "Bob")
    bob_id = await sync_to_async(lambda: Player.objects.get(name="Bob").public_id)()
    await ada.send({"action": "sit", "team": "red", "role": "operative", "player": bob_id, "uid": bob.uid})
    await ada.state_where(lambda s: s["you"]["role"] == "operative")
    assert await sync_to_async(lambda: Player.objects.get(name="Bob").role)() == "spectator"
    await ada.close()
    await bob.close()


async def test_foreign_origin_is_rejected(channel_layer: str) -> None:
    comm = WebsocketCommunicator(
        application, "/ws/r/some-room/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect(timeout=5)
    assert not connected


async def test_missing_origin_is_rejected(channel_layer: str) -> None:
    comm = WebsocketCommunicator(application, "/ws/r/some-room/")
    connected, _ = await comm.connect(timeout=5)
    assert not connected


async def test_uid_never_reaches_any_browser(channel_layer: str) -> None:
    ada = await joined_client("no-uid-leak", "Ada")
    bob = await joined_client("no-uid-leak", "Bob")
    await ada.state_where(lambda s: len(s["players"]) == 2)
    await bob.send({"action": "sit", "team": "red", "role": "operative"})
    await ada.state_where(lambda s: any(p["role"] == "operative" for p in s["players"]))
    frames = "".join(ada.frames + bob.frames)
    assert ada.uid not in frames and bob.uid not in frames
    await ada.close()
    await bob.close()


async def test_a_flood_of_messages_is_slowed_down_and_the_socket_stays_open(channel_layer: str) -> None:
    ada = await joined_client("flood", "Ada")
    for _ in range(80):
        await ada.send({"action": "sync"})
    codes, states = [], 0
    for _ in range(80):
        try:
            message = await ada.receive()
        except TimeoutError:
            raise AssertionError(f"only {states} states and {len(codes)} errors") from None
        if message["type"] == "error":
            codes.append(message["code"])
        else:
            states += 1
    assert codes and set(codes) == {"too_fast"}
    assert states >= 30  # the burst itself went through
    # Refused, not disconnected: the socket still answers the next message.
    await ada.send({"action": "sync"})
    assert (await ada.receive())["type"] in {"state", "error"}
    await ada.close()


@pytest.mark.parametrize("path", ["/ws/r/game-night/device/short/", "/ws/elsewhere/", "/ws/r/AB/"])
async def test_a_socket_path_that_matches_nothing_is_refused_cleanly(
    channel_layer: str, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
    connected, _code = await comm.connect(timeout=5)
    assert connected is False
    assert not [r for r in caplog.records if r.levelname in {"ERROR", "CRITICAL"}]
    await comm.disconnect()
