"""Whatever a client sends, the server answers with a RoomError or applies it: never a crash."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rooms.consumers import LOBBY_ACTIONS, RoomConsumer, parse_frame
from rooms.errors import RoomError
from rooms.services import room_join, room_sit
from tests.codenames.test_concurrency import _act

ACTIONS = [*LOBBY_ACTIONS, "start_game", "give_clue", "propose", "unpropose", "confirm", "end_turn",
           "reject_clue", "penalty_cover", "opponent_cover", "rotate_spymasters", "house_rules",
           "save_draft", "submit_clues", "edit_guess", "lock_guess", "suggest_guess", "set_note", "set_order",
           "tiebreak_guess", "judge", "nonsense"]  # fmt: skip
FIELDS = ["turn", "position", "word", "number", "team", "role", "name", "confirm", "mode", "regenerate",
          "game", "language", "text", "clues", "code", "round", "phase", "guessing_for", "timer"]  # fmt: skip
ODD_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=30) | st.sampled_from(
    ["", " ", "\u202e", "\u200b", "\x00", "red", "blue", "spymaster", "operative", "∞", "Ǆ" * 5,
     # What JSON escapes can carry but UTF-8 cannot: lone surrogates; and controls.
     "a\ud800b", "\udfff", "\x1b[31m", "\x85", "x\x00y", "\ud83d"]
)  # fmt: skip
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True) | ODD_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ODD_TEXT, inner, max_size=3),
    max_leaves=6,
)
MESSAGES = st.builds(
    lambda action, extra: {"action": action, **extra},
    st.sampled_from(ACTIONS),
    st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=4),
)

SEATS = [("rosa", "red", "spymaster"), ("rui", "red", "operative"), ("bea", "blue", "spymaster"),
         ("bo", "blue", "operative")]  # fmt: skip


def _dispatch(slug: str, uid: str, message: dict[str, Any]) -> None:
    """What the consumer does with a frame, minus the socket: parse it at the edge (as
    JSON text, escapes and all), then act on it."""
    message = parse_frame(json.dumps(message), None)
    consumer = SimpleNamespace(slug=slug, uid=uid, device_token=None)
    handler = LOBBY_ACTIONS.get(message["action"])
    if handler is not None:
        handler(consumer, message)  # type: ignore[arg-type]
    else:
        RoomConsumer.game_action(consumer, message)  # type: ignore[arg-type]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["codenames", "decrypto"])
def test_random_messages_never_crash_the_server(game: str) -> None:
    slug = f"fuzz-{game}"
    for name, team, role in SEATS:
        room_join(slug=slug, uid=f"{slug}-{name}", name=name, game=game)
        if game == "decrypto":
            team, role = ("white" if team == "red" else "black"), "player"
        room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role=role)
    if game == "codenames":
        _act(slug, "rosa", {"action": "start_game"})

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(message=MESSAGES, who=st.sampled_from([name for name, _t, _r in SEATS]))
    def run(message: dict[str, Any], who: str) -> None:
        try:
            _dispatch(slug, f"{slug}-{who}", message)
        except RoomError as error:
            assert error.code != "server_error" and str(error.message)
            json.dumps({"code": error.code, "params": error.params}).encode()

    run()
    # Whatever was stored, every seat's view (and a visitor's) can still be sent.
    from rooms.state import room_state

    for uid in [f"{slug}-{name}" for name, _t, _r in SEATS] + [None]:
        json.dumps(room_state(slug=slug, uid=uid), ensure_ascii=False).encode("utf-8")


@given(st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_any_frame_text_parses_or_is_refused(text: str) -> None:
    try:
        message = parse_frame(text, None)
    except RoomError as error:
        assert error.code in {"bad_frame", "bad_json", "bad_message", "too_large"}
    else:
        assert isinstance(message, dict) and isinstance(message["action"], str)


# ---- hostile frames through the real socket, on both layers ------------------------------

# As JSON escapes: a lone surrogate, NUL, a bell, a C1 control.
HOSTILE_STRINGS = ["a\\ud800b", "\\udfff", "\\u0000", "x\\u0007y", "\\u009b"]
HOSTILE = [
    '{"action": "submit_clues", "round": 1, "phase": "clues", "clues": ["%s", "b", "c"]}',
    '{"action": "save_draft", "round": 1, "phase": "clues", "clues": ["%s"]}',
    '{"action": "set_note", "position": 1, "text": "%s"}',
    '{"action": "rename", "name": "%s"}',
    '{"action": "%s"}',
    '{"action": "ping", "ref": "%s"}',
    '{"action": "set_words", "game": "codenames", "mode": "mixed", "text": "%s"}',
    '{"action": "house_rules", "notes": "%s"}',
    '{"action": "give_clue", "turn": 1, "word": "%s", "number": 1, "%s": 2}',
]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["codenames", "decrypto"])
async def test_hostile_text_is_refused_and_every_seat_still_renders(channel_layer: str, game: str) -> None:
    """Lone surrogates, NUL and controls: refused at the edge, the socket open, nothing stored."""
    import json

    from asgiref.sync import sync_to_async

    from rooms.models import Room
    from rooms.state import room_state
    from tests.conftest import joined_client, settle

    slug = f"hostile-{game}"
    ada = await joined_client(slug, "Ada")
    bob = await joined_client(slug, "Bob")  # two sockets: each stays within its message rate
    # Bob's arrival is a change of its own (his connected mark): pushed before counting.
    await settle([ada, bob])
    await ada.send({"action": "set_game", "game": game})
    await ada.eventually(lambda s: s["game"] == game)
    before = await sync_to_async(lambda: Room.objects.get(slug=slug).version)()
    frames = [template.replace("%s", text) for template in HOSTILE for text in HOSTILE_STRINGS]
    for index, frame in enumerate(frames):
        sender = (ada, bob)[index % 2]
        await sender.send_text(frame)
        reply = await sender.receive_type("error")
        assert reply["code"] == "bad_text", (frame, reply)
        json.dumps(reply).encode()  # what the socket sent is plain, encodable text
    assert len(frames) == 45
    # Nothing refused was stored; the room renders for everyone, as bytes.
    after = await sync_to_async(lambda: Room.objects.get(slug=slug).version)()
    assert after == before
    for uid in (ada.uid, None):  # type: ignore[attr-defined]
        state = await sync_to_async(room_state)(slug=slug, uid=uid)
        json.dumps(state, ensure_ascii=False).encode("utf-8")
    # And the socket is still open: it answers.
    for client in (ada, bob):
        await client.send({"action": "ping", "version": -1})
        assert (await client.receive_type("pong"))["type"] == "pong"
        await client.close()
