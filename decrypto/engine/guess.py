"""The guess phase: shared drafts, locks and the reveal (DC-9..DC-14, DC-41, DC-42)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .model import DIGITS, EMPTY_GUESS, Code, GuessDraft, Mode, Pair, Phase, Reveal, RuleError, State, Team
from .scoring import award, end_round
from .seats import guessers, guessing_teams


def start_guessing(state: State, target: Team) -> State:
    """Show `target`'s clues and open the guesses on its code (DC-9, DC-14)."""
    return replace(
        state,
        phase=Phase.GUESS,
        guessing_for=target,
        guesses=Pair(EMPTY_GUESS, EMPTY_GUESS),
        suggestions=Pair((), ()),
        locked=Pair(None, None),
        deadline=None,
    )


def edit_guess(state: State, player: str, team: Team, code: Sequence[int | None]) -> State:
    """Change the team's shared draft; teammates see it live (DC-10, DC-S2)."""
    _check_guesser(state, player, team)
    if len(code) != 3 or any(d is not None and d not in DIGITS for d in code):
        raise RuleError("bad_code", "A guess is three digits from 1 to 4 (blanks allowed while editing).")
    draft: GuessDraft = (code[0], code[1], code[2])
    return replace(state, guesses=state.guesses.set(team, draft))


def suggest_guess(state: State, player: str, team: Team, code: Sequence[int]) -> State:
    """A bot's guess for its team, shown to its people beside the draft they lock (issue 29).

    Kept apart from the draft so that a bot never fills in what a person only has to lock;
    one per bot, its latest replacing the earlier one.
    """
    _check_guesser(state, player, team)
    if player not in state.bots:
        raise RuleError("not_a_bot", "Only a bot suggests a guess: a person edits the draft.")
    if len(code) != 3 or any(d not in DIGITS for d in code) or len(set(code)) != 3:
        raise RuleError("bad_code", "A suggestion is three different digits from 1 to 4.")
    mine = ((player, (code[0], code[1], code[2])),)
    others = tuple(s for s in state.suggestions[team] if s[0] != player)
    return replace(state, suggestions=state.suggestions.set(team, others + mine))


def lock_guess(state: State, player: str, team: Team, code: Sequence[int]) -> State:
    """Fix the team's guess; when every required guess is locked, reveal (DC-12)."""
    _check_guesser(state, player, team)
    if len(code) != 3 or any(d not in DIGITS for d in code):
        raise RuleError("bad_code", "A guess is three digits from 1 to 4.")
    locked: Code = (code[0], code[1], code[2])  # repeats allowed: they can only be wrong (DC-10)
    state = replace(state, guesses=state.guesses.set(team, locked), locked=state.locked.set(team, locked))
    if any(state.locked[t] is None for t in guessing_teams(state)):
        return state
    return _reveal(state)


def _check_guesser(state: State, player: str, team: Team) -> None:
    target = state.guessing_for
    assert target is not None  # apply() only routes guesses here during GUESS
    if team not in guessing_teams(state):
        raise RuleError("no_interception_in_round_one", "Nobody intercepts in round 1.")
    if player not in guessers(state, team):
        raise RuleError("encryptor_cannot_guess", "The Encryptor takes no part in guessing their own code.")
    if state.locked[team] is not None:
        raise RuleError("already_locked", "Your team has already locked its guess.")


def _reveal(state: State) -> State:
    """Record interception, decipher and code in that order (DC-12), award tokens (DC-13, DC-42)."""
    target = state.guessing_for
    assert target is not None
    turn = state.turns[target]
    decipher = state.locked[target]
    assert turn is not None and decipher is not None
    reveal = Reveal(
        round=state.round,
        team=target,
        encryptor=turn.encryptor,
        clues=turn.clues,
        interception=state.locked[target.other] if state.round > 1 else None,
        decipher=decipher,
        code=turn.code,
    )
    state = replace(
        state, history=(*state.history, reveal), teams=award(state.rules.mode, state.teams, reveal)
    )
    if target is Team.WHITE and state.rules.mode is Mode.STANDARD:
        return start_guessing(state, Team.BLACK)  # DC-14
    return end_round(state)  # DC-15
