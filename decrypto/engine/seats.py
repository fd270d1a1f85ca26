"""Who is who at this moment, and who still has to act."""

from __future__ import annotations

from dataclasses import dataclass

from .model import TEAMS, Mode, Phase, Seat, State, Team


@dataclass(frozen=True)
class Task:
    """Something a team still has to do before the game moves on."""

    team: Team
    kind: str  # "clues" | "decipher" | "intercept" | "guess_keywords" | "judge"
    players: tuple[str, ...]


def role_of(state: State, player: str | None) -> Seat:
    team = state.team_of(player)
    if team is None:
        return Seat(player=None, team=None)
    turn = state.turns[team]
    return Seat(
        player=player,
        team=team,
        is_encryptor=turn is not None and turn.encryptor == player,
        is_interceptor=state.rules.mode is Mode.INTERCEPTOR and team is Team.BLACK,
    )


def next_encryptor(state: State, team: Team) -> str | None:
    """Who follows the current Encryptor in the team's order (DC-5, DC-41).

    Following the *current* Encryptor, rather than counting rounds, keeps the rotation
    fair after the team changes its order (DC-5): the new order decides who is next.
    """
    order = state.teams[team].order
    turn = state.turns[team]
    if turn is None or (state.rules.mode is Mode.INTERCEPTOR and team is Team.BLACK):
        return None
    return order[(order.index(turn.encryptor) + 1) % len(order)]


def guessing_teams(state: State) -> tuple[Team, ...]:
    """Teams that must lock a guess of the code being guessed: decipher, then intercept (DC-10, DC-11)."""
    target = state.guessing_for
    if target is None:
        return ()
    return (target,) if state.round == 1 else (target, target.other)


def guessers(state: State, team: Team) -> tuple[str, ...]:
    """Members of `team` who may write its guess: all but the Encryptor being guessed (DC-10)."""
    turn = state.turns[team]
    excluded = turn.encryptor if team is state.guessing_for and turn is not None else None
    return tuple(p for p in state.teams[team].order if p != excluded)


def tasks(state: State) -> tuple[Task, ...]:
    """What is still awaited, team by team; empty once the game is over."""
    if state.phase is Phase.CLUES:
        return tuple(
            Task(team, "clues", (turn.encryptor,))
            for team in TEAMS
            if (turn := state.turns[team]) is not None and not turn.submitted
        )
    if state.phase is Phase.GUESS:
        return tuple(
            Task(team, "decipher" if team is state.guessing_for else "intercept", guessers(state, team))
            for team in guessing_teams(state)
            if state.locked[team] is None
        )
    if state.tiebreak is not None and state.phase in (Phase.TIEBREAK, Phase.JUDGE):
        waiting = state.tiebreak.guesses if state.phase is Phase.TIEBREAK else state.tiebreak.accepted
        kind = "guess_keywords" if state.phase is Phase.TIEBREAK else "judge"
        return tuple(Task(t, kind, state.teams[t].order) for t in TEAMS if waiting[t] is None)
    return ()
