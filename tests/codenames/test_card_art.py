"""Issue 30's cards, motion and sound in a real browser.

The art of a card's identity is drawn from the classes the board already had (``id-…``
only where the server sent the identity), so an operative's unrevealed cards carry none of
it; a reveal flips, a deal arrives and a win is cheered only on a live change, and never
on a reduced-motion screen; the room bar's sound switch is remembered across a reload (a
TV's separately, off until unmuted there).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bench.scenes import (
    CARD_READY,
    CN_OPERATIVE,
    CN_STANDARD,
    PHONE,
    CodenamesRoom,
    Scene,
    build_scene,
    in_thread,
    open_scene,
)
from tests.conftest import DaphneServer, close_and_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
_NUMBERS = itertools.count(1)

# Per card: its classes, its data attributes, and whether its painted background holds art.
_CARDS_JS = """() => [...document.querySelectorAll(".board .card")].map((c) => ({
  classes: [...c.classList], data: Object.keys(c.dataset),
  art: getComputedStyle(c).backgroundImage.includes("svg"),
  sym: (c.querySelector(".sym") || {}).textContent || "" }))"""


def _open(browser: Any, server: DaphneServer, name: str, **options: Any) -> tuple[Any, Any, Any]:
    scene = in_thread(lambda: build_scene(name, "en", suffix=f"art{next(_NUMBERS)}"))
    size = {**PHONE, **options}
    context, page = open_scene(browser, server.url, scene, size, lambda page: None)
    return scene, context, page


def test_cn_s1_an_operative_sees_identity_art_only_on_covered_cards(
    browser: Any, daphne_server: DaphneServer
) -> None:
    scene, context, page = _open(browser, daphne_server, "codenames-operative-guess")
    cards = page.evaluate(_CARDS_JS)
    spy_scene, spy_context, spy_page = _open(browser, daphne_server, "codenames-spymaster-clue")
    key = spy_page.evaluate(_CARDS_JS)
    close_and_settle(lambda: (context.close(), spy_context.close()), [scene.slug, spy_scene.slug])
    covered = [c for c in cards if "covered" in c["classes"]]
    hidden = [c for c in cards if "covered" not in c["classes"]]
    assert covered and len(hidden) > 10
    # Unrevealed: no identity class, no art, nothing but the position and the word as data.
    for card in hidden:
        assert not [k for k in card["classes"] if k.startswith("id-") or k == "keyed"], card
        assert not card["art"], card
        assert sorted(card["data"]) == ["position", "word"], card
    # Covered: the drawn art, with the colour-blind symbol still on the card.
    for card in covered:
        assert card["art"] and card["sym"].strip(), card
    # The control: the spymaster's own key carries identities (tinted, not drawn).
    assert sum("keyed" in c["classes"] for c in key) > 10


def _reveal_animation(page: Any) -> str:
    """Confirm the operative's proposal; the newly covered card's animation name."""
    page.click("#confirm-guess")
    handle = page.wait_for_function(
        """() => { const c = document.querySelector(".board .card.covered.reveal");
                   return c && getComputedStyle(c).animationName; }"""
    )
    return str(handle.json_value())


def test_a_reveal_flips_live_and_not_on_load(browser: Any, daphne_server: DaphneServer) -> None:
    scene, context, page = _open(browser, daphne_server, "codenames-operative-guess")
    # The covered cards of the board as loaded do not move (a load or a resync stays still).
    on_load = page.evaluate(
        "() => [...document.querySelectorAll('.board .card')].map((c) => getComputedStyle(c).animationName)"
    )
    name = _reveal_animation(page)
    duration = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.board .card.reveal')).animationDuration)"
    )
    close_and_settle(context.close, [scene.slug])
    assert set(on_load) == {"none"}
    assert name == "cn-flip"
    assert 0 < duration <= 0.45


def test_reduced_motion_turns_the_reveal_and_the_deal_off(browser: Any, daphne_server: DaphneServer) -> None:
    scene, context, page = _open(browser, daphne_server, "codenames-operative-guess", reduced_motion="reduce")
    name = _reveal_animation(page)
    close_and_settle(context.close, [scene.slug])
    assert name == "none"
    for motion, expected in (("reduce", "none"), ("no-preference", "cn-deal")):
        scene, context, page = _open(browser, daphne_server, "codenames-game-over", reduced_motion=motion)
        page.click("#next-game")
        handle = page.wait_for_function(
            """() => { const cards = document.querySelectorAll(".board.dealing .card");
                       if (cards.length !== 25) return null;
                       const last = getComputedStyle(cards[24]);
                       const ends = parseFloat(last.animationDelay) + parseFloat(last.animationDuration);
                       return [last.animationName, ends]; }"""
        )
        name, ends = handle.json_value()
        close_and_settle(context.close, [scene.slug])
        assert name == expected, motion
        # The whole deal is done within a second (the last card's delay and its own run).
        assert ends <= 1.0, ends


# Counts the tones sound.js starts, so a test hears whether a cue played.
_COUNT_TONES = """
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__tones += 1; return start.apply(this, args); };
"""


def _cue(page: Any) -> int:
    """Play a cue after a gesture (a key press); the tones started."""
    page.keyboard.press("Shift")
    page.evaluate(
        "() => { window.__tones = 0; document.dispatchEvent(new CustomEvent('wordrooms:sound', "
        "{ detail: { name: 'reveal-own' } })); }"
    )
    return int(page.evaluate("() => window.__tones"))


@pytest.mark.parametrize(
    ("name", "first"), [("codenames-operative-guess", "true"), ("codenames-table", "false")]
)
def test_the_sound_switch_is_remembered_across_a_reload(
    browser: Any, daphne_server: DaphneServer, name: str, first: str
) -> None:
    """On by default on a phone, off by default on a TV; either way a press is remembered."""
    scene, context, page = _open(browser, daphne_server, name)
    page.add_init_script(_COUNT_TONES)
    page.reload()
    page.wait_for_selector("#conn[data-state='open']")
    toggle = page.locator("#sound-toggle")
    pressed = [toggle.get_attribute("aria-pressed")]
    tones = [_cue(page)]
    toggle.click()
    page.reload()
    page.wait_for_selector("#conn[data-state='open']")
    pressed.append(toggle.get_attribute("aria-pressed"))
    tones.append(_cue(page))
    name_text = toggle.evaluate("(b) => b.textContent.trim()")
    close_and_settle(context.close, [scene.slug])
    second = "false" if first == "true" else "true"
    assert pressed == [first, second]
    # A cue plays exactly when the switch says sound is on.
    assert [t > 0 for t in tones] == [first == "true", second == "true"], tones
    assert name_text == "Sound"


def _one_agent_from_a_win(slug: str) -> tuple[Any, Scene, int]:
    """A room where the first team's operative has one agent left to find, under a clue
    of ∞; the scene is that operative's phone."""
    room = CodenamesRoom(slug, "en", CN_STANDARD)
    first, _second = room.opening()
    room.clue(None)
    *found, last = room.agents(first)
    for position in found:
        room.guess(position)
    return room, room.scene("codenames-win-ahead", CN_OPERATIVE[first], (), CARD_READY), last


@pytest.mark.parametrize(("motion", "expected"), [("no-preference", "cn-win"), ("reduce", "none")])
def test_a_game_won_live_is_cheered_unless_motion_is_reduced(
    browser: Any, daphne_server: DaphneServer, motion: str, expected: str
) -> None:
    room, scene, last = in_thread(lambda: _one_agent_from_a_win(f"cn-win-ahead-{next(_NUMBERS)}"))
    context, page = open_scene(
        browser, daphne_server.url, scene, {**PHONE, "reduced_motion": motion}, lambda p: None
    )
    cheered_on_load = page.locator(".status.celebrate").count()
    in_thread(lambda: room.guess(last))
    handle = page.wait_for_function(
        """() => { const s = document.querySelector(".status.over");
                   return s && [s.classList.contains("celebrate"), getComputedStyle(s).animationName]; }"""
    )
    celebrate, name = handle.json_value()
    close_and_settle(context.close, [scene.slug])
    assert cheered_on_load == 0
    assert celebrate and name == expected
