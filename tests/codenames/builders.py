"""Compact builders for engine tests: a fixed board, keys written as 25 letters, actors.

A key string is read row-major like the board: R red agent, B blue agent,
N innocent bystander, A assassin. `make_state("RRRRRRRRRBBBBBBBBNNNNNNNA")` is a
game where red starts and cards 0-8 are red, 9-16 blue, 17-23 bystanders, 24 the assassin.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

import pytest

from codenames.engine import (
    Action,
    Actor,
    Confirm,
    EndTurn,
    GiveClue,
    Identity,
    Role,
    RuleError,
    Rules,
    State,
    Team,
    apply,
    new_game,
)

# No word contains another, so the clue checks never interfere with unrelated tests.
WORDS = (
    "apple", "bank", "cloud", "dragon", "engine",
    "forest", "ghost", "harbor", "island", "jungle",
    "kettle", "lemon", "mirror", "needle", "orange",
    "pirate", "queen", "rocket", "saddle", "tower",
    "umbrella", "violin", "wagon", "yacht", "zebra",
)  # fmt: skip

RED_KEY = "RRRRRRRRRBBBBBBBBNNNNNNNA"  # red starts
BLUE_KEY = "BBBBBBBBBRRRRRRRRNNNNNNNA"  # blue starts
RED_AGENTS = tuple(range(0, 9))
BLUE_AGENTS_OF_RED_KEY = tuple(range(9, 17))
BYSTANDER = 17
ASSASSIN = 24

_CODES = {"R": Identity.RED, "B": Identity.BLUE, "N": Identity.BYSTANDER, "A": Identity.ASSASSIN}

RED_SPY = Actor("red-spy", Team.RED, Role.SPYMASTER)
BLUE_SPY = Actor("blue-spy", Team.BLUE, Role.SPYMASTER)
RED_OP = Actor("red-op", Team.RED, Role.OPERATIVE)
RED_OP2 = Actor("red-op-2", Team.RED, Role.OPERATIVE)
BLUE_OP = Actor("blue-op", Team.BLUE, Role.OPERATIVE)
LONE_OP = Actor("solo", None, Role.OPERATIVE)  # CN-34


def spymaster(team: Team) -> Actor:
    return RED_SPY if team is Team.RED else BLUE_SPY


def operative(team: Team) -> Actor:
    return RED_OP if team is Team.RED else BLUE_OP


def parse_key(key: str) -> tuple[Identity, ...]:
    identities = tuple(_CODES[code] for code in key)
    counts = Counter(identities)
    assert len(identities) == 25 and counts[Identity.BYSTANDER] == 7 and counts[Identity.ASSASSIN] == 1
    assert sorted([counts[Identity.RED], counts[Identity.BLUE]]) == [8, 9]
    return identities


def make_state(
    key: str = RED_KEY,
    *,
    rules: Rules = Rules(),  # noqa: B008 - frozen value
    now: float = 0.0,
    words: Mapping[int, str] | None = None,
) -> State:
    """A fresh game on WORDS with the given key; `words` replaces single codenames."""
    identities = parse_key(key)
    starting = Team.RED if identities.count(Identity.RED) == 9 else Team.BLUE
    board = list(WORDS)
    for position, word in (words or {}).items():
        board[position] = word
    state = new_game(words=WORDS, seed=0, rules=rules, now=now)
    return replace(state, words=tuple(board), key=identities, starting_team=starting, team=starting)


def act(state: State, actor: Actor, action: Action, *, now: float = 0.0) -> State:
    return apply(state, actor, action, now=now)


def clue(state: State, word: str = "river", number: int | None = 1, *, now: float = 0.0) -> State:
    """The spymaster on turn gives a clue."""
    return apply(state, spymaster(state.team), GiveClue(state.turn, word, number), now=now)


def guess(state: State, *positions: int, now: float = 0.0) -> State:
    """An operative of the team on turn touches each card in order."""
    for position in positions:
        state = apply(state, operative(state.team), Confirm(state.turn, position), now=now)
    return state


def end_turn(state: State, *, now: float = 0.0) -> State:
    return apply(state, operative(state.team), EndTurn(state.turn), now=now)


def refused(state: State, actor: Actor, action: Action, *, now: float = 0.0) -> str:
    """The RuleError code the engine answers with (fails the test if it accepts the action)."""
    with pytest.raises(RuleError) as info:
        apply(state, actor, action, now=now)
    return info.value.code


def cover_all_but(state: State, identity: Identity, keep: int, *, by: Team) -> State:
    """Cover every card of `identity` except the last `keep`, as if found earlier."""
    positions = [p for p, ident in enumerate(state.key) if ident is identity and state.covered_by[p] is None]
    covered = list(state.covered_by)
    for position in positions[: len(positions) - keep]:
        covered[position] = by
    return replace(state, covered_by=tuple(covered))
