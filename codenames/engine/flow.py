"""How a game moves on: phase changes, covering a card, ending a turn, ending the game.

The action handlers in moves.py decide whether an action is allowed; these helpers
decide what follows from it, so every path (a guess, a penalty, an opponent cover,
a timeout) ends a turn and checks for a winner the same way.
"""

from __future__ import annotations

from dataclasses import replace

from .model import Identity, Mode, Phase, Rules, State, Team


def phase_deadline(rules: Rules, phase: Phase, now: float) -> float | None:
    """CN-24: clue and guessing phases run against the sand timer when the room has one."""
    seconds = {Phase.CLUE: rules.clue_seconds, Phase.GUESS: rules.guess_seconds}.get(phase)
    return None if seconds is None else float(now) + seconds


def start_phase(state: State, *, team: Team, phase: Phase, now: float) -> State:
    """Hand the game to `team` in `phase`, bumping the turn counter so older actions go stale."""
    return replace(
        state,
        team=team,
        phase=phase,
        turn=state.turn + 1,
        guesses_made=0,
        guesses_left=None,
        proposals=(),  # proposals belong to one guessing phase (CN-16)
        deadline=phase_deadline(state.rules, phase, now),
    )


def end_turn(state: State, *, now: float) -> State:
    """The guessing team is done: the other team gives a clue, or (COOP) the opponent moves."""
    if state.rules.mode is Mode.COOP:
        # CN-31: after every players' turn the simulated opponent covers one agent.
        return start_phase(state, team=state.rules.coop_team.other, phase=Phase.OPPONENT, now=now)
    return start_phase(state, team=state.team.other, phase=Phase.CLUE, now=now)


def cover(state: State, position: int, *, by: Team) -> State:
    """Cover one card, drop the proposals on it, and end the game if that decided it."""
    covered_by = list(state.covered_by)
    covered_by[position] = by
    proposals = tuple((player, at) for player, at in state.proposals if at != position)
    state = replace(state, covered_by=tuple(covered_by), proposals=proposals)
    identity = state.key[position]
    if identity is Identity.ASSASSIN:
        return finish(state, winner=by.other, reason="assassin")  # CN-18
    owner = identity.team
    if owner is not None and state.agents_left(owner) == 0:
        # CN-17: whoever covered the last agent, its team has won.
        return finish(state, winner=owner, reason="agents_covered")
    return state


def finish(state: State, *, winner: Team, reason: str) -> State:
    """End the game. In COOP the opponent never "wins": the players lose, unscored (CN-32)."""
    score = None
    final_winner: Team | None = winner
    if state.rules.mode is Mode.COOP:
        players = state.rules.coop_team
        if winner is players:
            score = state.agents_left(players.other)  # CN-33
        else:
            final_winner = None
            reason = "assassin" if reason == "assassin" else "opponent_agents_covered"
    return replace(
        state,
        phase=Phase.OVER,
        turn=state.turn + 1,
        proposals=(),
        penalty_owed=None,
        deadline=None,
        winner=final_winner,
        reason=reason,
        score=score,
    )
