"""The browser's applyPatch (static/js/patch.js) and rooms.patch.apply agree, case by case.

Both read the same vectors (tests/rooms/patch_vectors.json); the browser's is run in
Debian's Chromium, as a page runs it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rooms.patch import apply, diff

VECTORS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "patch_vectors.json").read_text("utf-8"))
PATCH_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "patch.js"


@pytest.mark.parametrize("case", VECTORS, ids=[case["name"] for case in VECTORS])
def test_python_apply_matches_every_vector(case: dict[str, Any]) -> None:
    before = copy.deepcopy(case["before"])
    assert apply(case["before"], case["ops"]) == case["after"]
    assert case["before"] == before  # the held state itself is never changed


@pytest.mark.parametrize("case", VECTORS, ids=[case["name"] for case in VECTORS])
def test_diff_of_each_vector_round_trips(case: dict[str, Any]) -> None:
    assert apply(case["before"], diff(case["before"], case["after"])) == case["after"]


@pytest.mark.browser
def test_browser_apply_patch_matches_every_vector(browser: Any) -> None:
    page = browser.new_page()
    try:
        # The module exactly as served, made reachable from the test.
        page.add_script_tag(
            type="module", content=PATCH_JS.read_text("utf-8") + "\nwindow.applyPatch = applyPatch;"
        )
        page.wait_for_function("typeof window.applyPatch === 'function'")
        results = page.evaluate(
            """(vectors) => vectors.map((v) => {
                 const before = JSON.stringify(v.before);
                 const after = window.applyPatch(v.before, v.ops);
                 return {after, untouched: JSON.stringify(v.before) === before};
               })""",
            VECTORS,
        )
    finally:
        page.close()
    for case, result in zip(VECTORS, results, strict=True):
        assert result["after"] == case["after"], case["name"]
        assert result["untouched"], case["name"]


def test_unknown_operation_is_refused() -> None:
    with pytest.raises(ValueError):
        apply({"a": 1}, [["move", ["a"], 2]])
