"""Tokens and the end-of-round checks (DC-13, DC-20..DC-24, DC-42, DC-43)."""

from __future__ import annotations

from dataclasses import replace

from .model import EMPTY_GUESS, TEAMS, Mode, Outcome, Pair, Phase, Reveal, State, Team, TeamState, Tiebreak
from .start import start_round

INTERCEPTION = "interception"
MISCOMMUNICATION = "miscommunication"


def tokens_for(mode: Mode, reveal: Reveal) -> tuple[tuple[Team, str], ...]:
    """The tokens one reveal hands out, as (team that receives it, kind)."""
    target = reveal.team
    if mode is Mode.INTERCEPTOR:
        # DC-42: a failed decipher is the Interceptor's token, not a miscommunication;
        # an exact interception in the same reveal scores as well.
        return ((target.other, INTERCEPTION),) * (int(reveal.intercepted) + int(not reveal.deciphered))
    tokens: list[tuple[Team, str]] = []
    if reveal.intercepted:  # DC-13: a wrong interception costs nothing
        tokens.append((target.other, INTERCEPTION))
    if not reveal.deciphered:  # a right decipher earns nothing
        tokens.append((target, MISCOMMUNICATION))
    return tuple(tokens)


def award(mode: Mode, teams: Pair[TeamState], reveal: Reveal) -> Pair[TeamState]:
    for team, kind in tokens_for(mode, reveal):
        held = teams[team]
        if kind == INTERCEPTION:
            held = replace(held, interceptions=held.interceptions + 1)
        else:
            held = replace(held, miscommunications=held.miscommunications + 1)
        teams = teams.set(team, held)
    return teams


def end_round(state: State) -> State:
    """Win and loss are checked here only, never mid-round (DC-15, DC-22)."""
    if state.rules.mode is Mode.INTERCEPTOR:
        return _end_interceptor_round(state)
    teams = state.teams
    by_interceptions = {t for t in TEAMS if teams[t].interceptions >= 2}  # DC-20
    by_miscommunications = {t.other for t in TEAMS if teams[t].miscommunications >= 2}  # DC-21
    winners = by_interceptions | by_miscommunications
    if len(winners) == 1:
        reason = "two_interceptions" if winners <= by_interceptions else "two_miscommunications"
        return finish(state, winners, reason)
    # DC-23: both teams "win" (a team won and lost, or both reached 2 of a kind), or time is up.
    if len(winners) == 2 or state.round >= state.rules.last_round:
        return _compare_points(state)
    return start_round(state)


def _end_interceptor_round(state: State) -> State:
    if state.teams[Team.BLACK].interceptions >= 2:  # DC-43
        return finish(state, {Team.BLACK}, "interceptor_won")
    if state.round >= state.rules.last_round:
        return finish(state, {Team.WHITE}, "team_held_out")
    return start_round(state)


def _compare_points(state: State) -> State:
    """DC-24, then keyword guessing (DC-25) if the points are equal."""
    white, black = (state.teams[t].points for t in TEAMS)
    if white != black:
        return finish(state, {Team.WHITE if white > black else Team.BLACK}, "points")
    return replace(
        _between_rounds(state),
        phase=Phase.TIEBREAK,
        tiebreak=Tiebreak(guesses=Pair(None, None), accepted=Pair(None, None)),
    )


def finish(state: State, winners: set[Team], reason: str) -> State:
    return replace(_between_rounds(state), phase=Phase.OVER, result=Outcome(frozenset(winners), reason))


def _between_rounds(state: State) -> State:
    """No round is in play any more: drop the finished turns and guesses."""
    return replace(
        state,
        turns=Pair(None, None),
        guessing_for=None,
        guesses=Pair(EMPTY_GUESS, EMPTY_GUESS),
        suggestions=Pair((), ()),
        locked=Pair(None, None),
        deadline=None,
    )
