"""An independent reader: how near a person may find a clue to each card, from a source
the bots' association tables never drew on (issue 32, "a spymaster that sees danger").

The tables know what their writers linked; a card they leave out scores 0 however close
a person finds it (PEIXE → CAMARÃO). ``data/reader/<lang>.tsv`` holds, for every pack
word, the words a sentence-embedding model places nearest among the bots' clue vocabulary
and the language's common words (cosine similarity, two decimals, ``FLOOR`` and above): a
compact table built once by ``bots/tools/build_reader.py`` (build time: the model never
runs in the app). The one model the registries ship offline (all-MiniLM-L6-v2) is
English-centric: the other languages' words are placed by their English glosses, from
libre bilingual dictionaries (``bots/tools/pivot.py``). ``bots.people`` adds what a
person knows beyond nearness (names, sayings) and is what the bots consult.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path

from bots.lemmas import key

FOLDER = Path(__file__).resolve().parent / "data" / "reader"
# Nearness below this is not kept: single-word embeddings place loosely related words
# this near (the table stays compact, 0.35 would make it 2 MB).
FLOOR = 0.45


class Reader:
    """One language's nearness table: ``near[card][clue]`` in 0..1."""

    def __init__(self, language: str, near: Mapping[str, Mapping[str, float]]) -> None:
        self.language = language
        self.near = {key(card): dict(found) for card, found in near.items()}
        self._around: dict[str, dict[str, float]] | None = None

    def __bool__(self) -> bool:
        return bool(self.near)

    def score(self, clue: str, cards: Iterable[str]) -> dict[str, float]:
        """How near a person may find ``clue`` to each card (0: not known to be near)."""
        spelled = key(clue)
        return {card: self.near.get(key(card), {}).get(spelled, 0.0) for card in cards}

    def around(self, word: str) -> dict[str, float]:
        """Every card the table puts near ``word``, both ways (the cards whose rows hold
        it and, when it is a card, its own row), and ``word`` itself at 1: what a person
        may take it to stand for (the Decrypto interceptor's reading, issue 32)."""
        if self._around is None:
            inverse: dict[str, dict[str, float]] = {}
            for card, row in self.near.items():
                for found, value in row.items():
                    inverse.setdefault(found, {})[card] = value
                    inverse.setdefault(card, {})[found] = value
            self._around = inverse
        spelled = key(word)
        return {**self._around.get(spelled, {}), spelled: 1.0}

    def board(self, cards: Iterable[str]) -> Callable[[str], dict[str, float]]:
        """``score`` for a fixed set of cards, their rows looked up once (a spymaster
        weighs thousands of clues against the same board)."""
        rows = [(card, self.near.get(key(card), {})) for card in cards]

        def score(clue: str) -> dict[str, float]:
            spelled = key(clue)
            return {card: row.get(spelled, 0.0) for card, row in rows}

        return score


def parse(text: str, language: str) -> Reader:
    near: dict[str, dict[str, float]] = {}
    # A word recurs in many rows and a value is one of a hundred: one object each keeps a
    # language's table at about a third of the memory (a process may hold all five).
    words: dict[str, str] = {}
    values: dict[str, float] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        card, _tab, rest = line.partition("\t")
        found = near.setdefault(key(card), {})
        for pair in rest.split(";"):
            word, _colon, value = pair.strip().rpartition(":")
            if word:
                spelled = key(word)
                spelled = words.setdefault(spelled, spelled)
                found[spelled] = values.setdefault(value, float(value))
    return Reader(language, near)


@cache
def reader(language: str) -> Reader:
    """The committed table of ``language`` (an empty, silent reader when there is none)."""
    path = FOLDER / f"{language}.tsv"
    if not path.exists():
        return Reader(language, {})
    return parse(path.read_text(encoding="utf-8"), language)


def render(language: str, notice: str, rows: Mapping[str, Mapping[str, float]]) -> str:
    """The table's text: a header, then ``card<TAB>word:0.42; ...`` nearest first."""
    lines = [f"# Reader nearness table: {language}. {notice}"]
    for card in sorted(rows):
        found = sorted(rows[card].items(), key=lambda pair: (-pair[1], pair[0]))
        lines.append(card + "\t" + "; ".join(f"{word}:{value:.2f}" for word, value in found))
    return "\n".join(lines) + "\n"


def ahead(
    people: Reader, clue: str, intended: Iterable[str], identities: Mapping[str, str], avoid: Iterable[str]
) -> list[str]:
    """The cards of an ``avoid`` identity a person may reach through ``clue`` ahead of (or
    as soon as) one of the ``intended`` cards: nearer to it by the reader than the
    intended card the reader finds least near."""
    kinds = frozenset(avoid)
    near = people.score(clue, identities)
    weakest = min((near[w] for w in intended), default=0.0)
    return sorted(
        w for w, kind in identities.items() if kind in kinds and near[w] > 0.0 and near[w] >= weakest
    )
