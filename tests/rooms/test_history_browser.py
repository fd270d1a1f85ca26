"""Replays in real browsers (issue 22): a finished Codenames game and a finished Decrypto
game of one room, stepped with the keys, the buttons and the slider on a phone, a
laptop and a TV, with no page error, no sideways scrolling and no serious axe violation."""

from __future__ import annotations

from typing import Any

import pytest

from bench.scenes import in_thread
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
    assert page.locator(".replay-cards .card").count() == 25
    assert page.locator(".replay-cards .covered").count() == 0  # the deal: nothing covered yet
    page.keyboard.press("ArrowRight")
    count, label = _step(page)
    assert count == f"2 / {total}" and label
    page.click("#replay-next")
    assert _step(page)[0] == f"3 / {total}"
    page.keyboard.press("End")
    assert _step(page)[0] == f"{total} / {total}"
    assert page.locator(".replay-cards .covered").count() >= 9  # a team covered all its agents
    assert "wins" in page.inner_text(".replay-turn")
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
