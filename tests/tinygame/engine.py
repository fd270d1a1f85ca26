"""Tally, a game that exists only to prove the game contract: the first team to tally
three times wins; each team also holds a private word no other seat may see.

Pure Python like the real engines: no Django, no clock, no global random.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

TEAMS = ("north", "south")
TARGET = 3
WORDS = ("quartz", "lichen", "fjord", "sorrel", "magpie", "tundra")


class RuleError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class Rules:
    mode: str = "standard"


@dataclass(frozen=True)
class State:
    words: dict[str, str]
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    turn: str = TEAMS[0]
    move: int = 0
    rules: Rules = Rules()


def new_game(*, seed: int) -> State:
    rng = random.Random(seed)
    first, second = rng.sample(WORDS, 2)
    return State(words={"north": first, "south": second})


def apply(state: State, team: str, action: dict[str, Any]) -> State:
    if outcome(state) is not None:
        raise RuleError("game_over", "The game is over.")
    if action.get("move") != state.move:
        raise RuleError("stale", "That move was made on an old screen.")
    if team != state.turn:
        raise RuleError("not_your_turn", "It is the other team's turn.")
    counts = {**state.counts, team: state.counts[team] + 1}
    other = TEAMS[1 - TEAMS.index(team)]
    return replace(state, counts=counts, turn=other, move=state.move + 1)


def step(state: State, move: dict[str, Any]) -> State:
    """One step of the move log (rooms/history.py): a team's tally (no deadlines here)."""
    return apply(state, move["team"], move["action"])


def outcome(state: State) -> str | None:
    return next((team for team in TEAMS if state.counts[team] >= TARGET), None)


def expire(state: State, now: float) -> State:
    return state


def deadline(state: State) -> float | None:
    return None


def state_to_json(state: State) -> dict[str, Any]:
    return {"words": state.words, "counts": state.counts, "turn": state.turn, "move": state.move}


def state_from_json(data: dict[str, Any]) -> State:
    return State(words=data["words"], counts=data["counts"], turn=data["turn"], move=data["move"])


def view_for(state: State, team: str | None) -> dict[str, Any]:
    """An allow-list: the counts and turn for all, a team's word for that team only
    (and everyone's once the game is over)."""
    over = outcome(state) is not None
    return {
        "counts": dict(state.counts),
        "turn": state.turn,
        "move": state.move,
        "winner": outcome(state),
        "words": {t: w for t, w in state.words.items() if over or t == team},
    }
