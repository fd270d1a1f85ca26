"""A new game: the board and the key (CN-3..CN-5)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .actions import BOARD_SIZE
from .clues import fold
from .flow import phase_deadline
from .model import Identity, Mode, Phase, RuleError, Rules, State, Team

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
