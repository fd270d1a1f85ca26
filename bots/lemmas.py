"""Which spellings are one word: the bots' lemma tables, and the rules that read them.

Two words meet when they are spelled alike (case aside), or when a lemma table verifies
that one is an inflection of the other (``gatti`` → ``gatto``, ``flaskor`` → ``flaska``).
Nothing else: an ending stripped blindly lets unrelated words meet (``roder`` is no form
of ``röd``, ``foca`` none of ``foc``), and so does folding an accent that separates two
words (``säng``/``sång``, ``os``/``ós``, ``pelé``/``pele``). A typed clue missing an
accent is read as the one word it can only be ("hjartat" as "hjärtat"); when it is a word
as typed, or two words differ from it by accents alone ("sang": "säng", "sång"), it is
read as typed.

The tables, ``data/lemmas/<lang>.tsv``, are generated once by ``manage.py bots lemmas``
from simplemma's lemma lists (a build-time tool, never needed at run time), restricted
to the words the bots' tables and packs use, their inflections, and every word spelled
like one of those but for its accents. See ``data/lemmas/NOTICE.md``.

This module stands alone (it imports nothing from the bots' other modules), so it can
also judge clues chosen by another version of the matching (``bots collisions``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "data" / "lemmas"
# simplemma's language code for each of the site's languages.
SOURCE_LANGUAGE = {"en": "en", "it": "it", "pt-br": "pt", "ca": "ca", "sv": "sv"}
# Languages that write compounds as one word, inflected on their last part.
COMPOUNDING = {"sv"}
# The shortest part of a compound worth reading as a word of its own.
MIN_PART = 3


def key(text: str) -> str:
    """Comparison form: case folded, accents kept (``säng`` and ``sång`` are two words)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold().strip())


def fold(text: str) -> str:
    """``key`` without accents: only to find which spelling a clue missing one means."""
    if text.isascii():
        return text.casefold().strip()  # most words: nothing to decompose
    decomposed = unicodedata.normalize("NFKD", text.casefold().strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass
class Lexicon:
    """One language's lemma table: every known form and the lemma it inflects."""

    language: str
    lemma_of: dict[str, str] = field(default_factory=dict)
    # fold → the known spellings that fold to it (filled on first use)
    _by_fold: dict[str, set[str]] | None = field(default=None, repr=False)

    def by_fold(self) -> dict[str, set[str]]:
        if self._by_fold is None:
            # Only accented spellings: a clue can only be missing the accents of one of
            # those (an unaccented known spelling is met as typed).
            self._by_fold = spellings_by_fold(s for s in self.lemma_of if not s.isascii())
        return self._by_fold

    def resolve(self, text: str, also_known: Mapping[str, Iterable[str]] | None = None) -> str:
        """The spelling ``text`` stands for: its own when known, else the only known
        spelling that differs from it by accents alone, else its own.

        ``also_known``: more spellings by fold (a table's own words)."""
        spelled = key(text)
        if spelled in self.lemma_of or (
            also_known is not None and spelled in also_known.get(fold(spelled), ())
        ):
            return spelled
        folded = fold(spelled)
        candidates = set(self.by_fold().get(folded, ()))
        if also_known is not None:
            candidates |= set(also_known.get(folded, ()))
        candidates = {c for c in candidates if _lacks_accents_of(spelled, c)}
        return candidates.pop() if len(candidates) == 1 else spelled

    def lemmas(self, spelled: str) -> frozenset[str]:
        """A resolved spelling and its verified lemma: two words meet when these share one."""
        lemma = self.lemma_of.get(spelled)
        return frozenset((spelled,) if lemma is None or lemma == spelled else (spelled, lemma))


def _lacks_accents_of(typed: str, spelled: str) -> bool:
    """Whether ``typed`` is ``spelled`` with some accents left out (none added: a clue
    "pelé" is not the word "pele")."""
    return len(typed) == len(spelled) and all(
        t == s or t == fold(s) for t, s in zip(typed, spelled, strict=True)
    )


def spellings_by_fold(spellings: Iterable[str]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for spelled in spellings:
        found.setdefault(fold(spelled), set()).add(spelled)
    return found


def parse_lexicon(text: str, language: str) -> Lexicon:
    """``lemma<TAB>form form …`` lines; ``#`` lines are comments."""
    lexicon = Lexicon(language)
    lemmas = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lemma, _, rest = line.partition("\t")
        lemmas.append(key(lemma))
        for form in rest.split():
            lexicon.lemma_of[key(form)] = lemmas[-1]
    for lemma in lemmas:
        # A lemma may itself be listed as a form of another ("katt" of "katta"): keep that.
        lexicon.lemma_of.setdefault(lemma, lemma)
    return lexicon


@lru_cache(maxsize=8)
def lexicon(language: str) -> Lexicon:
    """The lemma table of ``language`` (empty when it has none: exact spellings only)."""
    path = FOLDER / f"{language}.tsv"
    if not path.exists():
        return Lexicon(language)
    return parse_lexicon(path.read_text(encoding="utf-8"), language)


def same_word(one: str, other: str, language: str) -> bool:
    """Whether two correctly spelled words are one word, or one inflects the other."""
    table = lexicon(language)
    return bool(table.lemmas(key(one)) & table.lemmas(key(other)))


# --- Build time (``manage.py bots lemmas``) -------------------------------------------


def build(
    vocabulary: Iterable[str],
    dictionary: Mapping[str, str],
    *,
    is_word: Callable[[str], bool] = str.isalpha,
    plurals: Callable[[str], Iterable[str]] = lambda _word: (),
    compounds: bool = False,
) -> dict[str, set[str]]:
    """The lemma table for ``vocabulary`` from a full ``form → lemma`` dictionary.

    Kept: every form whose lemma is a word of the vocabulary or the lemma of one (so a
    player's "gatti" finds the table's "gatto", and the table's "gatti" a player's
    "gatto"), and every form spelled like a kept one but for its accents (so that an
    accent a clue misses is restored only when no other word could be meant).
    Every word of the vocabulary is known (its own lemma when the dictionary lacks it,
    with its ``plurals`` the dictionary lacks too, and with ``compounds`` the forms of
    its head word). Returns lemma → forms.
    """
    lowered: dict[str, str] = {}
    for form, lemma in dictionary.items():
        if not is_word(form) or not is_word(lemma):
            continue
        spelled = key(form)
        # A lower-case entry wins over a capitalised one ("Abete" the name, "abete" the fir).
        if spelled not in lowered or form == spelled:
            lowered[spelled] = key(lemma)
    words = {key(w) for w in vocabulary}
    lemmas = words | {lowered[w] for w in words if w in lowered}
    kept = {form: lemma for form, lemma in lowered.items() if form in lemmas or lemma in lemmas}
    folds = {fold(w) for w in (*kept, *kept.values(), *words)}
    kept.update({form: lemma for form, lemma in lowered.items() if fold(form) in folds})
    table: dict[str, set[str]] = {}
    for form, lemma in kept.items():
        table.setdefault(lemma, set())
        if form != lemma:
            table[lemma].add(form)
    for word in words - kept.keys():
        # Known too, though the dictionary lacks it ("città"): its spelling is a word.
        if is_word(word):
            table.setdefault(word, set())
            # Its regular plural, when the dictionary lacks that too ("noce" → "noci"): a
            # form no other word of the dictionary has, so it cannot make two words meet.
            table[word] |= {p for p in plurals(word) if p not in lowered and p != word}
            if compounds:
                table[word] |= _compound_forms(word, lowered) - lowered.keys()
    return table


def _compound_forms(word: str, lowered: Mapping[str, str]) -> set[str]:
    """A compound the dictionary lacks inflects as its head ("fröställning" as
    "ställning"): the longest final part that is a headword of the dictionary."""
    for cut in range(MIN_PART, len(word) - MIN_PART + 1):
        head = word[cut:]
        if lowered.get(head) == head:
            inflected = {form for form, lemma in lowered.items() if lemma == head and form != head}
            return {word[:cut] + form for form in inflected}
    return set()


def regular_plurals(word: str, language: str) -> set[str]:
    """The plurals the language's regular rules give a noun (no gender, no stripping: a
    base word and an ending, accents kept). Only for words the dictionary lacks."""
    if len(word) < 3 or not word.isalpha():
        return set()
    last = word[-1]
    if language == "it":
        if last == "a":
            return {word[:-2] + {"c": "che", "g": "ghe"}[word[-2]]} if word[-2] in "cg" else {word[:-1] + "e"}
        if word.endswith("io"):
            return {word[:-1]}
        if word[-2:] in ("co", "go"):
            return {word[:-1] + "hi", word[:-1] + "i"}
        return {word[:-1] + "i"} if last in "oe" else set()  # "città", "sport": invariable
    if language == "pt-br":
        if word.endswith("ão"):
            return {word[:-2] + "ões", word[:-2] + "ães", word + "s"}
        if last == "m":
            return {word[:-1] + "ns"}
        if last == "l":
            return {word[:-1] + "is"}
        return {word + "es"} if last in "rzs" else {word + "s"}
    if language == "ca":
        if last == "a":
            stem = word[:-1]
            return {stem[:-1] + {"c": "qu", "g": "gu", "ç": "c", "j": "g"}.get(stem[-1], stem[-1]) + "es"}
        if last in "àéèíóòú":
            return {fold(word) + "ns", word + "s"}
        return {word + "s"}
    if language == "en":
        if last == "y" and word[-2] not in "aeiou":
            return {word[:-1] + "ies"}
        return {word + "es"} if word.endswith(("s", "x", "z", "ch", "sh")) else {word + "s"}
    return set()  # Swedish: plural classes no rule tells apart; the dictionary or nothing


def render(language: str, notice: str, table: Mapping[str, set[str]]) -> str:
    lines = [
        f"# Lemma table: {language}. Built by `manage.py bots lemmas`; do not edit.",
        f"# Source: {notice}",
        "# Format: lemma<TAB>its other forms, space-separated. See NOTICE.md.",
    ]
    lines += [f"{lemma}\t{' '.join(sorted(forms))}".rstrip("\t") for lemma, forms in sorted(table.items())]
    return "\n".join(lines) + "\n"
