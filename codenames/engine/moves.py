"""One handler per action: check who may do it now, then change the state.

Checks run in a fixed order (role, team, phase, then the action's own arguments),
so the same mistake always gives the same error code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from .actions import (
    Action,
    Confirm,
    EndTurn,
    GiveClue,
    OpponentCover,
    PenaltyCover,
    Propose,
    RejectClue,
    Unpropose,
)
from .clues import check_clue
from .flow import cover, end_turn, start_phase
from .model import Actor, ClueEntry, Identity, Mode, Phase, Role, RuleError, State, Team


def _acting_team(state: State, actor: Actor) -> Team | None:
    # CN-34: the lone operative of a three-player game plays for the team on turn.
    if actor.team is None and actor.role is Role.OPERATIVE and state.rules.mode is Mode.THREE:
        return state.team
    return actor.team


def _require_phase(state: State, phase: Phase) -> None:
    if state.phase is not phase:
        raise RuleError(
            "wrong_phase", f"This can only be done in the {phase.value} phase.", {"phase": phase.value}
        )


def _require_spymaster(actor: Actor) -> None:
    if actor.role is not Role.SPYMASTER:
        raise RuleError("not_spymaster", "Only a spymaster can do this.")


def _require_guessing_operative(state: State, actor: Actor) -> None:
    if actor.role is not Role.OPERATIVE:
        # CN-22: a spymaster's only channel to the team is the clue.
        raise RuleError("not_operative", "Only operatives can choose cards.")
    if _acting_team(state, actor) is not state.team:
        raise RuleError("not_your_turn", "It is not your team's turn.")
    _require_phase(state, Phase.GUESS)


def _require_visible(state: State, position: int) -> None:
    if state.covered_by[position] is not None:
        raise RuleError("card_covered", "That card is already covered.", {"position": position})


def give_clue(state: State, actor: Actor, action: GiveClue, now: float) -> State:
    _require_spymaster(actor)
    if actor.team is not state.team:
        raise RuleError("not_your_turn", "It is not your team's turn.")
    _require_phase(state, Phase.CLUE)
    word = check_clue(state, action.word)
    entry = ClueEntry(team=state.team, word=word, number=action.number)
    guessing = start_phase(state, team=state.team, phase=Phase.GUESS, now=now)
    # CN-13: N+1 guesses for N >= 1; CN-14: no limit for 0 or unlimited.
    limit = action.number + 1 if action.number else None
    # CN-21: giving a clue forfeits a penalty cover not yet used.
    return replace(guessing, log=(*state.log, entry), guesses_left=limit, penalty_owed=None)


def propose(state: State, actor: Actor, action: Propose, now: float) -> State:
    _require_guessing_operative(state, actor)
    _require_visible(state, action.position)
    others = tuple((player, at) for player, at in state.proposals if player != actor.player)
    return replace(state, proposals=(*others, (actor.player, action.position)))


def unpropose(state: State, actor: Actor, action: Unpropose, now: float) -> State:
    _require_guessing_operative(state, actor)
    if state.proposal_of(actor.player) is None:
        raise RuleError("no_proposal", "You have not proposed a card.")
    return replace(state, proposals=tuple(item for item in state.proposals if item[0] != actor.player))


def confirm(state: State, actor: Actor, action: Confirm, now: float) -> State:
    _require_guessing_operative(state, actor)
    _require_visible(state, action.position)
    team, position = state.team, action.position
    last = state.log[-1]
    left = None if state.guesses_left is None else state.guesses_left - 1
    state = replace(
        state,
        log=(*state.log[:-1], replace(last, guesses=(*last.guesses, position))),
        guesses_made=state.guesses_made + 1,
        guesses_left=left,
    )
    state = cover(state, position, by=team)  # CN-11
    if state.over:
        return state
    if state.key[position] is Identity.agent_of(team) and left != 0:
        return state  # own agent and guesses left: keep guessing
    return end_turn(state, now=now)


def end_turn_voluntarily(state: State, actor: Actor, action: EndTurn, now: float) -> State:
    _require_guessing_operative(state, actor)
    if state.guesses_made < 1:
        raise RuleError("must_guess", "Make at least one guess before ending the turn.")  # CN-12
    return end_turn(state, now=now)


def reject_clue(state: State, actor: Actor, action: RejectClue, now: float) -> State:
    _require_spymaster(actor)
    if state.rules.mode is Mode.COOP:
        raise RuleError("not_in_mode", "There is no opposing spymaster in a co-operative game.")
    _require_phase(state, Phase.GUESS)  # CN-20: while that clue's guessing is in progress
    if actor.team is None:
        raise RuleError("not_your_turn", "Only the opposing spymaster can reject a clue.")
    if actor.team is state.team:
        raise RuleError("own_clue", "Only the opposing spymaster can reject a clue.")
    last = state.log[-1]
    state = replace(state, log=(*state.log[:-1], replace(last, rejected=True)), penalty_owed=actor.team)
    return end_turn(state, now=now)  # CN-21


def penalty_cover(state: State, actor: Actor, action: PenaltyCover, now: float) -> State:
    _require_spymaster(actor)
    team = state.penalty_owed
    if team is None or actor.team is not team:
        raise RuleError("no_penalty", "You have no penalty cover to use.")
    _require_phase(state, Phase.CLUE)
    _require_visible(state, action.position)
    if state.key[action.position] is not Identity.agent_of(team):
        raise RuleError("not_own_agent", "Choose one of your own agents.", {"position": action.position})
    return cover(replace(state, penalty_owed=None), action.position, by=team)  # may win (CN-17)


def opponent_cover(state: State, actor: Actor, action: OpponentCover, now: float) -> State:
    if state.rules.mode is not Mode.COOP:
        raise RuleError("not_in_mode", "Only a co-operative game has a simulated opponent.")
    _require_spymaster(actor)
    players = state.rules.coop_team
    if actor.team is not players:
        raise RuleError("not_your_turn", "Only the players' spymaster picks the opponent's cover.")
    _require_phase(state, Phase.OPPONENT)
    _require_visible(state, action.position)
    if state.key[action.position] is not Identity.agent_of(players.other):
        raise RuleError(
            "not_opponent_agent", "Choose one of the opponent's agents.", {"position": action.position}
        )
    state = cover(state, action.position, by=players.other)  # CN-31; may lose the game (CN-32)
    if state.over:
        return state
    return start_phase(state, team=players, phase=Phase.CLUE, now=now)


Handler = Callable[[State, Actor, Any, float], State]

HANDLERS: dict[type[Action], Handler] = {
    GiveClue: give_clue,
    Propose: propose,
    Unpropose: unpropose,
    Confirm: confirm,
    EndTurn: end_turn_voluntarily,
    RejectClue: reject_clue,
    PenaltyCover: penalty_cover,
    OpponentCover: opponent_cover,
}
