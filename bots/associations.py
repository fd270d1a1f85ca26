"""Word associations for the bots: which pack words a clue brings to mind, and how strongly.

The table of a language is committed data, ``data/codenames/<lang>.tsv`` and, for
Decrypto's other keywords, ``data/decrypto/<lang>.tsv`` (CC0, written for this project):
each pack word with its associations, strongest first. It is read once per process.
Matching is forgiving the way a player is: case, accents and the common inflections of
the language (plural, gender) do not matter.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bots import links

DATA = Path(__file__).resolve().parent / "data"
# The first association weighs 1.0, each next one a little less (the lists are ordered).
STEP = 0.03
FLOOR = 0.4
# A match through an inflected form counts a little less than the exact word.
INFLECTED = 0.85
MIN_STEM = 3
# Links beyond the exact entries (bots.links), each a share of the entry's weight: a word
# of a several-word entry ("guarda" of guarda-chuva), a half of a one-word compound ("is"
# of isbjörn, or of a clue: SNÖGUBBE evokes what snö evokes), a verb of a listed noun
# ("costurar": costura). Fainter than the entry, so an exact link elsewhere still wins.
PART = 0.5
HALF = 0.5
ROOT = 0.45
# A word found in the longer entries of this many pack words says nothing about any.
COMMON_PART = 12

# Endings tried when matching, per language (not a full lemmatiser: enough
# to hear "gatti" as "gatto", "kittens" as "kitten", "flaskor" as "flaska").
ENDINGS = {
    "en": ("ies", "es", "s", "ing", "ed"),
    "it": ("i", "e", "a", "o", "he", "hi"),
    "pt-br": ("ões", "ães", "ais", "es", "s", "a", "o"),
    "ca": ("es", "s", "a", "e", "o"),
    "sv": ("arna", "orna", "erna", "ar", "or", "er", "en", "et", "na", "a", "n"),
}


def key(text: str) -> str:
    """Comparison form: case and accents folded (a typed clue may miss an accent)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def forms(text: str, language: str) -> set[str]:
    """The key of ``text`` and its stems by the language's common endings."""
    base = key(text)
    found = {base}
    for ending in ENDINGS.get(language, ()):
        folded = key(ending)
        if base.endswith(folded) and len(base) - len(folded) >= MIN_STEM:
            found.add(base[: -len(folded)])
    if language == "en" and base.endswith("ies") and len(base) > 4:
        found.add(base[:-3] + "y")
    return found


@dataclass
class Table:
    """One language's associations, indexed both ways."""

    language: str
    # pack word (as spelled in the pack) -> [(association, weight)], strongest first
    words: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    # form of an association -> {pack word: weight}; a form of the pack word itself too
    index: dict[str, dict[str, float]] = field(default_factory=dict)
    # key of a pack word -> the pack word
    by_key: dict[str, str] = field(default_factory=dict)

    # pack word -> keys of generated links the authored layer removes ("!word")
    removed: dict[str, set[str]] = field(default_factory=dict)
    # clue -> what it brings to mind: a Decrypto bot weighs the same clues many times a move
    memo: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)
    # root of a word (bots.links.root) -> {pack word: weight}: verb and noun of one family
    rooted: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)
    # every one-word key the table knows: what a compound clue may be cut into
    known: set[str] = field(default_factory=set, repr=False)

    def add(self, word: str, associations: list[str]) -> None:
        """Add a line of a layer. Entries are ``word`` (weighed by rank), ``word|0.3|relation``
        (a generated link, weighed as built) or ``!word`` (drop that generated link)."""
        self.memo.clear()
        listed = self.words.setdefault(word, [])
        have = {key(a) for a, _w in listed}
        dropped = self.removed.setdefault(word, set())
        self.by_key[key(word)] = word
        for rank, entry in enumerate(associations):
            if entry.startswith("!"):
                dropped.add(key(entry[1:]))
                continue
            association, bar, rest = entry.partition("|")
            weight = float(rest.partition("|")[0]) if bar else max(FLOOR, 1.0 - STEP * rank)
            if key(association) in have or key(association) in dropped:
                continue
            have.add(key(association))
            listed.append((association, weight))
            exact = key(association)
            for form in forms(association, self.language):
                strength = weight if form == exact else weight * INFLECTED
                slot = self.index.setdefault(form, {})
                slot[word] = max(slot.get(word, 0.0), strength)

    def widen(self) -> None:
        """Index the fainter links of ``bots.links`` once every layer is read: the words of
        several-word entries, the halves of compound entries, the roots of all."""
        self.memo.clear()
        single = {key(a) for linked in self.words.values() for a, _w in linked}
        single = {a for a in single if not links.parts(a)} | set(self.by_key)
        pieces: list[tuple[str, str, float]] = []
        for word, linked in self.words.items():
            own = key(word)
            for association, weight in linked:
                folded = key(association)
                found = links.parts(folded)
                share = PART
                if not found:
                    cut = links.halves(folded, single, self.language)
                    found, share = (list(cut) if cut else []), HALF
                    self._root(folded, word, weight * ROOT)
                pieces += [(piece, word, weight * share) for piece in found if piece != own]
            self._root(own, word, ROOT)
        users: dict[str, set[str]] = {}
        for piece, word, _weight in pieces:
            users.setdefault(piece, set()).add(word)
        for piece, word, weight in pieces:
            if len(users[piece]) > COMMON_PART:
                continue
            for form in forms(piece, self.language):
                slot = self.index.setdefault(form, {})
                slot[word] = max(slot.get(word, 0.0), weight if form == piece else weight * INFLECTED)
        telling = {piece for piece, words in users.items() if len(words) <= COMMON_PART}
        self.known = single | telling

    def _root(self, folded: str, word: str, weight: float) -> None:
        found = links.root(folded, self.language)
        if found is not None:
            slot = self.rooted.setdefault(found, {})
            slot[word] = max(slot.get(word, 0.0), weight)

    def brings_to_mind(self, clue: str) -> dict[str, float]:
        """Every pack word ``clue`` evokes, with its strength (0..1)."""
        known = self.memo.get(clue)
        if known is not None:
            return known
        if len(self.memo) > 50_000:
            self.memo.clear()  # a bound for a long-lived server that hears many clues
        found = self._direct(clue)
        base = key(clue)
        stem = links.root(base, self.language)
        for word, weight in self.rooted.get(stem, {}).items() if stem else ():
            found[word] = max(found.get(word, 0.0), weight)
        # A compound clue also evokes what its halves evoke, listed or not: INKWELL is "ink"
        # with its own links (pen), though the entry "inkwell" names only ink.
        cut = links.halves(base, self.known, self.language)
        for half in cut or ():
            for word, weight in self._direct(half).items():
                found[word] = max(found.get(word, 0.0), weight * HALF)
        self.memo[clue] = found
        return found

    def _direct(self, clue: str) -> dict[str, float]:
        """What ``clue`` evokes through the index and, as a pack word, its own list."""
        found: dict[str, float] = {}
        for form in forms(clue, self.language):
            for word, weight in self.index.get(form, {}).items():
                found[word] = max(found.get(word, 0.0), weight)
        # The relation runs both ways: a clue that is itself a pack word evokes its own list.
        own = self.by_key.get(key(clue))
        if own is not None:
            for association, weight in self.words[own]:
                other = self.by_key.get(key(association))
                if other is not None:
                    found[other] = max(found.get(other, 0.0), weight)
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
