"""Whatever a client sends, the server answers with a RoomError or applies it: never a crash."""

from __future__ import annotations

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
           "save_draft", "submit_clues", "edit_guess", "lock_guess", "set_note", "set_order",
           "tiebreak_guess", "judge", "nonsense"]  # fmt: skip
FIELDS = ["turn", "position", "word", "number", "team", "role", "name", "confirm", "mode", "regenerate",
          "game", "language", "text", "clues", "code", "round", "phase", "guessing_for", "timer"]  # fmt: skip
ODD_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=30) | st.sampled_from(
    ["", " ", "\u202e", "\u200b", "\x00", "red", "blue", "spymaster", "operative", "∞", "Ǆ" * 5]
)
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
    """What the consumer does with a parsed message, minus the socket."""
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
            assert error.code and str(error.message)

    run()


@given(st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_any_frame_text_parses_or_is_refused(text: str) -> None:
    try:
        message = parse_frame(text, None)
    except RoomError as error:
        assert error.code in {"bad_frame", "bad_json", "bad_message", "too_large"}
    else:
        assert isinstance(message, dict) and isinstance(message["action"], str)
