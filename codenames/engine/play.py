"""The engine's moves and time: apply an action, let a deadline pass, read the outcome."""

from __future__ import annotations

from .actions import Action
from .flow import end_turn
from .model import RATINGS, Actor, Outcome, Phase, RuleError, State
from .moves import HANDLERS


def apply(state: State, actor: Actor, action: Action, *, now: float) -> State:
    """Return the state after `actor` does `action` at time `now`, or raise RuleError.

    A deadline that passed before `now` is applied first (so a guess sent after the
    operatives' time ran out is stale), and again after the action (so the one guess
    still owed after a timeout ends the turn, CN-24).
    """
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise RuleError("bad_action", "Unknown action.")
    state = expire(state, now=now)
    if state.over:
        raise RuleError("game_over", "The game is over.")
    if action.turn != state.turn:
        raise RuleError(
            "stale", "The game has moved on; look again.", {"turn": state.turn, "action_turn": action.turn}
        )
    return expire(handler(state, actor, action, now), now=now)


def expire(state: State, *, now: float) -> State:
    """Apply a passed deadline (CN-24); returns `state` itself when nothing is due.

    A clue timeout changes nothing (the deadline stays so the app can show it); a
    guessing timeout ends the turn once the team has made its one required guess.
    """
    if state.over or state.deadline is None or now < state.deadline:
        return state
    if state.phase is Phase.GUESS and state.guesses_made >= 1:
        return end_turn(state, now=now)
    return state


def deadline(state: State) -> float | None:
    """When the current phase's sand timer runs out, if the room uses one."""
    return None if state.over else state.deadline


def outcome(state: State) -> Outcome | None:
    """The result of a finished game, or None while it is still being played."""
    if not state.over:
        return None
    rating = None if state.score is None else RATINGS.get(state.score)
    return Outcome(winner=state.winner, reason=state.reason or "", score=state.score, rating=rating)
