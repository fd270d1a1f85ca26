"""The automatic clue checks of CN-9, CN-10 and CN-26.

Only spelling is judged here; meaning (rhymes, translations, CN-29) is left to the
opposing spymaster's challenge (CN-20).
"""

from __future__ import annotations

import re
import unicodedata

from .model import RuleError, State

# Hyphen-like characters a keyboard or an autocorrect may produce.
HYPHENS = "-\u2010\u2011\u2012\u2013\u2014\u2212"
_PART_SEPARATOR = re.compile(f"[\\s{re.escape(HYPHENS)}]+")
# Containment only counts between words this long, so short words ("a", "in") don't block everything.
COMPOUND_MIN_LENGTH = 3


def fold(text: str) -> str:
    """Comparison form: case-insensitive and NFC-normalised, but accents kept (ÓPERA ≠ OPERA)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def tidy_clue(word: str) -> str:
    """The clue as it will be shown: NFC, trimmed, inner whitespace runs made one space."""
    return " ".join(unicodedata.normalize("NFC", word).split())


def check_clue(state: State, word: str) -> str:
    """Return the tidied clue, or raise RuleError if CN-10 forbids it on this board."""
    clue = tidy_clue(word)
    if not clue:
        raise RuleError("clue_empty", "The clue is empty.")
    if any(unicodedata.category(char).startswith("C") for char in clue):
        # Invisible or control characters could slip a board word past the checks below.
        raise RuleError("clue_bad_character", "The clue contains an invisible or control character.")
    if not state.rules.multi_word_clues:
        if " " in clue:
            raise RuleError("clue_has_space", "The clue must be a single word.", {"clue": clue})
        if any(char in HYPHENS for char in clue):
            raise RuleError(
                "clue_has_hyphen", "The clue must be a single word, without hyphens.", {"clue": clue}
            )
    _check_against_board(state, clue)
    return clue


def _clue_parts(clue: str, multi_word: bool) -> list[str]:
    parts = [fold(clue)]
    if multi_word:
        # CN-26: every word of a multi-word clue is still checked on its own.
        parts += [fold(part) for part in _PART_SEPARATOR.split(clue) if part]
    return list(dict.fromkeys(parts))


def _check_against_board(state: State, clue: str) -> None:
    # CN-9: covered words are legal clues again, so only visible codenames count.
    visible = [word for word, by in zip(state.words, state.covered_by, strict=True) if by is None]
    conflict = board_conflict(clue, visible, multi_word=state.rules.multi_word_clues)
    if conflict is None:
        return
    code, word = conflict
    if code == "clue_on_board":
        raise RuleError(
            code, f"The clue is a codename on the board ({word}).", {"clue": clue, "codename": word}
        )
    raise RuleError(
        code, f"The clue and the codename {word} contain one another.", {"clue": clue, "codename": word}
    )


def board_conflict(clue: str, visible: list[str], *, multi_word: bool) -> tuple[str, str] | None:
    """CN-10 against the visible codenames: ``(error code, codename)``, or None if legal.

    Shared by the engine and anyone choosing a clue (the bots), so both judge alike.
    """
    parts = _clue_parts(clue, multi_word)
    folded = [(word, fold(word)) for word in visible]
    for word, form in folded:
        if form in parts:
            return "clue_on_board", word
    for word, form in folded:
        if any(_contains(part, form) for part in parts):
            return "clue_contains_word", word
    return None


def _contains(part: str, codename: str) -> bool:
    if min(len(part), len(codename)) < COMPOUND_MIN_LENGTH:
        return False
    return part in codename or codename in part
