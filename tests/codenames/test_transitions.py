"""Issue 20's transitions in real browsers: nobody is left lost when the game moves on.

A deal brings the board into view, "Rotate spymasters" tells everyone (and the new
spymasters) who gives the clues, each guess is said in words and coloured in the clue
log, and the opposing spymaster's "Reject clue" (CN-20) asks first, saying what it does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench.scenes import CN_COOP, CN_STANDARD, PHONE, CodenamesRoom, SeededRoom, in_thread, open_scene
from tests.conftest import close_and_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seat_page(browser: Any, daphne_server: Any) -> Iterator[Callable[..., Any]]:
    """A phone open at ``room`` as player ``name``; every context closed at the end."""
    opened: list[tuple[str, Any]] = []

    def make(room: SeededRoom, name: str, ready: str) -> Any:
        scene = in_thread(lambda: room.scene(f"{room.slug}-{name}", name, (), ready))
        context, page = open_scene(browser, daphne_server.url, scene, PHONE)
        opened.append((room.slug, context))
        return page

    yield make
    for slug, context in opened:
        close_and_settle(context.close, [slug])


def _in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                          return r.top >= 0 && r.top < window.innerHeight - 40; }""",
            selector,
        )
    )


def test_a_deal_brings_a_phone_scrolled_to_the_seats_back_to_the_board(seat_page: Any) -> None:
    room = in_thread(lambda: SeededRoom("tr-deal-scroll", "codenames", "en", CN_COOP))
    phone = seat_page(room, "Oli", "#deal")
    phone.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert phone.evaluate("() => window.scrollY") > 100, "the lobby should be taller than a phone screen"
    assert not _in_view(phone, "#play")
    in_thread(lambda: room.act("Sol", {"action": "start_game"}))
    phone.wait_for_selector(".board .card >> nth=24")
    phone.wait_for_function("() => document.getElementById('play').getBoundingClientRect().top >= 0")
    assert _in_view(phone, "#play"), "the dealt game is off-screen"
    assert _in_view(phone, ".status")
    # The seat label names the team and role on the game's screen too.
    assert phone.inner_text("#seat-label") == "◆ Red · Operative"


def test_cn19_rotate_spymasters_tells_everyone_and_the_new_spymaster(seat_page: Any) -> None:
    def seeded() -> CodenamesRoom:
        room = CodenamesRoom("tr-rotate", "en", CN_STANDARD)
        first, _second = room.opening()
        room.clue(None)
        for position in room.agents(first):
            room.guess(position)
        return room

    room = in_thread(seeded)
    rui = seat_page(room, "Rui", "#rotate")  # Red operative, next in line for Red
    bea = seat_page(room, "Bea", "#next-game")  # Blue's spymaster, about to hand over to Bo
    assert "Red: Rosa" in rui.inner_text("#next-spymasters")
    assert rui.inner_text("#seat-label") == "◆ Red · Operative"
    rui.click("#rotate")
    rui.wait_for_selector("#turn-banner.show.mine")
    assert rui.inner_text("#turn-banner") == "You are now Red's spymaster"
    rui.wait_for_function("() => document.getElementById('seat-label').textContent === '◆ Red · Spymaster'")
    assert "Red: Rui" in rui.inner_text("#next-spymasters") and "Blue: Bo" in rui.inner_text(
        "#next-spymasters"
    )
    bea.wait_for_function("() => document.getElementById('toast').textContent.includes('New spymasters')")
    told = bea.inner_text("#toast")
    assert "Red: Rui" in told and "Blue: Bo" in told, told
    bea.wait_for_function("() => document.getElementById('seat-label').textContent === '● Blue · Operative'")


def guess(page: Any, position: int) -> None:
    """Propose, wait until the page shows the proposal (a second tap before it would be
    another proposal), then confirm."""
    page.click(f".card[data-position='{position}']")
    page.wait_for_selector(f".card[data-position='{position}'].mine")
    page.click(f".card[data-position='{position}']")


def test_cn11_each_guess_is_announced_and_coloured_in_the_clue_log(seat_page: Any) -> None:
    def seeded() -> tuple[CodenamesRoom, str, int, int]:
        room = CodenamesRoom("tr-guess-news", "en", CN_STANDARD)
        first, _second = room.opening()
        room.clue(3)
        return room, first, room.agents(first)[0], room.hidden("bystander")[0]

    room, team, agent, bystander = in_thread(seeded)
    operative = seat_page(room, {"red": "Rui", "blue": "Bo"}[team], ".board .card >> nth=24")
    words = in_thread(lambda: room.state()["words"])
    guess(operative, agent)
    operative.wait_for_selector("#guess-news")
    name = {"red": "Red", "blue": "Blue"}[team]
    assert operative.inner_text("#guess-news").endswith(f"{words[agent]} — {name} agent, keep guessing")
    assert "g-right" in (operative.get_attribute("#guess-news", "class") or "")
    guess(operative, bystander)
    operative.wait_for_function(
        "(text) => (document.getElementById('guess-news') || {}).textContent?.endsWith(text)",
        arg=f"{words[bystander]} — Bystander, turn over",
    )
    assert "g-wrong" in (operative.get_attribute("#guess-news", "class") or "")
    last = operative.locator(".clue-log li").last
    assert words[agent] in last.locator(".guess.g-right").inner_text()
    assert words[bystander] in last.locator(".guess.g-wrong").inner_text()
    # Right and wrong do not look alike (the wrong one is struck through).
    styles = last.locator(".guess").evaluate_all(
        "(els) => els.map((e) => getComputedStyle(e).textDecorationLine + '|' + getComputedStyle(e).color)"
    )
    assert styles[0] != styles[1], styles


def test_cn20_reject_clue_sits_in_a_menu_and_asks_first(seat_page: Any) -> None:
    def seeded() -> tuple[CodenamesRoom, str]:
        room = CodenamesRoom("tr-reject", "en", CN_STANDARD)
        first, second = room.opening()
        room.clue(3)
        return room, second

    room, second = in_thread(seeded)
    spymaster = seat_page(room, {"red": "Rosa", "blue": "Bea"}[second], "#referee-menu")
    assert spymaster.is_hidden("#reject-clue"), "the referee call is folded away"
    spymaster.click("#referee-menu")
    spymaster.click("#reject-clue")
    spymaster.wait_for_selector("#reject-dialog[open]")
    said = spymaster.inner_text("#reject-dialog")
    assert "turn ends at once" in said and "cover one of your own agents" in said, said
    spymaster.click("#reject-cancel")
    spymaster.wait_for_selector("#reject-dialog", state="detached")
    before = in_thread(room.state)
    assert before["phase"] == "guess" and before["team"] != second
    spymaster.click("#reject-clue")
    spymaster.click("#reject-confirm")
    spymaster.wait_for_selector("#referee-menu", state="detached")
    after = in_thread(room.state)
    assert after["team"] == second and after["phase"] == "clue"


def test_a_bot_spymasters_turn_says_the_bot_is_thinking(seat_page: Any) -> None:
    def seeded() -> SeededRoom:
        from bots import seats

        room = SeededRoom(
            "tr-bot-thinking", "codenames", "en", [("Oli", "red", "operative"), ("Ona", "red", "operative")]
        )
        seats.add_bot(slug=room.slug, uid=room.uids["Oli"], team="red", role="spymaster")
        room.act("Oli", {"action": "start_game"})
        return room

    room = in_thread(seeded)
    phone = seat_page(room, "Oli", ".board .card >> nth=24")
    status = phone.inner_text(".status-text")
    assert status == "Bot 1 is thinking…", status
    assert "thinking" in (phone.get_attribute(".status", "class") or "")
