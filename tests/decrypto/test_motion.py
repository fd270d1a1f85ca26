"""Decrypto's motion and sound cues (issue 30): a won token drops into its tray, the
reveal's code flips up, each with a sound cue for static/js/sound.js; under
prefers-reduced-motion the same changes happen with no animation at all."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bench.scenes import DC_STANDARD, LAPTOP, _dc_guessing, _dc_midgame, in_thread, open_scene
from tests.conftest import close_and_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_ROOMS = itertools.count(1)
# The page records every cue it dispatches, from its first script on.
RECORD_CUES = """
window.__cues = [];
document.addEventListener("wordrooms:sound", (event) => window.__cues.push(event.detail.name));
"""
ANIMATIONS = """() => {
  const chip = document.querySelector(".dc-chip-new");
  const code = document.querySelector(".dc-fresh .dc-step-code .dc-code-text");
  const name = (el) => el && getComputedStyle(el).animationName;
  return { chip: name(chip), code: name(code), team: chip && chip.closest(".dc-score").dataset.team };
}"""


@pytest.mark.parametrize(
    ("motion", "chip", "code"), [("no-preference", "dc-drop", "dc-flip"), ("reduce", "none", "none")]
)
def test_a_token_won_live_drops_in_with_its_cue_and_reduced_motion_stills_it(
    browser: Any, daphne_server: Any, motion: str, chip: str, code: str
) -> None:
    slug = f"dc-motion-{motion}-{next(_ROOMS)}"
    room = in_thread(lambda: _dc_guessing(slug, "en"))
    viewer = in_thread(lambda: room.member("black"))
    scene = room.scene("decrypto-intercept", viewer, ("#dc-lock-guess",), "#dc-lock-guess")
    context, page = open_scene(
        browser, daphne_server.url, scene, LAPTOP, lambda p: p.add_init_script(RECORD_CUES)
    )
    try:
        page.emulate_media(reduced_motion=motion)
        # Opening the page is no live change: no cue, no chip dropping in.
        assert page.evaluate("window.__cues") == []
        assert page.locator(".dc-chip-new").count() == 0
        in_thread(lambda: room.lock("black", True))  # Black intercepts White's code...
        in_thread(lambda: room.lock("white", True))  # ...and the reveal gives Black its token
        page.wait_for_selector(".dc-chip-new", state="attached")
        found = page.evaluate(ANIMATIONS)
        assert found == {"chip": chip, "code": code, "team": "black"}
        assert "token" in page.evaluate("window.__cues")
    finally:
        close_and_settle(context.close, [slug])


def test_the_clues_arriving_live_cue_clue_for_a_player_who_must_intercept(
    browser: Any, daphne_server: Any
) -> None:
    slug = f"dc-motion-clue-{next(_ROOMS)}"
    room = in_thread(lambda: _dc_midgame(slug, "en"))
    encryptor = in_thread(lambda: room.encryptor("black"))
    viewer = next(name for name, team, _role in DC_STANDARD if team == "black" and name != encryptor)
    scene = room.scene("decrypto-clues", viewer, (), ".dc-game")
    context, page = open_scene(
        browser, daphne_server.url, scene, LAPTOP, lambda p: p.add_init_script(RECORD_CUES)
    )
    try:
        assert page.evaluate("window.__cues") == []
        in_thread(room.submit_all)  # both Encryptors send: White's clues are guessed first
        page.wait_for_selector("#dc-lock-guess")
        page.wait_for_function("window.__cues.length > 0")
        assert page.evaluate("window.__cues") == ["clue"]
    finally:
        close_and_settle(context.close, [slug])
