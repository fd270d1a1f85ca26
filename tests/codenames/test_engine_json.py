"""Actions and state as plain JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from codenames.engine import (
    Confirm,
    EndTurn,
    GiveClue,
    Mode,
    OpponentCover,
    PenaltyCover,
    Propose,
    RejectClue,
    RuleError,
    Rules,
    Unpropose,
    action_from_json,
    action_to_json,
    rules_from_json,
    rules_to_json,
    state_from_json,
    state_to_json,
)

from .builders import BLUE_SPY, RED_OP, act, clue, guess, make_state


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"action": "give_clue", "turn": 3, "word": "river", "number": 3}, GiveClue(3, "river", 3)),
        ({"action": "give_clue", "turn": 3, "word": "river", "number": None}, GiveClue(3, "river", None)),
        ({"action": "propose", "turn": 0, "position": 24}, Propose(0, 24)),
        ({"action": "unpropose", "turn": 1}, Unpropose(1)),
        ({"action": "confirm", "turn": 2, "position": 0}, Confirm(2, 0)),
        ({"action": "end_turn", "turn": 2}, EndTurn(2)),
        ({"action": "reject_clue", "turn": 2}, RejectClue(2)),
        ({"action": "penalty_cover", "turn": 2, "position": 5}, PenaltyCover(2, 5)),
        ({"action": "opponent_cover", "turn": 2, "position": 5}, OpponentCover(2, 5)),
    ],
)
def test_actions_parse_from_json_and_back(data: dict[str, Any], expected: object) -> None:
    action = action_from_json(data)
    assert action == expected
    assert action_to_json(action) == data


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "confirm",
        {"turn": 1},
        {"action": "fly", "turn": 1},
        {"action": 3, "turn": 1},
        {"action": "confirm", "turn": 1},
        {"action": "confirm", "turn": 1, "position": 3, "extra": 1},
        {"action": "confirm", "turn": True, "position": 3},
        {"action": "confirm", "turn": -1, "position": 3},
        {"action": "confirm", "turn": 1, "position": True},
        {"action": "confirm", "turn": 1, "position": 25},
        {"action": "confirm", "turn": 1, "position": "3"},
        {"action": "confirm", "turn": 1.0, "position": 3},
        {"action": "give_clue", "turn": 1, "word": "river"},
        {"action": "give_clue", "turn": 1, "word": 7, "number": 1},
        {"action": "give_clue", "turn": 1, "word": "x" * 41, "number": 1},
        {"action": "give_clue", "turn": 1, "word": "river", "number": 10},
        {"action": "give_clue", "turn": 1, "word": "river", "number": False},
    ],
)
def test_malformed_actions_are_bad_action(data: object) -> None:
    with pytest.raises(RuleError) as info:
        action_from_json(data)
    assert info.value.code == "bad_action"


def test_state_round_trips_through_json_text() -> None:
    state = clue(make_state(rules=Rules(clue_seconds=45, guess_seconds=30)), "river", 2, now=12.5)
    state = act(guess(state, 0, now=13.0), RED_OP, Propose(state.turn, 3), now=14.0)
    state = act(state, BLUE_SPY, RejectClue(state.turn), now=15.0)
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


def test_finished_state_round_trips() -> None:
    state = guess(clue(make_state(rules=Rules(mode=Mode.COOP))), 24)
    assert state_from_json(state_to_json(state)) == state


@pytest.mark.parametrize("mutilate", ["words", "format", "phase", "key"])
def test_unreadable_state_is_bad_state(mutilate: str) -> None:
    data = state_to_json(make_state())
    data[mutilate] = {"words": ["a"] * 3, "format": 99, "phase": "dancing", "key": ["pink"] * 25}[mutilate]
    with pytest.raises(RuleError) as info:
        state_from_json(data)
    assert info.value.code == "bad_state"


def test_rules_round_trip_and_default_missing_keys() -> None:
    rules = Rules(mode=Mode.THREE, multi_word_clues=True, clue_seconds=30, guess_seconds=300)
    assert rules_from_json(rules_to_json(rules)) == rules
    assert rules_from_json({}) == Rules()
