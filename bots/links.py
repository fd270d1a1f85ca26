"""Links a player hears that a table's exact entries miss (issue 23, item 2).

People's clues reach a card through a word of a longer entry (GUARDA for *guarda-chuva*,
listed under rain), through a half of a compound (ISBJÖRN's *is*, SNÖGUBBE's *snö*), or
through a verb of the noun listed (COSTURAR for *costura*). These helpers cut words that
way; ``associations.Table`` indexes what they find, fainter than the entries themselves.
All of them take and give comparison keys (``associations.key``: case and accents folded).
"""

from __future__ import annotations

import re

# Separators of a several-word entry: spaces, hyphens and the apostrophe of "l'ou".
_SEPARATOR = re.compile(r"[\s\-\u2010\u2011\u2012\u2013\u2014\u2212'\u2019.]+")
# A word shorter than this says too little on its own ("de", "of", "i").
MIN_PART = 3
# The head of a compound may be shorter, when it is a known word: "is" of isbjörn.
MIN_HEAD = 2
# Derivational endings (folded), longest first per language: infinitives, gerunds,
# participles, agent and action nouns. Not a stemmer: enough that a verb and its noun
# ("costurar", "costura", "costureira") share a root.
ROOT_ENDINGS = {
    "en": ("ations", "ation", "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s", "e", "y"),
    "it": (
        "azione", "zione", "mento", "trice", "tore", "ando", "endo", "are", "ere", "ire",
        "ato", "ata", "ati", "ate", "uto", "ito", "ita", "o", "a", "e", "i",
    ),
    "pt-br": (
        "coes", "cao", "mento", "deira", "deiro", "dora", "dor", "eira", "eiro", "ando", "endo",
        "indo", "ado", "ada", "ido", "ida", "ar", "er", "ir", "os", "as", "es", "o", "a", "e",
    ),
    "ca": (
        "cions", "cio", "ment", "dora", "dor", "aire", "ant", "ent", "ada", "ida", "ar", "er",
        "ir", "re", "at", "it", "es", "s", "o", "a", "e",
    ),
    "sv": (
        "ningar", "ning", "ande", "are", "arna", "erna", "ade", "ar", "er", "or", "at", "en",
        "et", "a", "n",
    ),
}  # fmt: skip
# The shortest root kept: three letters carry a word in English and Swedish ("sew", "sop"),
# the Romance languages need four ("pesc", "nuot").
MIN_ROOT = {"en": 3, "sv": 3}
# English doubles these before an ending ("stirring", "flipped"); "ll" and "ss" stay.
DOUBLED = "bdgmnprt"
# Linking letters between the halves of a compound ("kärleksbrev", "dagsljus").
LINKS = {"sv": ("s", "e", "a")}


def parts(folded: str) -> list[str]:
    """The words of a several-word entry worth indexing on their own; [] for one word."""
    pieces = [piece for piece in _SEPARATOR.split(folded) if piece]
    if len(pieces) < 2:
        return []
    return [piece for piece in pieces if len(piece) >= MIN_PART]


def root(folded: str, language: str) -> str | None:
    """The word with its longest derivational ending cut, or None if too short to tell."""
    shortest = MIN_ROOT.get(language, 4)
    for ending in ROOT_ENDINGS.get(language, ()):
        if folded.endswith(ending) and len(folded) - len(ending) >= shortest:
            cut = folded[: -len(ending)]
            if language == "en" and len(cut) > shortest and cut[-1] == cut[-2] and cut[-1] in DOUBLED:
                return cut[:-1]  # "flipped", "digging": flip, dig
            return cut
    return folded if len(folded) >= shortest else None


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
