"""The engine's entry points: start a game, apply an action, let time pass."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import BOARD_SIZE, Action
from .clues import fold
from .flow import end_turn, phase_deadline
from .model import Actor, Identity, Mode, Phase, RuleError, Rules, Team
from .moves import HANDLERS
from .state import State

# CN-4: 9 agents of the starting team, 8 of the other, 7 bystanders, 1 assassin.
STARTING_AGENTS, OTHER_AGENTS, BYSTANDERS, ASSASSINS = 9, 8, 7, 1
DEFAULT_RULES = Rules()  # frozen, so one shared default is safe


def _distinct_words(words: Sequence[str]) -> list[str]:
    """The pack's usable words, first spelling kept where two differ only in case."""
    seen: dict[str, str] = {}
    for word in words:
        tidy = " ".join(str(word).split())
        if tidy and fold(tidy) not in seen:
            seen[fold(tidy)] = tidy
    return list(seen.values())


def new_game(*, words: Sequence[str], seed: int, rules: Rules = DEFAULT_RULES, now: float = 0.0) -> State:
    """Deal a board and a key (CN-3..CN-5). The same words, seed and rules give the same game."""
    pool = [] if isinstance(words, str) else _distinct_words(words)
    if len(pool) < BOARD_SIZE:
        raise RuleError(
            "not_enough_words",
            f"The word pack needs at least {BOARD_SIZE} different words.",
            {"needed": BOARD_SIZE, "given": len(pool)},
        )
    rng = random.Random(seed)  # never the global generator: games must be reproducible
    board = rng.sample(pool, BOARD_SIZE)
    starting = rules.coop_team if rules.mode is Mode.COOP else rng.choice((Team.RED, Team.BLUE))
    key = (
        [Identity.agent_of(starting)] * STARTING_AGENTS
        + [Identity.agent_of(starting.other)] * OTHER_AGENTS
        + [Identity.BYSTANDER] * BYSTANDERS
        + [Identity.ASSASSIN] * ASSASSINS
    )
    rng.shuffle(key)
    return State(
        rules=rules,
        words=tuple(board),
        key=tuple(key),
        covered_by=(None,) * BOARD_SIZE,
        starting_team=starting,
        team=starting,
        phase=Phase.CLUE,
        deadline=phase_deadline(rules, Phase.CLUE, now),
    )


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
