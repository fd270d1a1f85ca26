"""Word associations for the bots: which pack words a clue brings to mind, and how strongly.

The table of a language is committed data, ``data/codenames/<lang>.tsv`` and, for
Decrypto's other keywords, ``data/decrypto/<lang>.tsv`` (CC0, written for this project):
each pack word with its associations, strongest first. It is read once per process.
Matching is forgiving the way a player is, and no more: case does not matter, nor an
inflection a lemma table verifies (a plural, a feminine), nor an accent a typed clue misses when
no other word differs by it alone (see ``bots.lemmas``). Words that only look alike once
folded or stripped of an ending stay apart.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bots.lemmas import Lexicon, fold, key, lexicon

DATA = Path(__file__).resolve().parent / "data"
# The first association weighs 1.0, each next one a little less (the lists are ordered).
STEP = 0.03
FLOOR = 0.4
# A match through an inflected form counts a little less than the exact word.
INFLECTED = 0.85


def forms(text: str, language: str) -> set[str]:
    """The key of ``text`` and its verified lemma: two words whose forms meet are one word
    (``gatti`` and ``gatto``), a typed accent missing only where that is unambiguous."""
    words = lexicon(language)
    return set(words.lemmas(words.resolve(text)))


@dataclass
class Table:
    """One language's associations, indexed both ways."""

    language: str
    # pack word (as spelled in the pack) -> [(association, weight)], strongest first
    words: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    # lemma of an association (its key, or the lemma it verifiably inflects) -> {pack word: weight}
    index: dict[str, dict[str, float]] = field(default_factory=dict)
    # key of an association -> {pack word: weight}: the exact spelling weighs in full
    exact: dict[str, dict[str, float]] = field(default_factory=dict)
    # key of a pack word -> the pack word
    by_key: dict[str, str] = field(default_factory=dict)
    # fold -> the table's own spellings (accents restored from these too)
    spelled: dict[str, set[str]] = field(default_factory=dict, repr=False)

    # pack word -> keys of generated links the authored layer removes ("!word")
    removed: dict[str, set[str]] = field(default_factory=dict)
    # clue -> what it brings to mind: a Decrypto bot weighs the same clues many times a move
    memo: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)
    # clue -> its key and verified lemma (each candidate clue is checked against the board)
    lemma_memo: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def add(self, word: str, associations: list[str]) -> None:
        """Add a line of a layer. Entries are ``word`` (weighed by rank), ``word|0.3|relation``
        (a generated link, weighed as built) or ``!word`` (drop that generated link)."""
        self.memo.clear()
        self.lemma_memo.clear()
        listed = self.words.setdefault(word, [])
        have = {key(a) for a, _w in listed}
        dropped = self.removed.setdefault(word, set())
        self.by_key[key(word)] = word
        self.spelled.setdefault(fold(word), set()).add(key(word))
        for rank, entry in enumerate(associations):
            if entry.startswith("!"):
                dropped.add(key(entry[1:]))
                continue
            association, bar, rest = entry.partition("|")
            weight = float(rest.partition("|")[0]) if bar else max(FLOOR, 1.0 - STEP * rank)
            if key(association) in have or key(association) in dropped:
                continue
            exact = key(association)
            have.add(exact)
            listed.append((association, weight))
            self.spelled.setdefault(fold(exact), set()).add(exact)
            slot = self.exact.setdefault(exact, {})
            slot[word] = max(slot.get(word, 0.0), weight)
            for lemma in self.lexicon.lemmas(exact):
                slot = self.index.setdefault(lemma, {})
                slot[word] = max(slot.get(word, 0.0), weight)

    @property
    def lexicon(self) -> Lexicon:
        return lexicon(self.language)

    def lemmas(self, text: str) -> frozenset[str]:
        """The key ``text`` stands for (an unambiguous missing accent restored) and its
        verified lemma: two words are one when these meet (a clue and a card, CN-10)."""
        known = self.lemma_memo.get(text)
        if known is None:
            if len(self.lemma_memo) > 50_000:
                self.lemma_memo.clear()
            words = self.lexicon
            known = words.lemmas(words.resolve(text, self.spelled))
            self.lemma_memo[text] = known
        return known

    def brings_to_mind(self, clue: str) -> dict[str, float]:
        """Every pack word ``clue`` evokes, with its strength (0..1)."""
        known = self.memo.get(clue)
        if known is not None:
            return known
        if len(self.memo) > 50_000:
            self.memo.clear()  # a bound for a long-lived server that hears many clues
        found: dict[str, float] = {}
        spelled = self.lexicon.resolve(clue, self.spelled)
        # Only the exact spelling, or an inflection the lemma table verifies: two words
        # merely alike once folded or stripped of an ending never meet.
        for lemma in self.lemmas(clue):
            for word, weight in self.index.get(lemma, {}).items():
                found[word] = max(found.get(word, 0.0), weight * INFLECTED)
        for word, weight in self.exact.get(spelled, {}).items():
            found[word] = max(found.get(word, 0.0), weight)
        # The relation runs both ways: a clue that is itself a pack word evokes its own list.
        own = self.by_key.get(spelled)
        if own is not None:
            for association, weight in self.words[own]:
                other = self.by_key.get(key(association))
                if other is not None:
                    found[other] = max(found.get(other, 0.0), weight)
        self.memo[clue] = found
        return found

    def score(self, clue: str, words: list[str]) -> dict[str, float]:
        """How strongly ``clue`` points at each of ``words`` (0 for no link)."""
        evoked = self.brings_to_mind(clue)
        return {word: evoked.get(self.by_key.get(key(word), word), 0.0) for word in words}


def parse(text: str, language: str) -> Table:
    table = Table(language)
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition("\t")
        associations = [a.strip() for a in rest.split(";") if a.strip()]
        table.add(unicodedata.normalize("NFC", word.strip()), associations)
    return table


# The files each game's table is read from, in order: the authored layers first (their
# "!word" entries remove generated links), then the generated one. Decrypto's keywords not
# already in the Codenames layer have their own file; a Decrypto interceptor also profits
# from knowing every word the Codenames layer knows.
LAYERS = {
    "codenames": ("codenames", "generated"),
    "decrypto": ("codenames", "decrypto", "generated"),
}


@lru_cache(maxsize=16)
def table(game: str, language: str) -> Table:
    """The association table of a game's pack in ``language`` (English if it has none)."""
    if not (DATA / game / f"{language}.tsv").exists():
        language = "en"
    paths = [DATA / layer / f"{language}.tsv" for layer in LAYERS.get(game, (game,))]
    return parse("\n".join(p.read_text(encoding="utf-8") for p in paths if p.exists()), language)
