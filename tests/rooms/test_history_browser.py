"""Replays in real browsers (issue 22): a finished Codenames game and a finished Decrypto
game of one room, stepped with the keys, the buttons and the slider on a phone, a
laptop and a TV, with no page error, no sideways scrolling and no serious axe violation.
Read on a phone and a TV (issue 29): every card's word inside its card in every language,
Decrypto's sheet stacked on a phone, one screen on a TV with 24 px text at 1080, in the
game's words and colours (wrong guesses struck, an interception a token won)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.scenes import SIZES as SCENE_SIZES
from bench.scenes import TV_SIZES, build_scene, in_thread, open_scene
from tests.rooms.test_history import _bots_play, _bots_to_decrypto, codenames_room
from tests.test_screens import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (360, 740), "laptop": (1280, 800), "tv": (1920, 1080)}


@pytest.fixture
def kept_room(browser: Any) -> str:
    slug = "replayed"

    def build() -> None:
        codenames_room(slug)
        _bots_play(slug)
        _bots_to_decrypto(slug)
        _bots_play(slug)

    in_thread(build)
    return slug


def _open(open_page: Any, url: str, size: str) -> tuple[Any, list[str]]:
    width, height = SIZES[size]
    page = open_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("#replay-board > *")
    return page, errors


def _step(page: Any) -> tuple[str, str]:
    return page.inner_text("#replay-count"), page.inner_text("#replay-label")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_codenames_replay_steps_through_every_move(
    kept_room: str, daphne_server: Any, open_page: Any, size: str
) -> None:
    page, errors = _open(open_page, f"{daphne_server.url}/r/{kept_room}/games/1/", size)
    total = int(page.get_attribute("#replay-slider", "max")) + 1
    assert _step(page)[0] == f"1 / {total}"
    assert page.locator(".replay-cn .board .card").count() == 25
    assert page.locator(".replay-cn .card.covered").count() == 0  # the deal: nothing covered yet
    page.keyboard.press("ArrowRight")
    count, label = _step(page)
    assert count == f"2 / {total}" and label
    page.click("#replay-next")
    assert _step(page)[0] == f"3 / {total}"
    page.keyboard.press("End")
    assert _step(page)[0] == f"{total} / {total}"
    assert page.locator(".replay-cn .card.covered").count() >= 9  # a team found all its agents
    assert "wins" in page.inner_text(".replay-cn .status")
    assert page.is_disabled("#replay-next") and page.is_enabled("#replay-prev")
    page.locator("#replay-slider").fill("1")
    assert _step(page)[0] == f"2 / {total}"
    page.keyboard.press("Home")
    assert _step(page)[0] == f"1 / {total}"
    width = SIZES[size][0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not errors
    if size == "phone":
        assert not axe_violations(page)


def test_a_decrypto_replay_and_the_room_history_read_well(
    kept_room: str, daphne_server: Any, open_page: Any
) -> None:
    page, errors = _open(open_page, f"{daphne_server.url}/r/{kept_room}/games/2/", "phone")
    total = int(page.get_attribute("#replay-slider", "max")) + 1
    keywords = page.locator(".replay-keywords li").all_inner_texts()
    assert len(keywords) == 8 and all(keywords)
    assert page.locator(".replay-sheet").count() == 0  # nothing revealed at the deal
    page.keyboard.press("End")
    assert _step(page)[0] == f"{total} / {total}"
    assert page.locator(".replay-sheet tbody tr").count() >= 2
    # The list of every step goes to a step too.
    page.click(".replay-steps summary")
    page.click('.replay-goto[data-frame="1"]')
    assert _step(page)[0] == f"2 / {total}"
    assert "Encryptor" in _step(page)[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not errors and not axe_violations(page)

    page.goto(f"{daphne_server.url}/r/{kept_room}/games/")
    assert page.locator(".history-game").count() == 2
    assert not axe_violations(page)
    page.click('#game-1 a:has-text("Replay")')
    page.wait_for_selector("#replay-board > *")
    assert "/games/1/" in page.url


# ---- read on a phone and on a TV (issue 29) ------------------------------------------------

LANGUAGES = ["en", "it", "pt-br", "ca", "sv"]

# Each card's word: its font size and whether its text (as drawn, narrowed or not) lies
# inside its card.
CARD_WORDS = """() => [...document.querySelectorAll(".replay-cn .board .card")].map((card) => {
  const word = card.querySelector(".word");
  const range = document.createRange();
  range.selectNodeContents(word);
  const t = range.getBoundingClientRect(), c = card.getBoundingClientRect();
  return { word: word.textContent, size: parseFloat(getComputedStyle(word).fontSize),
    inside: t.width > 0 && t.left >= c.left - 0.5 && t.right <= c.right + 0.5
      && t.top >= c.top - 0.5 && t.bottom <= c.bottom + 0.5 };
})"""
# A colour of the stylesheet's, as the browser computes it.
COLOUR = """(name) => {
  const probe = document.createElement("span");
  probe.style.color = `var(${name})`;
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}"""


def _replay(browser: Any, server: Any, scene: Any, size: str) -> tuple[Any, Any, list[str]]:
    context, page = open_scene(browser, server.url, scene, SCENE_SIZES[size])
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _scrolls(page: Any) -> dict[str, int]:
    return page.evaluate(
        """() => { const s = document.scrollingElement;
        return { width: s.scrollWidth, height: s.scrollHeight, innerWidth, innerHeight }; }"""
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_codenames_replay_word_fits_its_card_on_a_phone(
    browser: Any, daphne_server: Any, language: str
) -> None:
    """The pack's 25 longest words, at 360 px: each inside its card, none below 12 px; the
    game's words, a wrong guess struck."""
    scene = in_thread(lambda: build_scene("codenames-replay", language, "fit"))
    context, page, errors = _replay(browser, daphne_server, scene, "phone")
    try:
        words = page.evaluate(CARD_WORDS)
        assert len(words) == 25
        assert [w["word"] for w in words if not w["inside"]] == []
        assert min(w["size"] for w in words) >= 12, words
        # A bystander touched under a clue is a wrong guess: struck, as in the live clue log.
        wrong = page.locator(".clue-log .g-wrong").first
        assert "line-through" in wrong.evaluate("(el) => getComputedStyle(el).textDecorationLine")
        assert _scrolls(page)["width"] <= 360
        assert not errors
        if language == "en":
            # The game's own words: its agents were found, not "covered".
            assert "found" in page.inner_text(".replay-cn .status")
            assert not axe_violations(page)
    finally:
        context.close()


def test_a_decrypto_replay_stacks_its_sheet_on_a_phone_in_the_games_colours(
    browser: Any, daphne_server: Any
) -> None:
    scene = in_thread(lambda: build_scene("decrypto-replay", "en", "phone"))
    context, page, errors = _replay(browser, daphne_server, scene, "phone")
    try:
        assert _scrolls(page)["width"] <= 360
        # Every round's own guess is on screen, not beyond a sideways scroll.
        cells = page.evaluate(
            """() => [...document.querySelectorAll(".replay-sheet td.own-guess")].map((td) => {
              const r = td.getBoundingClientRect();
              return { text: td.innerText, shown: r.width > 0 && r.left >= 0 && r.right <= innerWidth };
            })"""
        )
        assert len(cells) == 12 and all(cell["shown"] and cell["text"] for cell in cells), cells
        # Black misread its code in round 5: its guess struck, beside the ✘ of the game.
        wrong = page.locator(".replay-guess.decipher.wrong .replay-code")
        assert wrong.count() == 1
        assert "line-through" in wrong.evaluate("(el) => getComputedStyle(el).textDecorationLine")
        # White's interceptions are tokens won: the game's ✔ colour, not the error's.
        caught = page.locator(".replay-guess.intercept.right")
        assert caught.count() == 2
        colour = caught.first.evaluate("(el) => getComputedStyle(el).color")
        assert colour != page.evaluate(COLOUR, "--danger")
        assert colour == page.evaluate(COLOUR, "--ok")
        assert not errors and not axe_violations(page)
    finally:
        context.close()


@pytest.mark.parametrize("name", ["codenames-replay", "decrypto-replay"])
def test_a_replay_fits_a_tv_without_scrolling(browser: Any, daphne_server: Any, name: str) -> None:
    """1920×1080 and 1280×720: one screen, no scroll; at 1080 the board's words, the clue
    log and the sheets read at 24 px or more."""
    scene = in_thread(lambda: build_scene(name, "en", "tv"))
    for size in TV_SIZES:
        context, page, errors = _replay(browser, daphne_server, scene, size)
        try:
            scroll = _scrolls(page)
            assert scroll["height"] <= scroll["innerHeight"], (size, scroll)
            assert scroll["width"] <= scroll["innerWidth"], (size, scroll)
            if scene.game == "codenames":
                words = page.evaluate(CARD_WORDS)
                assert all(w["inside"] for w in words), (size, words)
                log = "parseFloat(getComputedStyle(document.querySelector('.clue-log li')).fontSize)"
                sizes = [min(w["size"] for w in words), page.evaluate(log)]
            else:
                sizes = page.evaluate(
                    """() => [...document.querySelectorAll(".replay-sheet td, .replay-keywords li")]
                    .map((el) => parseFloat(getComputedStyle(el).fontSize))"""
                )
                assert len(sizes) >= 12 * 5
            if size == "tv":
                assert min(sizes) >= 24, sizes
            assert not errors
        finally:
            context.close()
