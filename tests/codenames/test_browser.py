"""A whole Codenames game in real browsers: two spymasters, two operatives, a key phone."""

from __future__ import annotations

from typing import Any

import pytest

from codenames.models import CodenamesGame
from tests.codenames.table import key_leaks
from tests.conftest import PHONE, capture_frames

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _join(page: Any, url: str, name: str, team: str, role: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#conn[data-state='open']")
    page.click(f"[data-team='{team}'] [data-role='{role}'] button.sit")
    page.wait_for_selector(f"[data-team='{team}'] [data-role='{role}'] .person.me")


def _saved(slug: str) -> dict[str, Any]:
    return CodenamesGame.objects.filter(room__slug=slug).order_by("-number").first().state  # type: ignore[union-attr]


def test_four_players_and_a_key_phone_play_to_a_win(
    daphne_server: Any, open_page: Any, shots_dir: str
) -> None:
    slug = "browser-codenames"
    url = f"{daphne_server.url}/r/{slug}/"
    pages = {
        "rosa": open_page(),
        "rui": open_page(**PHONE),
        "bea": open_page(),
        "bo": open_page(**PHONE),
    }
    frames = {name: capture_frames(page) for name, page in pages.items()}
    _join(pages["rosa"], url, "Rosa", "red", "spymaster")
    _join(pages["rui"], url, "Rui", "red", "operative")
    _join(pages["bea"], url, "Bea", "blue", "spymaster")
    _join(pages["bo"], url, "Bo", "blue", "operative")
    # The host, Red's spymaster, opens the table view for the TV from her own browser: the
    # same session, yet the table must carry a visitor's view (CN-S1).
    host = pages["rosa"].context
    host.on("page", lambda page: frames.setdefault("tv", capture_frames(page)))
    with host.expect_page() as opened:
        pages["rosa"].click("#table-link")
    pages["tv"] = opened.value
    pages["tv"].wait_for_selector("#conn[data-state='open']")
    assert pages["tv"].url == f"{daphne_server.url}/r/{slug}/table/"
    tv_html = pages["tv"].content()

    pages["rui"].click("#deal")
    for page in pages.values():
        page.wait_for_selector(".board .card >> nth=24")

    # Rosa opens the key on her phone from the QR link on her screen (CN-S3).
    pages["rosa"].click("#make-device-link")
    pages["rosa"].wait_for_selector(".device-link summary")
    # The QR shows open once made (issue 29); a summary tap would fold it away.
    assert pages["rosa"].evaluate("() => document.querySelector('.device-link').open")
    pages["rosa"].wait_for_selector("#device-link-url")
    link = pages["rosa"].input_value("#device-link-url")
    phone = open_page(**PHONE)
    frames["phone"] = capture_frames(phone)
    phone.goto(link)
    phone.wait_for_selector(".board .card.keyed >> nth=0")
    assert phone.locator("#lobby").count() == 0

    operatives = {"red": pages["rui"], "blue": pages["bo"]}
    spymasters = {"red": phone, "blue": pages["bea"]}  # red's clues come from Rosa's phone
    shots_taken = False
    for turn in range(40):
        state = _saved(slug)
        if state["winner"]:
            break
        team = state["team"]
        clue_page = spymasters[team]
        clue_page.wait_for_selector("#clue-word")
        clue_page.fill("#clue-word", f"zq{turn}")
        clue_page.select_option("#clue-number", "2")
        clue_page.click("#clue-send")
        operative = operatives[team]
        operative.wait_for_selector("#end-turn")
        if not shots_taken:
            pages["rosa"].screenshot(path=f"{shots_dir}/codenames-spymaster.png", full_page=True)
            operative.screenshot(path=f"{shots_dir}/codenames-operative-phone.png", full_page=True)
            phone.screenshot(path=f"{shots_dir}/codenames-key-phone.png", full_page=True)
            pages["tv"].screenshot(path=f"{shots_dir}/codenames-table.png", full_page=True)
            shots_taken = True
        state = _saved(slug)
        own = [i for i, who in enumerate(state["key"]) if who == team and state["covered_by"][i] is None]
        for position in own[:3]:
            if _saved(slug)["phase"] != "guess":
                break
            card = operative.locator(f".card[data-position='{position}']")
            card.click()  # propose
            operative.wait_for_selector(f".card.mine[data-position='{position}']")
            card.click()  # confirm
            operative.wait_for_selector(f".card.covered[data-position='{position}']")
        state = _saved(slug)
        if state["phase"] == "guess" and not state["winner"]:
            operative.click("#end-turn")
            operative.wait_for_selector("#end-turn", state="detached")
    state = _saved(slug)
    assert state["winner"] in {"red", "blue"}
    for name, page in pages.items():
        # Only a seated player can deal again; the table view shows the result.
        page.wait_for_selector(".status.over" if name == "tv" else "#next-game")
    pages["tv"].screenshot(path=f"{shots_dir}/codenames-over.png", full_page=True)
    # CN-S1 on the raw frames each browser received; the spymasters' are the control.
    for name in ("rui", "bo", "tv"):
        assert frames[name] and key_leaks(frames[name]) == [], name
    assert key_leaks([tv_html]) == [] and '"you": null' in tv_html
    assert key_leaks(frames["bea"]) and key_leaks(frames["phone"])


def test_cn30_cooperative_game_in_browsers_to_a_scored_win(
    daphne_server: Any, open_page: Any, shots_dir: str
) -> None:
    slug = "browser-coop"
    url = f"{daphne_server.url}/r/{slug}/"
    spy, op = open_page(), open_page(**PHONE)
    _join(spy, url, "Sol", "red", "spymaster")
    _join(op, url, "Oli", "red", "operative")
    op.wait_for_selector("#deal:has-text('co-operative')")
    op.click("#deal")
    for turn, count in enumerate((3, 9)):
        spy.wait_for_selector("#clue-word")
        spy.fill("#clue-word", f"zq{turn}")
        spy.select_option("#clue-number", str(min(count, 9)))
        spy.click("#clue-send")
        op.wait_for_selector("#end-turn")
        state = _saved(slug)
        own = [i for i, who in enumerate(state["key"]) if who == "red" and state["covered_by"][i] is None]
        for position in own[:count]:
            op.click(f".card[data-position='{position}']")
            op.wait_for_selector(f".card.mine[data-position='{position}']")
            op.click(f".card[data-position='{position}']")
            op.wait_for_selector(f".card.covered[data-position='{position}']")
        if _saved(slug)["winner"]:
            break
        op.click("#end-turn")
        # CN-31: the spymaster picks the opponent's cover on their own screen.
        spy.wait_for_selector(".instruction")
        state = _saved(slug)
        hidden = [i for i, by in enumerate(state["covered_by"]) if by is None]
        blue = next(i for i in hidden if state["key"][i] == "blue")
        spy.screenshot(path=f"{shots_dir}/codenames-coop-opponent.png", full_page=True)
        spy.click(f".card[data-position='{blue}']")
        spy.wait_for_selector(f".card.covered[data-position='{blue}']")
    op.wait_for_selector("#next-game")
    status = op.text_content(".status-text") or ""
    assert "Score 7" in status and "Mission impossible." in status
    op.screenshot(path=f"{shots_dir}/codenames-coop-win.png", full_page=True)


def test_a_turn_in_italian_with_italian_words(daphne_server: Any, open_page: Any, shots_dir: str) -> None:
    """Issue 7: a group plays entirely in its language, cards and screens alike."""
    from pathlib import Path

    import polib
    from django.conf import settings

    italian = polib.pofile(str(Path(settings.BASE_DIR) / "locale/it/LC_MESSAGES/djangojs.po"))
    say = {e.msgid: e.msgstr for e in italian.translated_entries()}
    words = set((Path(settings.BASE_DIR) / "codenames/words/it.txt").read_text(encoding="utf-8").split())
    slug = "browser-italiano"
    url = f"{daphne_server.url}/r/{slug}/"
    people = [("Rita", "red", "spymaster"), ("Rocco", "red", "operative"),
              ("Bice", "blue", "spymaster"), ("Bruno", "blue", "operative")]  # fmt: skip
    pages = {name: open_page(locale="it-IT") for name, _t, _r in people}
    for name, team, role in people:
        _join(pages[name], url, name, team, role)
    pages["Rocco"].click("#deal")
    pages["Rocco"].wait_for_selector(".board .card >> nth=24")
    state = _saved(slug)
    assert set(state["words"]) <= words
    team = state["team"]
    spymaster = pages["Rita" if team == "red" else "Bice"]
    operative = pages["Rocco" if team == "red" else "Bruno"]
    spymaster.wait_for_selector("#clue-send")
    assert spymaster.text_content("#clue-send") == say["Give clue"]
    spymaster.fill("#clue-word", "zqx")
    spymaster.click("#clue-send")
    operative.wait_for_selector("#end-turn")
    assert operative.text_content("#end-turn") == say["End turn"]
    own = next(i for i, who in enumerate(_saved(slug)["key"]) if who == team)
    operative.click(f".card[data-position='{own}']")
    operative.wait_for_selector(f".card.mine[data-position='{own}']")
    operative.click(f".card[data-position='{own}']")
    operative.wait_for_selector(f".card.covered[data-position='{own}']")
    # Issue 23: agents left in Italian's plural form, the count in bold where it goes.
    saved = _saved(slug)
    left = sum(
        1 for who, by in zip(saved["key"], saved["covered_by"], strict=True) if who == team and by is None
    )
    assert left > 1 and operative.text_content(f".left-{team}").endswith(f"{left} rimasti")
    assert operative.text_content(f".left-{team} strong") == str(left)
    one = "n => window.interpolate(window.ngettext('%(n)s left', '%(n)s left', n), {n}, true)"
    assert operative.evaluate(one, 1) == "1 rimasto"  # as the head says with one agent to go
    operative.click("#end-turn")
    operative.wait_for_selector("#end-turn", state="detached")
    assert _saved(slug)["team"] != team
    assert operative.evaluate("document.documentElement.lang") == "it"
    operative.screenshot(path=f"{shots_dir}/codenames-italian.png", full_page=True)
