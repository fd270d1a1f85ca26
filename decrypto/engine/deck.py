"""The code deck (DC-3) and the seeded draws of keywords (DC-2) and codes (DC-6).

No global `random`: every draw builds its own `random.Random` from the game's seed,
so a game replays identically from its seed and its moves, and a saved state needs
no generator state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .model import DIGITS, Code, RuleError, Team
from .text import clue_key

CODES: tuple[Code, ...] = tuple(
    (a, b, c) for a in DIGITS for b in DIGITS for c in DIGITS if len({a, b, c}) == 3
)


def codes() -> tuple[Code, ...]:
    """The 24 codes of a team's deck: ordered triples of different digits (DC-3)."""
    return CODES


def draw_code(seed: int, round_number: int, team: Team) -> Code:
    """The code `team` draws in `round_number`.

    Each draw has its own generator keyed by round and team: cards go back into the
    deck every round (DC-6), so draws are independent and the same code may repeat.
    A string seed is hashed with SHA-512 by `random`, stable across processes.
    """
    return random.Random(f"decrypto-code:{seed}:{round_number}:{team.value}").choice(CODES)


def draw_keywords(words: Sequence[str], seed: int, count: int) -> tuple[str, ...]:
    """`count` keywords from the pack, no two alike even up to case (DC-2)."""
    distinct: dict[str, str] = {}
    for word in words:
        cleaned = " ".join(word.split())
        if cleaned and clue_key(cleaned) not in distinct:
            distinct[clue_key(cleaned)] = cleaned
    if len(distinct) < count:
        raise RuleError(
            "not_enough_words",
            f"The keyword pack needs at least {count} different words.",
            needed=count,
            available=len(distinct),
        )
    return tuple(random.Random(seed).sample(list(distinct.values()), count))
