"""Word packs: UTF-8 text files, one entry per line, ``#`` starts a comment line."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

PACK_LANGUAGES = ("en", "it", "pt-br", "ca", "sv")


def fold(word: str) -> str:
    """The form two entries are compared in: NFC, case-folded (accents kept)."""
    return unicodedata.normalize("NFC", word).casefold()


def parse_words(text: str) -> list[str]:
    """Distinct entries of a pack's text, first spelling kept, in file order."""
    seen: dict[str, str] = {}
    for line in text.splitlines():
        entry = unicodedata.normalize("NFC", " ".join(line.split()))
        if entry and not entry.startswith("#") and fold(entry) not in seen:
            seen[fold(entry)] = entry
    return list(seen.values())


@lru_cache(maxsize=32)
def load_pack(folder: str, language: str) -> tuple[str, ...]:
    """The pack of ``language`` in ``folder`` (an app's ``words/``), English if it has none."""
    base = Path(folder)
    path = base / f"{language}.txt"
    if not path.exists():
        path = base / "en.txt"
    return tuple(parse_words(path.read_text(encoding="utf-8")))


def fresh_words(pack: tuple[str, ...], used_by_game: list[list[str]], needed: int) -> list[str]:
    """The pack minus the words of recent games, newest first, until the pack runs out.

    Older games stop counting once leaving their words out would leave fewer than
    ``needed``: then the pack starts over rather than failing.
    """
    used: set[str] = set()
    for words in used_by_game:
        folded = {fold(w) for w in words}
        if len([w for w in pack if fold(w) not in used | folded]) < needed:
            break
        used |= folded
    return [w for w in pack if fold(w) not in used]


# Limits on a room's own words: enough for a long evening, small enough for one frame.
OWN_WORDS_MAX = 500
WORD_MODES = ("pack", "own", "mixed")


def parse_own_words(text: str, *, max_length: int, spaces: bool) -> list[str]:
    """A pasted list (one per line, or separated by commas), checked; raises ValueError."""
    entries = parse_words(text.replace(",", "\n").replace(";", "\n"))
    for entry in entries:
        if len(entry) > max_length:
            raise ValueError(f"too_long:{entry[:40]}")
        if not spaces and (" " in entry or "-" in entry):
            raise ValueError(f"has_space:{entry[:40]}")
        if any(unicodedata.category(ch).startswith("C") for ch in entry):
            raise ValueError(f"bad_character:{entry[:40]}")
    if len(entries) > OWN_WORDS_MAX:
        raise ValueError("too_many")
    return entries


def room_word_list(options: dict[str, object], pack: tuple[str, ...]) -> tuple[str, ...]:
    """The words a room deals from: its pack, its own words, or both (own words first)."""
    own = tuple(str(w) for w in options.get("list", []) or [])  # type: ignore[union-attr]
    mode = options.get("mode", "pack")
    if mode == "own" and own:
        return own
    if mode == "mixed" and own:
        return tuple(parse_words("\n".join(own + pack)))
    return pack
