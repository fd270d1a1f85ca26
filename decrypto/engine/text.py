"""How the engine compares words typed by people."""

from __future__ import annotations

import unicodedata


def tidy(text: str) -> str:
    """Trim and collapse runs of whitespace: what players typed, as stored."""
    return " ".join(text.split())


def clue_key(text: str) -> str:
    """Case-insensitive, Unicode-normalised form for the clue checks (DC-17).

    NFC first so that an "é" typed as e + combining accent equals the single
    character; accents still matter here ("pâte" is not "pate").
    """
    return tidy(unicodedata.normalize("NFC", text)).casefold()


def loose_key(text: str) -> str:
    """Case- and accent-insensitive form for keyword guesses (DC-25)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return tidy(bare).casefold()
