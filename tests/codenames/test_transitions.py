"""Issue 20's transitions in real browsers: nobody is left lost when the game moves on.

A deal brings the board into view, "Rotate spymasters" tells everyone (and the new
spymasters) who gives the clues, each guess is said in words and coloured in the clue
log, and the opposing spymaster's "Reject clue" (CN-20) asks first, saying what it does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench.scenes import (
    CN_COOP,
    CN_OPERATIVE,
    CN_STANDARD,
    PHONE,
    CodenamesRoom,
    SeededRoom,
    in_thread,
    open_scene,
)
from rooms.services import room_sit
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


# Every :hover rule outside `@media (hover: hover)` (chat.css is another part's, not checked).
HOVER_OUTSIDE_MEDIA_JS = """() => {
  const found = [];
  const walk = (rules, hover, sheet) => {
    for (const rule of rules) {
      const real = hover || (rule instanceof CSSMediaRule && /hover:\\s*hover/.test(rule.conditionText));
      if (rule instanceof CSSMediaRule) walk(rule.cssRules, real, sheet);
      else if ((rule.selectorText || "").includes(":hover") && !hover) found.push(rule.selectorText);
    }
  };
  for (const sheet of document.styleSheets) {
    if (!sheet.href || sheet.href.includes("chat")) continue;
    walk(sheet.cssRules, false, sheet.href.split("/").pop());
  }
  return found;
}"""


def test_end_turn_clears_the_reveal_keeps_focus_and_the_banner_clears_the_seat(seat_page: Any) -> None:
    """Issue 29 on an operative's phone: after End turn (pressed from the keyboard) the last
    reveal's line goes, focus stays on a control of the game, and the turn banner leaves the
    seat pill in view; hover styles wait for a real pointer; the rules open at their top."""

    def seeded() -> tuple[CodenamesRoom, str, str]:
        room = CodenamesRoom("tr-end-turn", "en", CN_STANDARD)
        first, second = room.opening()
        room.clue(3)
        return room, first, second

    room, first, second = in_thread(seeded)
    phone = seat_page(room, CN_OPERATIVE[first], "#end-turn")
    in_thread(lambda: room.guess(room.agents(first)[0]))
    phone.wait_for_selector("#guess-news")
    phone.wait_for_selector("#end-turn:not([disabled])")
    phone.focus("#end-turn")
    phone.keyboard.press("Enter")
    phone.wait_for_selector(f".status.turn-{second}")
    phone.wait_for_selector("#turn-banner.show")
    phone.wait_for_function("() => !document.getElementById('turn-banner').getAnimations().length")
    # Below the seat pill, whatever its text's length or the banner's (a longer one wraps).
    banner, pill = (phone.locator(sel).bounding_box() for sel in ("#turn-banner", "#seat-label"))
    assert banner and pill and banner["y"] >= pill["y"] + pill["height"], (banner, pill)
    assert phone.locator("#guess-news").count() == 0, "the last reveal still shows after End turn"
    focused = phone.evaluate(
        "() => { const a = document.activeElement; return [a.tagName, a.id, a.className]; }"
    )
    assert focused[0] != "BODY" and (focused[0] == "BUTTON" or "card" in focused[2]), focused
    assert phone.evaluate(HOVER_OUTSIDE_MEDIA_JS) == []
    # The rules: at their top, the house rules first, a link down to the variant played.
    phone.click("#howto-open")
    phone.wait_for_selector("#howto-jump")
    assert phone.evaluate("() => document.getElementById('howto').scrollTop") == 0
    assert "house rules" in phone.inner_text("#howto-rules").lower()
    phone.click("#howto-jump")
    phone.wait_for_function(
        "() => Math.abs(document.querySelector('#howto-body #standard').getBoundingClientRect().top"
        " - document.getElementById('howto').getBoundingClientRect().top) < 120"
    )


def _contrast(page: Any, selector: str) -> float:
    """WCAG contrast of an element's text with the first opaque background behind it."""
    return float(
        page.evaluate(
            """(sel) => {
              const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
              const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
                return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
                .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
              const el = document.querySelector(sel);
              let bg = el;
              while (bg && (getComputedStyle(bg).backgroundColor.startsWith("rgba") &&
                            rgb(getComputedStyle(bg).backgroundColor)[3] === 0)) bg = bg.parentElement;
              const [a, b] = [lum(rgb(getComputedStyle(el).color)),
                              lum(rgb(getComputedStyle(bg || document.body).backgroundColor))];
              return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
            }""",
            selector,
        )
    )


def test_the_lobby_deals_when_it_can_bots_align_and_the_dark_board_reads(
    browser: Any, daphne_server: Any
) -> None:
    """Issue 29: Deal waits for the seats and its hint goes once it can; "Add a bot" lines up
    with "Sit here"; the key's QR shows open once asked for; in dark mode the red count reads
    at AA and the cards are toned down."""
    # Blue's spymaster is still watching: no game to deal yet.
    people = [("Bea", "", "spectator") if p[0] == "Bea" else p for p in CN_STANDARD]
    room = in_thread(lambda: SeededRoom("tr-lobby-29", "codenames", "en", people))
    scene = in_thread(lambda: room.scene(f"{room.slug}-rosa", "Rosa", (), "#deal"))
    context, page = open_scene(browser, daphne_server.url, scene, {**PHONE, "color_scheme": "dark"})
    try:
        assert page.is_disabled("#deal")
        assert "spymaster" in page.inner_text("#deal-hint")
        rows = page.evaluate(
            """() => [...document.querySelectorAll(".role")]
              .filter((r) => r.querySelector(".sit") && r.querySelector(".add-bot"))
              .map((r) => [r.querySelector(".sit").getBoundingClientRect().toJSON(),
                           r.querySelector(".add-bot").getBoundingClientRect().toJSON()])"""
        )
        assert rows, "no role offers both a seat and a bot"
        for sit, bot in rows:
            if bot["top"] >= sit["bottom"] - 1:  # wrapped: one above the other, left edges aligned
                assert abs(bot["left"] - sit["left"]) < 1, (sit, bot)
            else:  # side by side on one line
                assert abs(bot["top"] - sit["top"]) < 1 and 0 <= bot["left"] - sit["right"] <= 8, (sit, bot)
        in_thread(lambda: room_sit(slug=room.slug, uid=room.uids["Bea"], team="blue", role="spymaster"))
        page.wait_for_selector("#deal:not([disabled])")
        assert page.locator("#deal-hint").count() == 0
        page.click("#deal")
        page.wait_for_selector(".board .card >> nth=24")
        page.click("#make-device-link")
        page.wait_for_selector("details.device-link[open] img")
        # Dark mode: the red team's count at AA (4.21:1 before), the cards toned down (the
        # light beige #efe4c8 has a luminance of 0.78).
        assert _contrast(page, ".left-red strong") >= 4.5
        brightest = page.evaluate(
            """() => Math.max(...[...document.querySelectorAll(".board .card:not(.covered)")].map((c) => {
              const [r, g, b] = getComputedStyle(c).backgroundColor.match(/[\\d.]+/g).map(Number).map((v) => {
                v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
              return 0.2126 * r + 0.7152 * g + 0.0722 * b; }))"""
        )
        assert brightest < 0.5, brightest
    finally:
        close_and_settle(context.close, [room.slug])
