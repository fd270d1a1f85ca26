"""The generated association layer: clue candidates for every pack word, from open lexical
sources, built once by ``manage.py bots build`` and committed as ``data/generated/<lang>.tsv``.

Sources (Debian packages and PyPI wheels, never fetched at run time):

- the LibreOffice thesauri (MyThes, Debian ``mythes-<lang>``): synonyms per sense and,
  for English (built from WordNet 3.0), broader, similar, related and opposite terms;
- ``wordfreq``: how common a candidate is; rare words and rare senses are dropped;
- ``simplemma``: the lemma of a pack word the thesaurus lists only in its base form.

The authored layer (``data/codenames``, ``data/decrypto``) comes first; this one only
adds weaker links below it. A ``!word`` in an authored line removes a generated link
(a rare sense no player would think of).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from bots.associations import key

# Where Debian installs each language's thesaurus, and the notice its data carries.
MYTHES = Path("/usr/share/mythes")
SOURCES = {
    "en": (
        "th_en_US_v2.dat",
        "MyThes English thesaurus (Debian mythes-en-us), built from Princeton WordNet 3.0."
        " WordNet 3.0 Copyright 2006 by Princeton University. Licence: the WordNet 3.0 licence"
        " (use, copy, modify and distribute with this notice; see NOTICE.md).",
    ),
    "it": (
        "th_it_IT_v2.dat",
        "Thesaurus of the Italian Writing Aids (Debian mythes-it), (C) 2001-2022 LibreItalia,"
        " PLIO and the OpenOffice.org community. Licence: GPL-3.0-or-later; this derived"
        " list is distributed under the same licence.",
    ),
    "pt-br": (
        "th_pt_BR.dat",
        "Brazilian Portuguese thesaurus (Debian mythes-pt-br), (C) 2006-2013 Raimundo Santos"
        " Moura. Licence: LGPL-3.0 or MPL; this derived list under LGPL-3.0.",
    ),
    "ca": (
        "th_ca_ES_v3.dat",
        "Catalan thesaurus (Debian mythes-ca), (C) 2009 Joan Montané, Softcatalà."
        " Licence: LGPL-3.0-or-later or GPL-3.0-or-later; this derived list under LGPL-3.0.",
    ),
    "sv": (
        "th_sv_SE_v2.dat",
        "Swedish synonym list (Debian mythes-sv), (C) 2009 Viggo Kann (KTH). Used and copied"
        " under its licence (its permission notice, see NOTICE.md); MODIFIED for this project"
        " (filtered and weighted).",
    ),
}
# A candidate rarer than this (wordfreq's Zipf scale: 3 = once per million words) is a
# word few players know, or the trace of a rare sense.
RARE = 2.8
KEEP = 20
# Generated links weigh less than every authored one (the authored floor is 0.4).
WEIGHTS = {"synonym": 0.38, "broader": 0.32, "similar": 0.3, "related": 0.3, "opposite": 0.25}
LATER_SENSE = 0.85
RELATIONS = {
    "(generic term)": "broader",
    "(similar term)": "similar",
    "(related term)": "related",
    "(antonym)": "opposite",
}


@dataclass(frozen=True)
class Candidate:
    word: str
    weight: float
    relation: str


def read_mythes(path: Path) -> dict[str, list[list[tuple[str, str]]]]:
    """A MyThes ``.dat`` file: headword key → senses → (term, relation)."""
    raw = path.read_bytes()
    first, _, _ = raw.partition(b"\n")
    text = raw.decode(first.decode("ascii").strip() or "utf-8", errors="replace")
    return parse_mythes(text)


def parse_mythes(text: str) -> dict[str, list[list[tuple[str, str]]]]:
    lines = text.splitlines()[1:]  # the first line names the encoding
    found: dict[str, list[list[tuple[str, str]]]] = {}
    index = 0
    while index < len(lines):
        head, _, count = lines[index].rpartition("|")
        index += 1
        if not head or not count.isdigit():
            continue
        senses = []
        for line in lines[index : index + int(count)]:
            terms = []
            for term in line.split("|")[1:]:  # the first field is the part of speech
                relation = "synonym"
                for marker, name in RELATIONS.items():
                    if term.endswith(marker):
                        term, relation = term[: -len(marker)], name
                terms.append((term.strip(), relation))
            senses.append(terms)
        index += int(count)
        found.setdefault(key(head), []).extend(senses)
    return found


def candidates(
    word: str,
    thesaurus: dict[str, list[list[tuple[str, str]]]],
    *,
    lemma: Callable[[str], str],
    zipf: Callable[[str], float],
) -> list[Candidate]:
    """The generated clue candidates of one pack word, strongest first."""
    senses = thesaurus.get(key(word)) or thesaurus.get(key(lemma(word))) or []
    own = key(word)
    best: dict[str, Candidate] = {}
    for number, sense in enumerate(senses):
        for term, relation in sense:
            folded = key(term)
            if (
                len(term) < 3
                or not re.fullmatch(r"[^\W\d_]+", term)  # one plain word: a legal one-word clue
                or folded == own
                or own in folded
                or folded in own
                or zipf(term) < RARE
            ):
                continue
            weight = WEIGHTS[relation] * (1.0 if number == 0 else LATER_SENSE)
            if folded not in best or weight > best[folded].weight:
                best[folded] = Candidate(
                    term.lower() if not term.isupper() else term, round(weight, 2), relation
                )
    ranked = sorted(best.values(), key=lambda c: (-c.weight, -zipf(c.word), c.word))
    return ranked[:KEEP]


def render(language: str, notice: str, rows: Iterable[tuple[str, list[Candidate]]]) -> str:
    lines = [
        f"# Generated association layer: {language}. Built by `manage.py bots build`; do not edit.",
        f"# Source: {notice}",
        "# Filtered by wordfreq (Apache-2.0 code; CC BY-SA 4.0 data, frequencies only) and",
        "# lemmatised with simplemma (MIT). Format: pack word<TAB>candidate|weight|relation; …",
    ]
    for word, found in rows:
        if found:
            lines.append(f"{word}\t" + "; ".join(f"{c.word}|{c.weight}|{c.relation}" for c in found))
    return "\n".join(lines) + "\n"
