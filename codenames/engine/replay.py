"""A finished game rebuilt from its export (docs/protocol.md, "Game records"): the deal,
then each step applied as the room applied it, with the engine alone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .actions import action_from_json
from .model import Actor, Mode, Role, State
from .play import apply, expire
from .serial import state_from_json


def actor_of(state: State, move: Mapping[str, Any]) -> Actor:
    """The seat as the room handed it to the engine: the lone operative of the
    three-player game plays for whichever team is on turn."""
    role = Role(move["role"])
    team = None if role is Role.OPERATIVE and state.rules.mode is Mode.THREE else move["team"]
    return Actor(move["player"], team, role)


def step(state: State, move: Mapping[str, Any]) -> State:
    """The state after one logged step: a passed deadline, or a seat's move."""
    if move["kind"] == "deadline":
        return expire(state, now=move["at"])
    return apply(state, actor_of(state, move), action_from_json(move["action"]), now=move["at"])


def replay(deal: Mapping[str, Any], moves: Sequence[Mapping[str, Any]]) -> State:
    """The final state of a game from its deal and its steps."""
    state = state_from_json(deal)
    for move in moves:
        state = step(state, move)
    return state
