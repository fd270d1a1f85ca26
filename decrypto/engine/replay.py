"""A finished game rebuilt from its export (docs/protocol.md, "Game records"): the deal,
then each step applied as the room applied it, with the engine alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import action_from_json
from .clues import expire
from .model import State
from .play import apply
from .serial import state_from_json


def step(state: State, move: Mapping[str, Any]) -> State:
    """The state after one logged step: a passed deadline (DC-8), or a player's move."""
    if move["kind"] == "deadline":
        return expire(state, now=move["at"])
    return apply(state, move["player"], action_from_json(move["action"]), now=move["at"])


def replay(deal: Mapping[str, Any], moves: Sequence[Mapping[str, Any]]) -> State:
    """The final state of a game from its deal and its steps."""
    state = state_from_json(deal)
    for move in moves:
        state = step(state, move)
    return state
