"""The clues phase: drafts, submits, clue checks and the timer (DC-7, DC-8, DC-16, DC-17)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .guess import start_guessing
from .model import CLUE_MAX_CHARS, TEAMS, Phase, RuleError, State, Team, Turn
from .text import clue_key, loose_key, tidy


def save_draft(state: State, player: str, team: Team, clues: Sequence[str]) -> State:
    """Keep the Encryptor's work in progress: it is what the timer submits (DC-8)."""
    turn = _writing_turn(state, player, team)
    if len(clues) > 3:
        raise RuleError("clue_count", "An Encryptor writes three clues, one per digit.")
    draft = tuple(clues) + ("",) * (3 - len(clues))
    _check_lengths(draft)
    return _with_turn(state, team, replace(turn, clues=(draft[0], draft[1], draft[2])))


def submit_clues(state: State, player: str, team: Team, clues: Sequence[str], now: float) -> State:
    turn = _writing_turn(state, player, team)
    if len(clues) != 3:
        raise RuleError("clue_count", "An Encryptor writes three clues, one per digit.")
    written = (tidy(clues[0]), tidy(clues[1]), tidy(clues[2]))
    _check_lengths(written)
    if "" in written:
        raise RuleError("clue_empty", "Every clue needs some text.", position=written.index("") + 1)
    for index, problem in enumerate(_problems(state, team, written)):
        if problem is not None:
            raise RuleError(problem, _MESSAGES[problem], position=index + 1)  # no echo of a keyword
    state = _with_turn(state, team, replace(turn, clues=written, submitted=True))
    return _after_submit(state, player, now)


def deadline(state: State) -> float | None:
    """When the late Encryptor's draft will be submitted; None if no timer runs (DC-8)."""
    return state.deadline if state.phase is Phase.CLUES else None


def expire(state: State, *, now: float) -> State:
    """At the deadline, submit the late Encryptor's draft as it stands (DC-8).

    Missing clues stay empty. A draft clue that breaks DC-17 is emptied instead of
    sent: a clue equal to a keyword would otherwise broadcast the team's keyword.
    Returns `state` itself when nothing is due, so callers can skip a save.
    """
    due = deadline(state)
    if due is None or now < due:
        return state
    for team in TEAMS:
        turn = state.turns[team]
        if turn is not None and not turn.submitted:
            draft = tuple(tidy(c) for c in turn.clues)
            kept = tuple(
                "" if bad else c for c, bad in zip(draft, _problems(state, team, draft), strict=True)
            )
            state = _with_turn(state, team, replace(turn, clues=(kept[0], kept[1], kept[2]), submitted=True))
    return start_guessing(replace(state, deadline=None), Team.WHITE)


_MESSAGES = {
    "clue_is_keyword": "A clue may not be one of your own keywords.",
    "clue_repeated": "Your team has already used this clue in this game.",
}


def _problems(state: State, team: Team, clues: Sequence[str]) -> list[str | None]:
    """Per clue, the DC-17 rule it breaks (empty clues are judged elsewhere)."""
    # DC-17: a keyword is given away with or without its accents ("Uber" for "Über").
    keywords = {loose_key(word) for word in state.teams[team].keywords}
    used = {clue_key(c) for r in state.history if r.team is team for c in r.clues if c}
    found: list[str | None] = []
    for clue in clues:
        key = clue_key(clue)
        if key and loose_key(clue) in keywords:
            found.append("clue_is_keyword")
        elif key and key in used:
            found.append("clue_repeated")
        else:
            found.append(None)
        used.add(key)  # the same clue twice in one set is a repeat too
    return found


def _check_lengths(clues: Sequence[str]) -> None:
    for index, clue in enumerate(clues):
        if len(clue) > CLUE_MAX_CHARS:
            raise RuleError(
                "clue_too_long", f"A clue has at most {CLUE_MAX_CHARS} characters.", position=index + 1
            )


def _writing_turn(state: State, player: str, team: Team) -> Turn:
    turn = state.turns[team]
    if turn is None or turn.encryptor != player:
        raise RuleError("not_encryptor", "Only this round's Encryptor writes the clues.")
    if turn.submitted:
        raise RuleError("already_submitted", "The clues are already submitted.")
    return turn


def _with_turn(state: State, team: Team, turn: Turn) -> State:
    return replace(state, turns=state.turns.set(team, turn))


def _after_submit(state: State, player: str, now: float) -> State:
    """Both sets in: White's code is guessed first (DC-9). One in: the timer starts (DC-8),
    unless a bot sent it: a bot writes in seconds, and its speed must not rush a person."""
    pending = [t for t in TEAMS if (turn := state.turns[t]) is not None and not turn.submitted]
    if not pending:
        return start_guessing(replace(state, deadline=None), Team.WHITE)
    timer = state.rules.timer
    if timer is not None and state.deadline is None and player not in state.bots:
        return replace(state, deadline=float(now + timer))
    return state
