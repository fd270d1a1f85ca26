"""Measure the bots: ``bots evaluate`` (the operative on a set of clues) and ``bots clues``
(the spymaster on random boards). Figures, not verdicts: see README "AI teammates"."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots import associations
from bots.codenames import choose_clue, rank
from codenames.engine.clues import board_conflict
from rooms.words import load_pack

PACKS = Path(__file__).resolve().parents[3] / "codenames" / "words"
LANGUAGES = ("en", "it", "pt-br", "ca", "sv")


def read_pairs(path: Path) -> list[tuple[str, str]]:
    pairs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        clue, tab, target = line.partition("\t")
        if not tab or not clue.strip() or not target.strip():
            raise CommandError(f"{path}:{number}: expected clue<TAB>target")
        pairs.append((clue.strip(), target.strip()))
    return pairs


def evaluate(language: str, pairs: list[tuple[str, str]], boards: int, seed: int) -> dict[str, Any]:
    """Each target on ``boards`` seeded random boards of its pack; how often the operative
    ranks it first, or in its first two."""
    pack = list(load_pack(str(PACKS), language))
    table = associations.table("codenames", language)
    folded = {associations.key(w): w for w in pack}
    top1 = top2 = total = 0
    misses: list[str] = []
    for index, (clue, target) in enumerate(pairs):
        word = folded.get(associations.key(target))
        if word is None:
            raise CommandError(f"{target!r} is not a word of the {language} pack")
        others = [w for w in pack if w != word and board_conflict(clue, [w], multi_word=False) is None]
        for board_number in range(boards):
            rng = random.Random(f"{seed}:{index}:{board_number}")
            board = [word, *rng.sample(others, 24)]
            rng.shuffle(board)
            ranked = [w for w, _score in rank(table, clue, board)]
            top1 += ranked[0] == word
            top2 += word in ranked[:2]
            total += 1
            if board_number == 0 and ranked[0] != word:
                misses.append(f"{clue} → {word}: ranked {ranked.index(word) + 1}, first {ranked[0]}")
    return {"top1": top1 / total, "top2": top2 / total, "n": len(pairs), "misses": misses}


def deal(pack: list[str], rng: random.Random) -> tuple[list[str], dict[str, str]]:
    words = rng.sample(pack, 25)
    kinds = ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
    return words, dict(zip(words, kinds, strict=True))


class Command(BaseCommand):
    help = "Measure the bots: evaluate the operative on clue/target pairs, or list spymaster clues."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="what", required=True)
        ev = sub.add_parser("evaluate", help="operative top-1/top-2 accuracy on clue<TAB>target pairs")
        ev.add_argument("pairs", type=Path)
        ev.add_argument("--lang", choices=LANGUAGES, default="en")
        ev.add_argument("--boards", type=int, default=5, help="random boards per pair")
        ev.add_argument("--seed", type=int, default=1)
        ev.add_argument("--verbose", action="store_true", help="list the pairs missed on their first board")
        cl = sub.add_parser("clues", help="the spymaster's clues on seeded random boards")
        cl.add_argument("--lang", choices=LANGUAGES, default="en")
        cl.add_argument("--boards", type=int, default=20)
        cl.add_argument("--seed", type=int, default=1)
        sp = sub.add_parser("selfplay", help="bot teams against each other through the engine")
        sp.add_argument("--lang", choices=LANGUAGES, default="en")
        sp.add_argument("--mode", choices=("standard", "coop", "three"), default="standard")
        sp.add_argument("--games", type=int, default=500)
        sp.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what"] == "evaluate":
            pairs = read_pairs(options["pairs"])
            result = evaluate(options["lang"], pairs, options["boards"], options["seed"])
            if options["verbose"]:
                for miss in result["misses"]:
                    self.stdout.write(miss)
            self.stdout.write(f"top1 {result['top1']:.2f} top2 {result['top2']:.2f} n {result['n']}")
            return
        if options["what"] == "selfplay":
            from bots.selfplay import selfplay

            tally = selfplay(options["lang"], options["mode"], options["games"], options["seed"])
            for line in tally.lines():
                self.stdout.write(line)
            return
        language = options["lang"]
        pack = list(load_pack(str(PACKS), language))
        table = associations.table("codenames", language)
        numbers, seconds = [], []
        for board in range(options["boards"]):
            words, identities = deal(pack, random.Random(f"{options['seed']}:{board}"))
            started = time.perf_counter()
            clue = choose_clue(table, words, identities, "red")
            seconds.append(time.perf_counter() - started)
            numbers.append(clue.number)
            self.stdout.write(f"{board + 1:3}  {clue.explain()}")
        self.stdout.write(
            f"mean number {statistics.mean(numbers):.2f} boards {len(numbers)}"
            f" ms per clue {1000 * statistics.mean(seconds):.1f} (max {1000 * max(seconds):.1f})"
        )
