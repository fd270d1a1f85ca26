"""Bot teams against each other, through the pure engine (no database): the figures of
``manage.py bots selfplay``. Every bot gets the engine's own per-seat view, as in a room."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bots import associations
from bots.codenames import decide
from codenames import engine
from codenames.services import WORDS_DIR
from rooms.words import load_pack

SEATS = {
    "standard": [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")],
    "coop": [("red", "spymaster"), ("red", "operative")],
    "three": [("red", "spymaster"), ("blue", "spymaster"), ("red", "operative")],
}
MOVES_MAX = 400


@dataclass
class Tally:
    games: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    turns: list[int] = field(default_factory=list)
    clue_numbers: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    stalled: int = 0

    def lines(self) -> list[str]:
        n = max(1, self.games)
        out = [
            f"games {self.games}  winners {dict(self.winners)}  reasons {dict(self.reasons)}",
            f"assassin rate {self.reasons['assassin'] / n:.3f}  stalled {self.stalled}",
            f"turns to the end: mean {statistics.mean(self.turns or [0]):.1f}"
            f"  clue number: mean {statistics.mean(self.clue_numbers or [0]):.2f}",
        ]
        if self.scores:
            out.append(f"co-operative wins {len(self.scores)}  score mean {statistics.mean(self.scores):.2f}")
        return out


def play_one(language: str, mode: str, seed: int, tally: Tally) -> None:
    table = associations.table("codenames", language)
    rng = random.Random(seed)
    words = rng.sample(list(load_pack(WORDS_DIR, language)), 25)
    state = engine.new_game(words=words, seed=seed, rules=engine.Rules(mode=engine.Mode(mode)))
    seats = [(f"bot{i}", team, role) for i, (team, role) in enumerate(SEATS[mode])]
    for _ in range(MOVES_MAX):
        if state.over:
            break
        for me, team, role in seats:
            view: dict[str, Any] = engine.view_for(state, sees_key=role == "spymaster")
            decision = decide(view, me, team, role, table)
            if decision is None:
                continue
            message, clue = decision
            if clue is not None:
                tally.clue_numbers.append(clue.number)
            seat_team = None if mode == "three" and role == "operative" else engine.Team(team)
            actor = engine.Actor(me, seat_team, engine.Role(role))
            state = engine.apply(state, actor, engine.action_from_json(message), now=0.0)
            break
        else:
            break  # nobody could move
    result = engine.outcome(state)
    tally.games += 1
    if result is None:
        tally.stalled += 1
        return
    tally.winners[result.winner.value if result.winner else "none"] += 1
    tally.reasons[result.reason] += 1
    tally.turns.append(state.turn)
    if result.score is not None:
        tally.scores.append(result.score)


def selfplay(language: str, mode: str, games: int, seed: int = 1) -> Tally:
    tally = Tally()
    for number in range(games):
        play_one(language, mode, seed * 100_000 + number, tally)
    return tally
