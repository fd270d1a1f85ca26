"""Actions and state as JSON: strict parsing, lossless saving."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from decrypto.engine import (
    EditGuess,
    Judge,
    LockGuess,
    RuleError,
    SaveDraft,
    SetNote,
    SetOrder,
    SubmitClues,
    TiebreakGuess,
    action_from_json,
    action_to_json,
    new_game,
    state_from_json,
    state_to_json,
)

from .builders import WORDS, B, W, game, play_round, submit

ACTIONS = [
    SaveDraft(round=1, phase="clues", clues=("a", "")),
    SubmitClues(round=1, phase="clues", clues=("a", "b", "c")),
    EditGuess(round=2, phase="guess", guessing_for=W, code=(1, None, 3)),
    LockGuess(round=2, phase="guess", guessing_for=B, code=(1, 2, 3)),
    SetNote(position=2, text="Mexico?"),
    SetOrder(order=("w2", "w1")),
    TiebreakGuess(round=8, phase="tiebreak", words=("a", "b", "c", "d")),
    Judge(round=8, phase="judge", accept=(1, 4)),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: type(a).__name__)
def test_action_json_round_trips(action: Any) -> None:
    data = json.loads(json.dumps(action_to_json(action)))
    assert action_from_json(data) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"action": "fly"},
        {"action": "lock_guess", "round": 2, "phase": "guess", "code": [1, 2, 3]},  # no guessing_for
        {"action": "lock_guess", "round": 2, "phase": "guess", "guessing_for": "red", "code": [1, 2, 3]},
        {"action": "lock_guess", "round": "2", "phase": "guess", "guessing_for": "white", "code": [1, 2, 3]},
        {"action": "lock_guess", "round": True, "phase": "guess", "guessing_for": "white", "code": [1, 2, 3]},
        {"action": "submit_clues", "round": 1, "phase": "clues", "clues": "abc"},
        {"action": "submit_clues", "round": 1, "phase": "clues", "clues": ["a", 2, "c"]},
        {"action": "set_note", "position": 1, "text": "x", "extra": 1},
    ],
)
def test_malformed_action_is_bad_action(data: object) -> None:
    with pytest.raises(RuleError) as error:
        action_from_json(data)
    assert error.value.code == "bad_action"


def test_state_json_round_trips_mid_game() -> None:
    state = submit(play_round(play_round(game(), white_ok=False), black_intercepts=True), B, now=12.5)
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    assert state_from_json(data).deadline == 42.5  # DC-8: the deadline survives a restart


def test_dc8_bot_seats_survive_a_restart_and_old_saves_load_without_them() -> None:
    state = new_game(words=WORDS, seed=7, white=("w1", "w2"), black=("b1", "b2"), bots=("b2",))
    data = json.loads(json.dumps(state_to_json(state)))
    assert data["bots"] == ["b2"] and state_from_json(data) == state
    del data["bots"]  # a game saved before bot seats were recorded
    assert state_from_json(data) == replace(state, bots=frozenset())


def test_broken_state_json_is_bad_state() -> None:
    data = state_to_json(game())
    del data["teams"]
    with pytest.raises(RuleError) as error:
        state_from_json(data)
    assert error.value.code == "bad_state"
