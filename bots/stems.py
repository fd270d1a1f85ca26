"""Words a player hears as one: a form, a derivation or a compound sharing a stem.

The lemma table (``bots.lemmas``) knows inflections a dictionary lists; a player also
hears BARBEIRO in BARBA, CAMPANILE in CAMPANA, FLYGA in FLYGPLATS and TÄNDER in TAND
(issue 32), which no inflection table joins. This is a second, wider judgment, used only
to keep clues away from cards (never to link a clue to a card): a word it joins wrongly
costs a spymaster one candidate clue, a word it misses sends a player to a visible card.

Stems are Snowball's (``snowballstemmer``, BSD-3-Clause, see NOTICE.md), one algorithm
per language, then a prefix rule for derivations and, in the languages that write
compounds as one word, a head/tail rule for compounds.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

import snowballstemmer

ALGORITHM = {"en": "english", "it": "italian", "pt-br": "portuguese", "ca": "catalan", "sv": "swedish"}
# Languages whose compounds are one word (FOTBOLL, FLYGPLATS, FOOTBALL): a stem may be
# the compound's tail as well as its head.
COMPOUNDING = {"sv", "en"}
# The shortest stem a derivation or a compound part is judged on: shorter ones ("sal",
# "car") begin too many unrelated words.
MIN_STEM = 4
# The shortest head a compound's tail is read after (FOT-BOLL).
MIN_HEAD = 3
# Swedish plurals and derivations turn vowels (TAND/TÄNDER, FOT/FÖTTER, STAD/STÄDER);
# Å is a letter of its own, never a turned A.
_TURNED = str.maketrans({"ä": "a", "ö": "o"})


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold().strip()


@lru_cache(maxsize=1 << 16)
def stem(word: str, language: str) -> str:
    """The Snowball stem of ``word`` (casefolded; Swedish turned vowels straightened)."""
    spelled = _key(word)
    algorithm = ALGORITHM.get(language)
    if algorithm is None:
        return spelled
    found = _stemmer(algorithm).stemWord(spelled)
    return found.translate(_TURNED) if language == "sv" else found


@cache
def _stemmer(algorithm: str) -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer(algorithm)


def _common_prefix(one: str, other: str) -> int:
    size = min(len(one), len(other))
    return next((i for i in range(size) if one[i] != other[i]), size)


def related(one: str, other: str, language: str) -> bool:
    """Whether a player may hear ``one`` and ``other`` as one word: equal, the same
    stem, one derived from the other (a stem of at least ``MIN_STEM`` letters that begins
    the other's, bar its last letter: PIANO/PIANIST, CAVALLO/CAVALIERE), or, where
    compounds are one word, one the other's head or tail (TAND/TANDLÄKARE, BOLL/FOTBOLL).
    Deliberately wide (LETTERA/LETTO are joined): it only ever removes a clue."""
    a, b = _key(one), _key(other)
    if a == b:
        return True
    sa, sb = stem(a, language), stem(b, language)
    if sa == sb and len(sa) >= MIN_STEM:
        return True
    (short, short_stem), (long, long_stem) = sorted(((a, sa), (b, sb)), key=lambda pair: len(pair[1]))
    if len(short_stem) < MIN_STEM:
        return False
    # The head of a derivation or a compound: the longer word goes on past the stem by a
    # suffix or a word (one letter more is mostly another word: PLAN-ETA/PLANT-A).
    if long_stem.startswith(short_stem) and len(long_stem) >= len(short_stem) + 2:
        return True
    # A derivation may drop or turn the stem's last letter (PIANO → PIAN-IST, CAVALL-O →
    # CAVAL-IERE); it adds a suffix, so the derived word is the longer by two letters.
    if abs(len(long) - len(short)) >= 2 and _common_prefix(short_stem, long_stem) >= max(
        MIN_STEM, len(short_stem) - 1
    ):
        return True
    if language in COMPOUNDING and len(long) >= len(short_stem) + MIN_HEAD:
        # The head of a compound is caught above; its tail inflects as the whole word.
        # The tail's stem against the whole compound's spelling: FOOTBALL stems to "footbal".
        spelled = long.translate(_TURNED) if language == "sv" else long
        return long_stem.endswith(short_stem) or spelled.endswith(short_stem)
    return False


def near_any(word: str, others: list[str], language: str) -> str | None:
    """The first of ``others`` that ``word`` is ``related`` to, if any."""
    return next((other for other in others if related(word, other, language)), None)


class Guard:
    """``related`` against a fixed set of words (a board), for many candidate clues.

    A spymaster weighs thousands of candidates against 25 cards: every rule but the
    compound-tail one needs the two stems to begin alike for ``MIN_STEM`` letters, and
    the tail rule needs one word to end in the other's stem, so an index of stem heads
    and of tails finds the few cards worth the full test.
    """

    def __init__(self, words: list[str], language: str) -> None:
        self.language = language
        self.by_key: dict[str, str] = {}
        self.by_head: dict[str, list[str]] = {}
        self.by_stem: dict[str, list[str]] = {}
        self.by_tail: dict[str, list[str]] = {}
        self.compounding = language in COMPOUNDING
        for word in words:
            spelled = _key(word)
            found = stem(spelled, language)
            self.by_key[spelled] = word
            self.by_head.setdefault(found[:MIN_STEM], []).append(word)
            self.by_stem.setdefault(found, []).append(word)
            if self.compounding:
                for text in {found, spelled.translate(_TURNED) if language == "sv" else spelled}:
                    for start in range(1, len(text) - MIN_STEM + 1):
                        self.by_tail.setdefault(text[start:], []).append(word)

    def near(self, clue: str) -> str | None:
        """The first word ``clue`` is ``related`` to, if any."""
        spelled = _key(clue)
        if spelled in self.by_key:
            return self.by_key[spelled]
        found = stem(spelled, self.language)
        if len(found) < MIN_STEM:
            return None
        worth = list(self.by_head.get(found[:MIN_STEM], ()))
        if self.compounding:
            worth += self.by_tail.get(found, ())
            for text in {found, spelled.translate(_TURNED) if self.language == "sv" else spelled}:
                for start in range(1, len(text) - MIN_STEM + 1):
                    worth += self.by_stem.get(text[start:], ())
        return next((word for word in worth if related(clue, word, self.language)), None)
