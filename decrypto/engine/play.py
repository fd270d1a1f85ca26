"""The engine's moves and time: `apply` checks who acts and when, then hands the action
to its phase's module; `deadline` and `expire` (DC-8) and `outcome`."""

from __future__ import annotations

from dataclasses import replace

from .actions import (
    Action,
    EditGuess,
    Judge,
    LockGuess,
    SaveDraft,
    SetNote,
    SetOrder,
    SubmitClues,
    SuggestGuess,
    TiebreakGuess,
)
from .clues import deadline, expire, save_draft, submit_clues
from .guess import edit_guess, lock_guess, suggest_guess
from .model import DIGITS, NOTE_MAX_CHARS, Outcome, Phase, RuleError, State, Team
from .tiebreak import judge, submit_keyword_guesses

# Read from here like the moves, though their rules live with the clues (DC-8).
__all__ = ["apply", "deadline", "expire", "outcome"]


def apply(state: State, player: str, action: Action, *, now: float) -> State:
    """The state after `player` does `action` at time `now`; RuleError if it is not allowed.

    A due deadline is applied first (DC-8): an action never lands on a moment that
    has already timed out, it is refused as stale instead.
    """
    state = expire(state, now=now)
    if state.phase is Phase.OVER:
        raise RuleError("game_over", "The game is over.")
    team = state.team_of(player)
    if team is None:
        raise RuleError("not_in_game", "Only the players of this game can act.")
    match action:
        case SetNote():
            return _set_note(state, team, action)
        case SetOrder():
            return _set_order(state, team, action)
        case SaveDraft():
            _check_moment(state, action.round, action.phase, Phase.CLUES)
            return save_draft(state, player, team, action.clues)
        case SubmitClues():
            _check_moment(state, action.round, action.phase, Phase.CLUES)
            return submit_clues(state, player, team, action.clues, now)
        case EditGuess():
            _check_moment(state, action.round, action.phase, Phase.GUESS, action.guessing_for)
            return edit_guess(state, player, team, action.code)
        case LockGuess():
            _check_moment(state, action.round, action.phase, Phase.GUESS, action.guessing_for)
            return lock_guess(state, player, team, action.code)
        case SuggestGuess():
            _check_moment(state, action.round, action.phase, Phase.GUESS, action.guessing_for)
            return suggest_guess(state, player, team, action.code)
        case TiebreakGuess():
            _check_moment(state, action.round, action.phase, Phase.TIEBREAK)
            return submit_keyword_guesses(state, team, action.words)
        case Judge():
            _check_moment(state, action.round, action.phase, Phase.JUDGE)
            return judge(state, team, action.accept)
    raise RuleError("bad_action", "Unknown action.")


def outcome(state: State) -> Outcome | None:
    """Who won and why, once the game is over."""
    return state.result


def _check_moment(
    state: State, round_number: int, phase: str, expected: Phase, guessing_for: Team | None = None
) -> None:
    """Refuse an action stamped for another moment, so it is never applied twice."""
    if (round_number, phase, guessing_for) != (state.round, state.phase.value, state.guessing_for):
        raise RuleError(
            "stale",
            "The game has moved on since this screen was shown.",
            round=state.round,
            phase=state.phase.value,
        )
    if state.phase is not expected:
        raise RuleError("wrong_phase", f"That action belongs to the {expected.value} phase.")


def _set_note(state: State, team: Team, action: SetNote) -> State:
    """Private notes on positions 1..4 (DC-32); any time, even between moments."""
    if action.position not in DIGITS:
        raise RuleError("bad_position", "Notes go on positions 1 to 4.")
    if len(action.text) > NOTE_MAX_CHARS:
        raise RuleError("note_too_long", f"A note has at most {NOTE_MAX_CHARS} characters.")
    held = state.teams[team]
    notes = list(held.notes)
    notes[action.position - 1] = action.text
    return replace(state, teams=state.teams.set(team, replace(held, notes=tuple(notes))))


def _set_order(state: State, team: Team, action: SetOrder) -> State:
    """A new rotation order (DC-5); it takes effect when the next round starts.

    The current Encryptor has already seen this round's code, so changing who
    encrypts now would leak it: the order only decides who follows them.
    """
    held = state.teams[team]
    if sorted(action.order) != sorted(held.order):
        raise RuleError("bad_order", "The order must list each member of your team exactly once.")
    return replace(state, teams=state.teams.set(team, replace(held, order=tuple(action.order))))
