"""Links a player hears that a table's exact entries miss (issue 23, item 2).

People's clues reach a card through a word of a longer entry (GUARDA for *guarda-chuva*,
listed under rain), or through a half of a compound (ISBJÖRN's *is*, SNÖGUBBE's *snö*).
These helpers cut words that way; ``associations.Table`` indexes what they find, fainter
than the entries themselves. (A verb of the noun listed, COSTURAR for *costura*, meets it
through the lemma table, ``bots.lemmas``.) They take and give comparison keys
(``bots.lemmas.key``: case folded, accents kept).
"""

from __future__ import annotations

import re

# Separators of a several-word entry: spaces, hyphens and the apostrophe of "l'ou".
_SEPARATOR = re.compile(r"[\s\-\u2010\u2011\u2012\u2013\u2014\u2212'\u2019.]+")
# A word shorter than this says too little on its own ("de", "of", "i").
MIN_PART = 3
# The head of a compound may be shorter, when it is a known word: "is" of isbjörn.
MIN_HEAD = 2
# Linking letters between the halves of a compound ("kärleksbrev", "dagsljus").
LINKS = {"sv": ("s", "e", "a")}


def parts(folded: str) -> list[str]:
    """The words of a several-word entry worth indexing on their own; [] for one word."""
    pieces = [piece for piece in _SEPARATOR.split(folded) if piece]
    if len(pieces) < 2:
        return []
    return [piece for piece in pieces if len(piece) >= MIN_PART]


def halves(folded: str, known: set[str], language: str) -> tuple[str, str] | None:
    """A one-word compound cut into two known words ("snogubbe": "sno", "gubbe"), the most
    even cut when several fit; None when no cut gives two known words."""
    if len(folded) < MIN_HEAD + MIN_PART or not folded.isalpha():
        return None
    best: tuple[str, str] | None = None
    for cut in range(MIN_HEAD, len(folded) - MIN_PART + 1):
        head, tail = folded[:cut], folded[cut:]
        if tail not in known:
            continue
        heads = [head] + [head[: -len(link)] for link in LINKS.get(language, ()) if head.endswith(link)]
        for candidate in heads:
            if len(candidate) >= MIN_HEAD and candidate in known:
                if best is None or min(len(candidate), len(tail)) > min(len(best[0]), len(best[1])):
                    best = (candidate, tail)
    return best
