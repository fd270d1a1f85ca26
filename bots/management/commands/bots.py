"""Measure the bots: ``bots evaluate`` (the operative on a set of clues), ``bots clues``
(the spymaster on random boards), ``bots collisions`` (the spymaster's opening clues that
rest on a spelling collision) and ``bots selfplay`` (bot teams against each other, in
either game). Figures, not verdicts: see README "AI teammates". ``bots build`` and
``bots lemmas`` write the generated data (build-time tools)."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bots import associations, lemmas, reader, stems
from bots.codenames import choose_clue, rank
from bots.people import people as people_of
from codenames.engine.clues import board_conflict
from rooms.words import load_pack

PACKS = Path(__file__).resolve().parents[3] / "codenames" / "words"
LANGUAGES = ("en", "it", "pt-br", "ca", "sv")
LEMMA_NOTICE = (
    "simplemma 2.0.0 (MIT, (C) 2021 Adrien Barbaresi), its lemma lists compiled from"
    " lemmatization-lists by Michal Měchura (ODbL 1.0), Wiktionary via Kaikki (CC BY-SA),"
    " FreeLing, spaCy lookups-data, UniMorph and Wikinflection (CC BY 4.0); see NOTICE.md."
)


# A set whose header says so keeps every third pair (the 3rd, 6th, ...) out of tuning: the
# authored layer is never grown from those, and their figure is reported apart (issue 23).
HELD_OUT_MARK = "# Held out from tuning: every third pair"


def held_out(path: Path) -> bool:
    """Whether the set at ``path`` keeps every third pair out of tuning."""
    return any(line.startswith(HELD_OUT_MARK) for line in path.read_text(encoding="utf-8").splitlines())


def language_of(path: Path) -> str | None:
    """The language a set's file name ends with (``people-codenames-pt-br.tsv``: pt-br)."""
    stem = path.stem
    longest_first = sorted(LANGUAGES, key=len, reverse=True)
    return next((code for code in longest_first if stem.endswith(f"-{code}")), None)


# A pair may name two cards ("cheese\tmouse+trap") and give its kind of link in a third
# column (issue 32's blind sets: assoc, name, idiom, compound, form, two); the figures are
# then also given per kind.
TARGETS_SEPARATOR = "+"


def read_pairs(path: Path) -> list[tuple[str, str]]:
    """A set's clue/target pairs; a two-card pair's target keeps both cards joined by ``+``."""
    return [(clue, target) for clue, target, _kind in read_rows(path)]


def read_rows(path: Path) -> list[tuple[str, str, str]]:
    """A set's clue, target(s) and kind of link (empty when the set does not say)."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        clue, tab, rest = line.partition("\t")
        target, _tab, kind = rest.partition("\t")
        if not tab or not clue.strip() or not target.strip():
            raise CommandError(f"{path}:{number}: expected clue<TAB>target")
        rows.append((clue.strip(), target.strip(), kind.strip()))
    return rows


def targets_of(target: str) -> list[str]:
    """The card(s) a pair's target names."""
    return [part.strip() for part in target.split(TARGETS_SEPARATOR) if part.strip()]


def evaluate(
    language: str, pairs: list[tuple[str, str]], boards: int, seed: int, *, heard: bool = True
) -> dict[str, Any]:
    """Each target on ``boards`` seeded random boards of its pack; how often the operative
    ranks it first, or in its first two. A two-card pair's first pick is right when it is
    either card, and its top-2 only when both cards are the first two picks. ``heard``:
    the operative reads with what a person knows (``bots.people``), as in a room."""
    pack = list(load_pack(str(PACKS), language))
    table = associations.table("codenames", language)
    known = people_of(language) if heard else None
    folded = {associations.key(w): w for w in pack}
    top1 = top2 = total = blind = 0
    misses: list[str] = []
    for index, (clue, target) in enumerate(pairs):
        words = []
        for name in targets_of(target):
            word = folded.get(associations.key(name))
            if word is None:
                raise CommandError(f"{name!r} is not a word of the {language} pack")
            words.append(word)
        others = [w for w in pack if w not in words and board_conflict(clue, [w], multi_word=False) is None]
        for board_number in range(boards):
            rng = random.Random(f"{seed}:{index}:{board_number}")
            board = [*words, *rng.sample(others, 25 - len(words))]
            rng.shuffle(board)
            scored = rank(table, clue, board, known)
            ranked = [w for w, _score in scored]
            blind += scored[0][1] == 0
            top1 += ranked[0] in words
            top2 += all(word in ranked[: max(2, len(words))] for word in words)
            total += 1
            if board_number == 0 and ranked[0] not in words:
                places = ", ".join(
                    f"{word + ' ' if len(words) > 1 else ''}ranked {ranked.index(word) + 1}" for word in words
                )
                misses.append(f"{clue} → {'+'.join(words)}: {places}, first {ranked[0]}")
    return {
        "top1": top1 / total,
        "top2": top2 / total,
        "n": len(pairs),
        "misses": misses,
        # boards where the clue linked to no card at all: the ranking alone cannot tell
        "no_link": blind / total,
    }


# A pack word with fewer one-word links than this in the authored layers is thin: a
# player's clue for it is likely to find nothing (issue 23: the gap report).
THIN = 20


def gap_report(language: str, below: int = THIN, show: int = 25) -> list[str]:
    """The thinnest pack words of ``language``: one-word links written by hand (the ones a
    player's clue can meet), then all links with the generated layer's; a summary last."""
    pack = list(load_pack(str(PACKS), language))
    authored = associations.table("codenames", language)
    generated = associations.DATA / "generated" / f"{language}.tsv"
    machine = (
        associations.parse(generated.read_text(encoding="utf-8"), language) if generated.exists() else None
    )
    rows = []
    for word in pack:
        linked = authored.words.get(authored.by_key.get(associations.key(word), word), [])
        by_hand = [a for a, weight in linked if weight >= associations.FLOOR]
        one_word = [a for a in by_hand if not associations.links.parts(associations.key(a))]
        rows.append((len(one_word), len(linked), word))
    rows.sort()
    thin = [row for row in rows if row[0] < below]
    lines = [f"{language} {word}: {one} one-word by hand, {total} in all" for one, total, word in thin[:show]]
    covered = sum(1 for word in pack if machine is not None and word in machine.words)
    lines.append(
        f"{language}: {len(thin)}/{len(pack)} pack words thin (< {below} one-word links by hand),"
        f" mean {statistics.mean(row[0] for row in rows):.1f}; generated layer covers {covered}"
    )
    return lines


def spelling_collisions(
    table: associations.Table, clue: str, intended: tuple[str, ...], visible: list[str], language: str
) -> list[str]:
    """Why ``clue`` rests on a spelling collision (nothing when it does not), judged by the
    lemma table alone, whichever matching chose it: each intended card none of whose
    associations is the clue or one of its verified forms (nor the clue, a pack word,
    lists the card), and each visible card the clue shares a lemma with."""
    found = []
    own = table.words.get(table.by_key.get(associations.key(clue), ""), [])
    for word in intended:
        linked = [a for a, _w in table.words.get(word, [])]
        if any(lemmas.same_word(a, word, language) for a, _w in own):
            continue  # the clue is a pack word listing the card
        if not any(lemmas.same_word(clue, a, language) for a in linked):
            # The association the clue was taken for: the one most alike once folded.
            alike = max(linked, key=lambda a: _common_prefix(lemmas.fold(a), lemmas.fold(clue)), default="?")
            found.append(f"{clue} ≠ {alike} ({word})")
    for word in visible:
        if lemmas.same_word(clue, word, language):
            found.append(f"{clue} shares a lemma with the card {word}")
    return found


def stem_collisions(clue: str, visible: list[str], language: str) -> list[str]:
    """Each visible card ``clue`` is a form, a derivation or a compound part of, by the
    stem rule (``bots.stems``): a player hears the card in the clue, whatever it meant."""
    return [
        f"{clue} shares a stem with the card {word}"
        f" ({stems.stem(clue, language)}/{stems.stem(word, language)})"
        for word in visible
        if stems.related(clue, word, language)
    ]


def _common_prefix(one: str, other: str) -> int:
    return next(
        (i for i, (a, b) in enumerate(zip(one, other, strict=False)) if a != b), min(len(one), len(other))
    )


def deal(pack: list[str], rng: random.Random) -> tuple[list[str], dict[str, str]]:
    words = rng.sample(pack, 25)
    kinds = ["red"] * 9 + ["blue"] * 8 + ["bystander"] * 7 + ["assassin"]
    return words, dict(zip(words, kinds, strict=True))


class Command(BaseCommand):
    help = "Measure the bots: evaluate the operative on clue/target pairs, or list spymaster clues."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="what", required=True)
        ev = sub.add_parser("evaluate", help="operative top-1/top-2 accuracy on clue<TAB>target pairs")
        ev.add_argument("pairs", type=Path, nargs="+", help="sets; the language is read from the name")
        ev.add_argument("--lang", choices=LANGUAGES, default=None, help="when the file name does not tell")
        ev.add_argument("--boards", type=int, default=5, help="random boards per pair")
        ev.add_argument("--seed", type=int, default=1)
        ev.add_argument("--verbose", action="store_true", help="list the pairs missed on their first board")
        ev.add_argument(
            "--table-only",
            action="store_true",
            help="the operative without people's knowledge (bots/people.py): before",
        )
        cl = sub.add_parser("clues", help="the spymaster's clues on seeded random boards")
        cl.add_argument("--lang", choices=LANGUAGES, default="en")
        cl.add_argument("--boards", type=int, default=20)
        cl.add_argument("--seed", type=int, default=1)
        gp = sub.add_parser("gaps", help="the pack words with thin association lists (issue 23)")
        gp.add_argument("--lang", choices=(*LANGUAGES, "all"), default="all")
        gp.add_argument("--below", type=int, default=THIN, help="fewer one-word authored links than this")
        gp.add_argument("--show", type=int, default=25, help="list at most this many words per language")
        co = sub.add_parser(
            "collisions", help="the spymaster's opening clues that rest on a spelling collision"
        )
        co.add_argument("--lang", choices=LANGUAGES, default="en")
        co.add_argument("--boards", type=int, default=300)
        co.add_argument("--seed", type=int, default=1)
        co.add_argument("--verbose", action="store_true", help="list each collision")
        rk = sub.add_parser(
            "risky", help="opening clues whose opponent card or assassin the independent reader puts first"
        )
        rk.add_argument("--lang", choices=LANGUAGES, default="en")
        rk.add_argument("--boards", type=int, default=300)
        rk.add_argument("--seed", type=int, default=1)
        rk.add_argument("--verbose", action="store_true", help="list each risky clue")
        rk.add_argument("--blind", action="store_true", help="the spymaster without the reader (before)")
        lm = sub.add_parser("lemmas", help="build the lemma tables (build-time tool: simplemma)")
        lm.add_argument("--lang", choices=(*LANGUAGES, "all"), default="all")
        lm.add_argument("--out", type=Path, default=lemmas.FOLDER)
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
            choices=("bot", "person", "half", "reader", "reader+person"),
            default="bot",
            help="decrypto: the bots' twin, a person-like team (its own table, bots/person.py),"
            " bot teams intercepted by the independent source (bots/people.py), or by that"
            " source and a person-like table together",
        )
        sp.add_argument(
            "--teammate",
            choices=("bot", "person"),
            default="bot",
            help="decrypto --against person/half: who reads the bot Encryptor's clues",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["what"] == "evaluate":
            for path in options["pairs"]:
                self.evaluate_file(path, options)
            return
        if options["what"] == "build":
            self.build(options)
            return
        if options["what"] == "gaps":
            languages = LANGUAGES if options["lang"] == "all" else (options["lang"],)
            for language in languages:
                for line in gap_report(language, options["below"], options["show"]):
                    self.stdout.write(line)
            return
        if options["what"] == "lemmas":
            self.build_lemmas(options)
            return
        if options["what"] == "collisions":
            self.collisions(options)
            return
        if options["what"] == "risky":
            self.risky(options)
            return
        if options["what"] == "selfplay":
            from bots.selfplay import DECRYPTO_SEATS, SEATS, selfplay, selfplay_decrypto

            game, mode = options["game"], options["mode"]
            if mode not in (DECRYPTO_SEATS if game == "decrypto" else SEATS):
                raise CommandError(f"{game} has no mode {mode!r}")
            if game == "decrypto" and options["against"] != "bot" and mode != "standard":
                raise CommandError("--against plays the standard game")
            if game == "decrypto" and options["against"] in ("reader", "reader+person"):
                from bots.selfplay import versus_reader

                if not people_of(options["lang"]):
                    raise CommandError(f"no reader table for {options['lang']!r} (bots/data/reader/)")
                both = options["against"] == "reader+person"
                tally = versus_reader(options["lang"], options["games"], options["seed"], with_table=both)
                for line in tally.lines():
                    self.stdout.write(line)
                return
            if game == "decrypto" and options["against"] != "bot":
                from bots.selfplay import versus_person

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

    def evaluate_file(self, path: Path, options: dict[str, Any]) -> None:
        """One set's figures; a set with a held-out part gets its tuning and held-out parts
        apart, and only the tuning part's misses are ever listed."""
        language = options["lang"] or language_of(path)
        if language is None:
            raise CommandError(f"{path}: say --lang, the file name does not tell the language")
        rows = read_rows(path)
        pairs = [(clue, target) for clue, target, _kind in rows]
        parts = {"all": pairs}
        if held_out(path):
            parts["tuning"] = [p for n, p in enumerate(pairs, 1) if n % 3]
            parts["held-out"] = [p for n, p in enumerate(pairs, 1) if not n % 3]
        for kind in sorted({kind for _clue, _target, kind in rows if kind}):
            parts[f"kind {kind}"] = [(clue, target) for clue, target, k in rows if k == kind]
        for part, chosen in parts.items():
            result = evaluate(
                language, chosen, options["boards"], options["seed"], heard=not options["table_only"]
            )
            if options["verbose"] and part == ("tuning" if len(parts) > 1 else "all"):
                for miss in result["misses"]:
                    self.stdout.write(miss)
            self.stdout.write(
                f"{path.name} [{language}] {part}: top1 {result['top1']:.2f} top2 {result['top2']:.2f}"
                f" no-link {result['no_link']:.2f} n {result['n']}"
            )

    def collisions(self, options: dict[str, Any]) -> None:
        """The opening clue of ``--boards`` seeded boards; a collision is a clue that links
        an intended card only through a form that is not its association's (same word
        once folded or stripped, not the same word by the lemma table), that shares a
        lemma with a visible card, or that is a form, a derivation or a compound sharing a
        stem with one (``bots.stems``, issue 32)."""
        language = options["lang"]
        pack = list(load_pack(str(PACKS), language))
        table = associations.table("codenames", language)
        counted = by_stem = either = 0
        seconds = []
        for board in range(options["boards"]):
            words, identities = deal(pack, random.Random(f"{options['seed']}:{board}"))
            started = time.perf_counter()
            clue = choose_clue(table, words, identities, "red")
            seconds.append(time.perf_counter() - started)
            found = spelling_collisions(table, clue.word, clue.intended, words, language)
            stemmed = stem_collisions(clue.word, words, language)
            counted += bool(found)
            by_stem += bool(stemmed)
            either += bool(found or stemmed)
            if options["verbose"]:
                for line in found + stemmed:
                    self.stdout.write(f"{board + 1:3}  {clue.explain()}: {line}")
        self.stdout.write(
            f"{language}: collisions {either} of {options['boards']} opening clues"
            f" (spelling/lemma {counted}, form/stem {by_stem})"
            f" ms per clue {1000 * statistics.mean(seconds):.1f} (max {1000 * max(seconds):.1f})"
        )

    def risky(self, options: dict[str, Any]) -> None:
        """The opening clue of ``--boards`` seeded boards; a clue is risky when the
        independent source (``bots.people``: the reader and people's knowledge, not the
        bots' table) puts an opponent's card or the assassin as near to it as an intended
        card (issue 32)."""
        language = options["lang"]
        people = people_of(language)
        if not people:
            raise CommandError(f"no reader table for {language}: see bots/tools/build_reader.py")
        pack = list(load_pack(str(PACKS), language))
        table = associations.table("codenames", language)
        risky = assassin = 0
        numbers, seconds = [], []
        for board in range(options["boards"]):
            words, identities = deal(pack, random.Random(f"{options['seed']}:{board}"))
            started = time.perf_counter()
            clue = choose_clue(table, words, identities, "red", people=None if options["blind"] else people)
            seconds.append(time.perf_counter() - started)
            numbers.append(clue.number)
            found = reader.ahead(people, clue.word, clue.intended, identities, ("blue", "assassin"))
            risky += bool(found)
            assassin += any(identities[w] == "assassin" for w in found)
            if found and options["verbose"]:
                self.stdout.write(f"{board + 1:3}  {clue.explain()}: ahead {', '.join(found)}")
        self.stdout.write(
            f"{language}: risky {risky} of {options['boards']} opening clues"
            f" ({risky / options['boards']:.1%}),"
            f" assassin {assassin}; mean number {statistics.mean(numbers):.2f}"
            f" ms per clue {1000 * statistics.mean(seconds):.1f} (max {1000 * max(seconds):.1f})"
        )

    def build_lemmas(self, options: dict[str, Any]) -> None:
        """Write ``data/lemmas/<lang>.tsv`` for every word the bots' tables and packs use."""
        try:
            from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory
        except ImportError as missing:
            raise CommandError(f"{missing}: pip install -r requirements-build.txt") from missing
        languages = LANGUAGES if options["lang"] == "all" else (options["lang"],)
        options["out"].mkdir(parents=True, exist_ok=True)
        factory = DefaultDictionaryFactory()
        for language in languages:
            vocabulary = set(load_pack(str(PACKS), language))
            vocabulary |= set(load_pack(str(PACKS.parent.parent / "decrypto" / "words"), language))
            for layer in ("codenames", "links", "decrypto", "generated"):
                path = associations.DATA / layer / f"{language}.tsv"
                if path.exists():
                    for word, linked in associations.parse(
                        path.read_text(encoding="utf-8"), language
                    ).words.items():
                        vocabulary |= {word, *(a for a, _w in linked)}
            dictionary = factory.get_dictionary(lemmas.SOURCE_LANGUAGE[language])
            built = lemmas.build(
                vocabulary,
                dict(dictionary.items()),
                plurals=lambda word, language=language: lemmas.regular_plurals(word, language),
                compounds=language in lemmas.COMPOUNDING,
            )
            path = options["out"] / f"{language}.tsv"
            path.write_text(lemmas.render(language, LEMMA_NOTICE, built), encoding="utf-8")
            self.stdout.write(
                f"{language}: {len(built)} lemmas, {sum(map(len, built.values()))} other forms,"
                f" {path.stat().st_size // 1024} KiB"
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
