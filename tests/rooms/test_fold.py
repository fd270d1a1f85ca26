"""The browser folds typed clues as the engines do (Python's casefold), word by word.

The clue checks compare what a player types against forms the server folded
(``folded_words``, ``taken``); the typed side is folded by ``fold`` in static/js/ui.js,
run here in Debian's Chromium exactly as served.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from codenames.engine.clues import fold

UI_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "ui.js"
# Words of the site's languages and the usual traps of case folding.
WORDS = [
    "Straße", "STRASSE", "ẞ", "ΣΟΦΌΣ", "σοφός", "ﬁsh", "Ǆemal", "ǅ", "İstanbul", "ISTANBUL", "Ærø",
    "ÓPERA", "Opera", "Café", "Cafe\u0301", "Ĳssel", "Ꞵ", "Ω", "KELVIN", "\u212a", "ŉ", "ΐ",
]  # fmt: skip
# Where upper-then-lower case is not casefold: Cherokee (casefold maps to the capitals).
KNOWN_APART = ["ꭰ", "ᏸ"]


@pytest.mark.browser
def test_the_browser_folds_like_python_casefold(browser: Any) -> None:
    source = UI_JS.read_text("utf-8")
    line = re.search(r"^export const fold = .*;$", source, flags=re.M)
    assert line, "ui.js defines fold on one line"
    page = browser.new_page()
    try:
        folded = page.evaluate(
            f"(words) => {{ {line.group(0).removeprefix('export ')} return words.map(fold); }}",
            WORDS + KNOWN_APART,
        )
    finally:
        page.close()
    python = [fold(word) for word in WORDS + KNOWN_APART]
    agree = dict(zip(WORDS + KNOWN_APART, [a == b for a, b in zip(folded, python, strict=True)], strict=True))
    assert [w for w in WORDS if not agree[w]] == []
    assert [w for w in KNOWN_APART if agree[w]] == []
    assert unicodedata.is_normalized("NFC", "".join(folded))
