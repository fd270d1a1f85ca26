"""What a person may know and hear that the bots' own tables do not: the independent
source of issue 32, read apart from the bots' associations.

Two parts, neither drawn from the bots' tables nor written by their writers:

- the reader (``bots.reader``): how near a sentence-embedding model places two words,
  through English glosses from libre bilingual dictionaries for the other languages;
- the knowledge layer, ``data/people/<lang>.tsv``, ``sayings-<lang>.tsv`` and ``names-<lang>.tsv``:
  the names, sayings, compounds and cultural links a player of the language knows
  (``Trevi`` for FONTANA, ``crepi`` for LUPO), written by hand, blind to the bots' tables
  and to every evaluation set.

A clue neither part knows is read by its halves when it is a compound of words they do
know (Swedish ``kanelbullsdag``: what ``kanelbulle`` and ``dag`` bring to mind).

The operative reads people's clues with it beside its own table; the spymaster counts
the cards it puts within a person's reach (``choose_clue``'s danger), and the Decrypto
Encryptor is measured against an interceptor holding it (``bots selfplay --against
reader``) and never gives a clue it ties to a keyword (``GIVEAWAY``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path

from bots import links
from bots.lemmas import fold, key
from bots.reader import Reader, reader

FOLDER = Path(__file__).resolve().parent / "data" / "people"
# The first entry of a word's knowledge weighs this, each next a little less, never below
# LEAST: a name or a saying a player knows is as telling as a close association.
FIRST = 0.95
STEP = 0.04
LEAST = 0.6
# The knowledge layer's files, ``<name><lang>.tsv``: cultural links, sayings, names.
LAYERS = ("", "sayings-", "names-")
# A clue read only through a half of it counts this share of that half's links.
HALF = 0.6
# A half says something of its own only when it is at least this long ("is" of isbjörn
# is a word; "bi" of bibliotek is noise).
MIN_HALF = 3


class People:
    """One language's independent source: ``score``, ``board`` and ``around`` as
    ``bots.reader.Reader`` has them, the knowledge layer and compound halves included."""

    def __init__(self, language: str, near: Reader, knows: Mapping[str, Mapping[str, float]]) -> None:
        self.language = language
        self.reader = near
        # key of an entry -> {key of a card: weight}; and by fold, for a clue typed
        # without its accents (when that fold is one entry only)
        self.knows = {entry: dict(cards) for entry, cards in knows.items()}
        by_fold: dict[str, set[str]] = {}
        for entry in self.knows:
            by_fold.setdefault(fold(entry), set()).add(entry)
        self.folded = {f: next(iter(found)) for f, found in by_fold.items() if len(found) == 1}
        self._by_card: dict[str, dict[str, float]] | None = None
        self._vocabulary: set[str] | None = None
        self.memo: dict[str, dict[str, float]] = {}

    def __bool__(self) -> bool:
        return bool(self.reader) or bool(self.knows)

    @property
    def vocabulary(self) -> set[str]:
        """Every one-word key either part knows: what a compound clue may be cut into."""
        if self._vocabulary is None:
            words = set(self.knows)
            for card, row in self.reader.near.items():
                words.add(card)
                words.update(row)
            self._vocabulary = {w for w in words if w.isalpha()}
        return self._vocabulary

    def _entry(self, clue: str) -> str | None:
        spelled = key(clue)
        if spelled in self.knows:
            return spelled
        return self.folded.get(fold(spelled))

    def evokes(self, clue: str) -> dict[str, float]:
        """Every card key ``clue`` brings to a person's mind, with its strength (0..1)."""
        known = self.memo.get(clue)
        if known is not None:
            return known
        if len(self.memo) > 50_000:
            self.memo.clear()
        found = self._direct(clue)
        if not found:
            cut = links.halves(key(clue), self.vocabulary, self.language)
            for half in cut or ():
                if len(half) < MIN_HALF:
                    continue
                for card, value in self._direct(half).items():
                    found[card] = max(found.get(card, 0.0), value * HALF)
        self.memo[clue] = found
        return found

    def _direct(self, clue: str) -> dict[str, float]:
        spelled = key(clue)
        # The cards whose rows hold the clue and, when the clue is itself a pack word, the
        # pack words its own row holds (one pass over the rows: no inverse index to build).
        found = {card: row[spelled] for card, row in self.reader.near.items() if spelled in row}
        for word, value in self.reader.near.get(spelled, {}).items():
            if word in self.reader.near:
                found[word] = max(found.get(word, 0.0), value)
        entry = self._entry(clue)
        for card, value in (self.knows.get(entry, {}) if entry else {}).items():
            found[card] = max(found.get(card, 0.0), value)
        if spelled in self.reader.near:
            found[spelled] = 1.0
        return found

    def score(self, clue: str, cards: Iterable[str]) -> dict[str, float]:
        """How near a person may find ``clue`` to each card (0: not known to be near)."""
        evoked = self.evokes(clue)
        return {card: evoked.get(key(card), 0.0) for card in cards}

    def board(self, cards: Iterable[str]) -> Callable[[str], dict[str, float]]:
        """``score`` for a fixed set of cards."""
        keyed = [(card, key(card)) for card in cards]

        def score(clue: str) -> dict[str, float]:
            evoked = self.evokes(clue)
            return {card: evoked.get(spelled, 0.0) for card, spelled in keyed}

        return score

    def around(self, word: str) -> dict[str, float]:
        """Every word a person may take ``word`` to stand for, ``word`` itself at 1: the
        reader's neighbours both ways and the knowledge layer's cards (the Decrypto
        interceptor's reading)."""
        spelled = key(word)
        found = dict(self.reader.around(spelled))
        entry = self._entry(word)
        for card, value in (self.knows.get(entry, {}) if entry else {}).items():
            found[card] = max(found.get(card, 0.0), value)
        for entry, value in self._cards_knowledge().get(spelled, {}).items():
            found[entry] = max(found.get(entry, 0.0), value)
        found[spelled] = 1.0
        return found

    def _cards_knowledge(self) -> dict[str, dict[str, float]]:
        if self._by_card is None:
            inverse: dict[str, dict[str, float]] = {}
            for entry, cards in self.knows.items():
                for card, value in cards.items():
                    inverse.setdefault(card, {})[entry] = value
            self._by_card = inverse
        return self._by_card


def parse_knowledge(text: str) -> dict[str, dict[str, float]]:
    """``card<TAB>entry|kind; ...`` (strongest first) → {key of entry: {key of card: weight}}."""
    knows: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        card, _tab, rest = unicodedata.normalize("NFC", line).partition("\t")
        entries = [e.strip().partition("|")[0] for e in rest.split(";") if e.strip()]
        for rank, entry in enumerate(entries):
            slot = knows.setdefault(key(entry), {})
            weight = max(LEAST, FIRST - STEP * rank)
            slot[key(card)] = max(slot.get(key(card), 0.0), weight)
    return knows


@cache
def people(language: str) -> People:
    """The committed source of ``language`` (silent where it has neither part)."""
    knows: dict[str, dict[str, float]] = {}
    for path in (FOLDER / f"{name}{language}.tsv" for name in LAYERS):
        if path.exists():
            for entry, cards in parse_knowledge(path.read_text(encoding="utf-8")).items():
                slot = knows.setdefault(entry, {})
                for card, value in cards.items():
                    slot[card] = max(slot.get(card, 0.0), value)
    return People(language, reader(language), knows)
