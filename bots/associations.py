"""Word associations for the bots: which pack words a clue brings to mind, and how strongly.

The table of a language is committed data, ``data/codenames/<lang>.tsv`` and, for
Decrypto's other keywords, ``data/decrypto/<lang>.tsv`` (CC0, written for this project):
each pack word with its associations, strongest first. It is read once per process.
Matching is forgiving the way a player is, and no more: case does not matter, nor an
inflection a lemma table verifies (a plural, a feminine), nor an accent a typed clue misses when
no other word differs by it alone (see ``bots.lemmas``). Words that only look alike once
folded or stripped of an ending stay apart. Fainter links reach a little further for the
operative reading people (``bots.links``: a word of a several-word entry, a half of a
compound); the spymaster counts only the exact and verified ones.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bots import links
from bots.lemmas import Lexicon, fold, key, lexicon

DATA = Path(__file__).resolve().parent / "data"
# The first association weighs 1.0, each next one a little less (the lists are ordered).
STEP = 0.03
FLOOR = 0.4
# A match through an inflected form counts a little less than the exact word.
INFLECTED = 0.85
# Links beyond the exact entries (bots.links), each a share of the entry's weight: a word
# of a several-word entry ("guarda" of guarda-chuva), a half of a one-word compound ("is"
# of isbjörn, or of a clue: SNÖGUBBE evokes what snö evokes). Fainter than the entry, so
# an exact link elsewhere still wins. A verb and its noun meet through the lemma table
# (COSTURAR: costura), never by cutting endings, which made *evening* evoke *even*.
PART = 0.5
HALF = 0.5
# A word found in the longer entries of this many pack words says nothing about any.
COMMON_PART = 12


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
    # clue -> what it evokes through exact and verified links only (the spymaster's count)
    direct_memo: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)
    # a word of a several-word entry, a half of a compound (bots.links), and its lemma ->
    # {pack word: weight}: fainter links, apart from ``index``
    wide: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)
    # every one-word key the table knows: what a compound clue may be cut into
    known: set[str] = field(default_factory=set, repr=False)

    def add(self, word: str, associations: list[str]) -> None:
        """Add a line of a layer. Entries are ``word`` (weighed by rank), ``word|0.3|relation``
        (a generated link, weighed as built) or ``!word`` (drop that generated link)."""
        self.memo.clear()
        self.lemma_memo.clear()
        self.direct_memo.clear()
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

    def widen(self) -> None:
        """Index the fainter links of ``bots.links`` once every layer is read: the words of
        several-word entries and the halves of compound entries."""
        self.memo.clear()
        self.direct_memo.clear()
        single = {key(a) for linked in self.words.values() for a, _w in linked}
        single = {a for a in single if not links.parts(a)} | set(self.by_key)
        pieces: list[tuple[str, str, float]] = []
        for word, linked in self.words.items():
            own = key(word)
            for association, weight in linked:
                spelled = key(association)
                found = links.parts(spelled)
                share = PART
                if not found:
                    cut = links.halves(spelled, single, self.language)
                    found, share = (list(cut) if cut else []), HALF
                pieces += [(piece, word, weight * share) for piece in found if piece != own]
        users: dict[str, set[str]] = {}
        for piece, word, _weight in pieces:
            users.setdefault(piece, set()).add(word)
        self.wide = {}
        for piece, word, weight in pieces:
            if len(users[piece]) > COMMON_PART:
                continue
            # Kept apart from the exact index: the spymaster does not count these.
            for lemma in {piece, *self.lexicon.lemmas(piece)}:
                slot = self.wide.setdefault(lemma, {})
                strength = weight if lemma == piece else weight * INFLECTED
                slot[word] = max(slot.get(word, 0.0), strength)
        telling = {piece for piece, words in users.items() if len(words) <= COMMON_PART}
        self.known = single | telling

    def brings_to_mind(self, clue: str) -> dict[str, float]:
        """Every pack word ``clue`` evokes, with its strength (0..1): exact and verified
        links, then the fainter ones (a word of a longer entry, a compound's halves)."""
        known = self.memo.get(clue)
        if known is not None:
            return known
        if len(self.memo) > 50_000:
            self.memo.clear()  # a bound for a long-lived server that hears many clues
        found = dict(self.direct(clue))
        base = key(clue)
        for lemma in {base, *self.lemmas(clue)}:
            for word, weight in self.wide.get(lemma, {}).items():
                found[word] = max(found.get(word, 0.0), weight)
        # A compound clue also evokes what its halves evoke, listed or not: INKWELL is "ink"
        # with its own links (pen), though the entry "inkwell" names only ink.
        cut = links.halves(base, self.known, self.language)
        for half in cut or ():
            for word, weight in self.direct(half).items():
                found[word] = max(found.get(word, 0.0), weight * HALF)
        self.memo[clue] = found
        return found

    def direct(self, clue: str) -> dict[str, float]:
        """What ``clue`` evokes through exact and lemma-verified links only, and as a pack
        word its own list: what the spymaster counts (issue 23)."""
        known = self.direct_memo.get(clue)
        if known is not None:
            return known
        if len(self.direct_memo) > 50_000:
            self.direct_memo.clear()
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
        self.direct_memo[clue] = found
        return found

    def score(self, clue: str, words: list[str], *, strict: bool = False) -> dict[str, float]:
        """How strongly ``clue`` points at each of ``words`` (0 for no link); ``strict``:
        through exact and verified links only."""
        evoked = self.direct(clue) if strict else self.brings_to_mind(clue)
        return {word: evoked.get(self.by_key.get(key(word), word), 0.0) for word in words}


def parse(text: str, language: str) -> Table:
    table = Table(language)
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        word, _, rest = line.partition("\t")
        associations = [a.strip() for a in rest.split(";") if a.strip()]
        table.add(unicodedata.normalize("NFC", word.strip()), associations)
    table.widen()
    return table


# The files each game's table is read from, in order: the authored layers first (their
# "!word" entries remove generated links), then the generated one. Decrypto's keywords not
# already in the Codenames layer have their own file; a Decrypto interceptor also profits
# from knowing every word the Codenames layer knows.
LAYERS = {
    "codenames": ("codenames", "links", "generated"),
    "decrypto": ("codenames", "links", "decrypto", "generated"),
}


@lru_cache(maxsize=16)
def table(game: str, language: str) -> Table:
    """The association table of a game's pack in ``language`` (English if it has none)."""
    if not (DATA / game / f"{language}.tsv").exists():
        language = "en"
    paths = [DATA / layer / f"{language}.tsv" for layer in LAYERS.get(game, (game,))]
    return parse("\n".join(p.read_text(encoding="utf-8") for p in paths if p.exists()), language)
