"""Keyword guessing and judging, the last tie-breaks (DC-25, DC-26).

TIEBREAK: each team submits once its four guesses of the opponents' keywords.
JUDGE: each team sees the guesses of its own keywords and may accept a near miss
("a plural, a synonym") before anyone sees the result. Then OVER.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .model import CLUE_MAX_CHARS, DIGITS, TEAMS, Phase, RuleError, State, Team, Tiebreak
from .scoring import finish
from .text import loose_key, tidy


def submit_keyword_guesses(state: State, team: Team, words: Sequence[str]) -> State:
    tiebreak = _tiebreak(state)
    if tiebreak.guesses[team] is not None:
        raise RuleError("already_submitted", "Your team has already sent its keyword guesses.")
    if len(words) != 4 or any(len(w) > CLUE_MAX_CHARS for w in words):
        raise RuleError("bad_words", "Guess the four keywords, one per position (blanks allowed).")
    guesses = tiebreak.guesses.set(team, tuple(tidy(w) for w in words))
    tiebreak = replace(tiebreak, guesses=guesses)
    if any(guesses[t] is None for t in TEAMS):
        return replace(state, tiebreak=tiebreak)
    return replace(state, tiebreak=tiebreak, phase=Phase.JUDGE)


def judge(state: State, team: Team, accept: Sequence[int]) -> State:
    """`team` accepts, by position, guesses of its own keywords as equivalent."""
    tiebreak = _tiebreak(state)
    if tiebreak.accepted[team] is not None:
        raise RuleError("already_judged", "Your team has already judged the guesses.")
    if any(p not in DIGITS for p in accept) or len(set(accept)) != len(accept):
        raise RuleError("bad_position", "Accept positions 1 to 4, each once.")
    guessed = tiebreak.guesses[team.other] or ()
    if any(not guessed[p - 1] for p in accept):
        raise RuleError("bad_position", "There is no guess to accept at that position.")
    tiebreak = replace(tiebreak, accepted=tiebreak.accepted.set(team, tuple(sorted(accept))))
    state = replace(state, tiebreak=tiebreak)
    if any(tiebreak.accepted[t] is None for t in TEAMS):
        return state
    white, black = (keyword_score(state, t) for t in TEAMS)
    if white == black:
        return finish(state, {Team.WHITE, Team.BLACK}, "shared_victory")  # DC-26
    return finish(state, {Team.WHITE if white > black else Team.BLACK}, "keywords")


def matches(state: State, guesser: Team) -> tuple[bool, ...]:
    """Which of `guesser`'s guesses equal the opponents' keywords, ignoring case and accents."""
    guesses = _tiebreak(state).guesses[guesser] or ()
    keywords = state.teams[guesser.other].keywords
    return tuple(bool(g) and loose_key(g) == loose_key(k) for g, k in zip(guesses, keywords, strict=False))


def keyword_score(state: State, guesser: Team) -> int:
    """Correct guesses of the opponents' keywords: exact-ish, or accepted by their owners."""
    accepted = _tiebreak(state).accepted[guesser.other] or ()
    return sum(hit or (pos in accepted) for pos, hit in enumerate(matches(state, guesser), start=1))


def _tiebreak(state: State) -> Tiebreak:
    assert state.tiebreak is not None  # apply() only routes here in TIEBREAK or JUDGE
    return state.tiebreak
