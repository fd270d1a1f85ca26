"""Measure the bots: ``bots evaluate`` (the operative on a set of clues), ``bots clues``
(the spymaster on random boards) and ``bots selfplay`` (bot teams against each other, in
either game). Figures, not verdicts: see README "AI teammates"."""

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
        bd = sub.add_parser("build", help="build the generated association layer (build-time tools)")
        bd.add_argument("--lang", choices=(*LANGUAGES, "all"), default="all")
        bd.add_argument("--mythes", type=Path, default=None, help="folder of the MyThes .dat files")
        bd.add_argument("--out", type=Path, default=associations.DATA / "generated")
        sp = sub.add_parser("selfplay", help="bot teams against each other through the engine")
        sp.add_argument("--lang", choices=LANGUAGES, default="en")
        sp.add_argument("--game", choices=("codenames", "decrypto"), default="codenames")
        sp.add_argument(
            "--mode",
            choices=("standard", "coop", "three", "interceptor"),
            default="standard",
            help="codenames: standard, coop, three; decrypto: standard, interceptor",
        )
        sp.add_argument("--games", type=int, default=500)
        sp.add_argument("--seed", type=int, default=1)
        sp.add_argument(
            "--against",
            choices=("bot", "person", "half"),
            default="bot",
            help="decrypto: the bots' twin, or a person-like team (its own table, bots/person.py)",
        )
        sp.add_argument(
            "--teammate",
            choices=("bot", "person"),
            default="bot",
            help="decrypto --against person/half: who reads the bot Encryptor's clues",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what"] == "evaluate":
            pairs = read_pairs(options["pairs"])
            result = evaluate(options["lang"], pairs, options["boards"], options["seed"])
            if options["verbose"]:
                for miss in result["misses"]:
                    self.stdout.write(miss)
            self.stdout.write(f"top1 {result['top1']:.2f} top2 {result['top2']:.2f} n {result['n']}")
            return
        if options["what"] == "build":
            self.build(options)
            return
        if options["what"] == "selfplay":
            from bots.selfplay import DECRYPTO_SEATS, SEATS, selfplay, selfplay_decrypto

            game, mode = options["game"], options["mode"]
            if mode not in (DECRYPTO_SEATS if game == "decrypto" else SEATS):
                raise CommandError(f"{game} has no mode {mode!r}")
            if game == "decrypto" and options["against"] != "bot":
                from bots.selfplay import versus_person

                if mode != "standard":
                    raise CommandError("--against plays the standard game")
                tally: Any = versus_person(
                    options["lang"],
                    options["games"],
                    options["seed"],
                    profile=options["against"],
                    teammate=options["teammate"],
                )
                for line in tally.lines():
                    self.stdout.write(line)
                return
            run = selfplay_decrypto if game == "decrypto" else selfplay
            tally = run(options["lang"], mode, options["games"], options["seed"])
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

    def build(self, options: dict[str, Any]) -> None:
        """Write ``data/generated/<lang>.tsv`` for both games' packs (see ``bots.build``)."""
        from bots import build

        try:
            import simplemma
            import wordfreq
        except ImportError as missing:
            raise CommandError(f"{missing}: pip install -r requirements-build.txt") from missing
        folder = options["mythes"] or build.MYTHES
        languages = LANGUAGES if options["lang"] == "all" else (options["lang"],)
        options["out"].mkdir(parents=True, exist_ok=True)
        for language in languages:
            filename, notice = build.SOURCES[language]
            if not (folder / filename).exists():
                raise CommandError(f"{folder / filename} is missing: apt-get install mythes-{language}")
            thesaurus = build.read_mythes(folder / filename)
            code = language.split("-")[0]
            words = sorted(
                {
                    *load_pack(str(PACKS), language),
                    *load_pack(str(PACKS.parent.parent / "decrypto" / "words"), language),
                }
            )
            rows = [
                (
                    word,
                    build.candidates(
                        word,
                        thesaurus,
                        lemma=lambda w, c=code: simplemma.lemmatize(w, lang=c),
                        zipf=lambda w, c=code: wordfreq.zipf_frequency(w, c),
                    ),
                )
                for word in words
            ]
            path = options["out"] / f"{language}.tsv"
            path.write_text(build.render(language, notice, rows), encoding="utf-8")
            covered = sum(bool(found) for _w, found in rows)
            links = sum(len(found) for _w, found in rows)
            self.stdout.write(
                f"{language}: {covered}/{len(words)} pack words ({covered / len(words):.0%}),"
                f" {links / max(1, covered):.1f} candidates each, {path.stat().st_size // 1024} KiB"
            )
