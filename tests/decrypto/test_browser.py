"""Decrypto in real browsers: two teams of two to the end, and the Interceptor variant."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from decrypto.models import DecryptoGame
from rooms.models import Player
from tests.conftest import PHONE, capture_frames

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _join(page: Any, url: str, name: str, team: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#conn[data-state='open']")
    page.click(f"[data-team='{team}'] [data-role='player'] button.sit")
    page.wait_for_selector(f"[data-team='{team}'] .person.me")


def _game(slug: str) -> DecryptoGame:
    return DecryptoGame.objects.filter(room__slug=slug).order_by("-number").first()  # type: ignore[return-value]


def _page_of(pages: dict[str, Any], slug: str, public_id: str) -> Any:
    return pages[Player.objects.get(room__slug=slug, public_id=public_id).name]


def _wait_saved(slug: str, predicate: Any, page: Any) -> dict[str, Any]:
    """The saved state once ``predicate`` holds; the page's own event loop waits meanwhile."""
    for _ in range(400):
        state = _game(slug).state
        if predicate(state):
            return state
        page.wait_for_timeout(25)
    page.screenshot(path="test-artifacts/decrypto-stuck.png", full_page=True)
    raise AssertionError(f"the game never reached the expected state: {_game(slug).state}")


def _tap_until_saved(
    page: Any, selector: str, slug: str, predicate: Any, tries: int = 3, before: Any = None
) -> dict[str, Any]:
    """Tap ``selector`` until the saved state shows the tap's effect.

    A page sends a tap now or never: while its line is in doubt (a ping unanswered for
    1.5 s, which a loaded machine running four browsers and the server can cause) the tap
    is not sent and the player taps again. So does this test, never twice for one effect.
    ``before``: what to do again before each tap (pick the digits the page lost).
    """
    for _attempt in range(tries - 1):
        if before is not None:
            before()
        page.click(selector)
        for _ in range(160):
            state = _game(slug).state
            if predicate(state):
                return state
            page.wait_for_timeout(25)
    if before is not None:
        before()
    page.click(selector)
    return _wait_saved(slug, predicate, page)


def _play_to_the_end(pages: dict[str, Any], slug: str, miss: str, shots: dict[str, str]) -> dict[str, Any]:
    """Every Encryptor writes clues; ``miss`` (an engine team) always misreads its own code."""
    any_page = next(iter(pages.values()))
    for _round in range(8):
        state = _wait_saved(slug, lambda s: s["phase"] in {"clues", "over", "tiebreak"}, any_page)
        if state["phase"] != "clues":
            return state
        for team, turn in state["turns"].items():
            if turn is None:
                continue
            page = _page_of(pages, slug, turn["encryptor"])
            page.wait_for_selector("#dc-clue-3")
            for i in range(3):
                page.fill(f"#dc-clue-{i + 1}", f"{team}{state['round']}clue{i}")
            if "encryptor" in shots:
                page.screenshot(path=shots.pop("encryptor"), full_page=True)
            _tap_until_saved(
                page,
                "#dc-submit-clues",
                slug,
                lambda s, t=team: s["phase"] != "clues" or s["turns"][t]["submitted"],
            )
        this_round = state["round"]
        state = _wait_saved(slug, lambda s: s["phase"] != "clues", any_page)
        for _target in range(2):
            state = _game(slug).state
            if state["phase"] != "guess" or state["round"] != this_round:
                break  # the round is over (the Interceptor variant has one code a round)
            target, rnd = state["guessing_for"], state["round"]
            code = state["turns"][target]["code"]
            guessers = {target: code if target != miss else [code[1], code[2], code[0]]}
            if rnd > 1:
                guessers[next(t for t in state["turns"] if t != target)] = [code[2], code[0], code[1]]
            for team, guess in guessers.items():
                order = state["teams"][team]["order"]
                who = next(
                    p for p in order if not (team == target and p == state["turns"][target]["encryptor"])
                )
                page = _page_of(pages, slug, who)
                page.wait_for_selector("#dc-lock-guess")

                def pick(page: Any = page, guess: list[int] = guess) -> None:
                    for i, digit in enumerate(guess):
                        button = f"#dc-guess-{i + 1} button[data-digit='{digit}']"
                        if page.get_attribute(button, "aria-pressed") != "true":
                            page.click(button)

                pick()
                if "member" in shots:
                    page.screenshot(path=shots.pop("member"), full_page=True)
                # The lock carries the whole code the buttons show: a digit's draft lost on
                # the way does not matter, the lock is what counts.
                _tap_until_saved(
                    page,
                    "#dc-lock-guess",
                    slug,
                    lambda s, r=rnd, t=target, team=team: (
                        (s["round"], s.get("guessing_for")) != (r, t)
                        or s["phase"] != "guess"
                        or s["locked"].get(team) is not None
                    ),
                )
            _wait_saved(slug, lambda s, r=rnd, t=target: (s["round"], s.get("guessing_for")) != (r, t)
                        or s["phase"] != "guess", any_page)  # fmt: skip
    return _game(slug).state


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _secrets_in(frames: list[str], words: list[str]) -> list[str]:
    """The keywords that any value in the frames names (as a whole word, any case).

    Values, not raw bytes: a real pack's keyword may also be a JSON key ("round").
    """
    values = [v.casefold() for frame in frames for v in _strings(json.loads(frame))]
    return [w for w in words if any(re.search(rf"\b{re.escape(w.casefold())}\b", v) for v in values)]


def test_two_teams_of_two_play_to_the_end(daphne_server: Any, open_page: Any, shots_dir: str) -> None:
    slug = "browser-decrypto"
    url = f"{daphne_server.url}/r/{slug}/?game=decrypto"
    names = {"ann": "white", "amy": "white", "bob": "black", "ben": "black"}
    pages = {name: open_page(**(PHONE if i % 2 else {})) for i, name in enumerate(names)}
    frames = {name: capture_frames(page) for name, page in pages.items()}
    for name, team in names.items():
        _join(pages[name], url, name, team)
    tv = open_page()
    frames["tv"] = capture_frames(tv)
    tv.goto(f"{daphne_server.url}/r/{slug}/")
    pages["ann"].click("#dc-deal")
    for page in pages.values():
        page.wait_for_selector(".dc-game")
    keywords = _game(slug).state["teams"]
    white_words, black_words = keywords["white"]["keywords"], keywords["black"]["keywords"]
    # Before anything ends: each team's frames hold its own keywords only.
    shots = {"encryptor": f"{shots_dir}/decrypto-encryptor.png", "member": f"{shots_dir}/decrypto-member.png"}
    state = _play_to_the_end(pages, slug, miss="white", shots=shots)
    assert state["phase"] == "over"
    assert _game(slug).finished
    for page in pages.values():
        page.wait_for_selector("#dc-next-game")
    tv.wait_for_selector(".dc-end")
    tv.screenshot(path=f"{shots_dir}/decrypto-spectator-end.png", full_page=True)
    pages["bob"].screenshot(path=f"{shots_dir}/decrypto-end.png", full_page=True)

    # DC-S1: frames received before the end never named the other team's keywords.
    def before_end(name: str) -> list[str]:
        # A raw patch is checked through the state it made (the frame after it).
        return [f for f in frames[name] if '"phase":"over"' not in f and '"type":"patch"' not in f]

    assert not _secrets_in(before_end("bob") + before_end("ben"), white_words)
    assert not _secrets_in(before_end("ann") + before_end("amy"), black_words)
    assert not _secrets_in(before_end("tv"), white_words + black_words)
    # The positive control: each team did receive its own keywords.
    assert _secrets_in(frames["ann"], white_words) and _secrets_in(frames["bob"], black_words)


def test_dc40_three_players_interceptor_game_to_the_end(
    daphne_server: Any, open_page: Any, shots_dir: str
) -> None:
    slug = "browser-interceptor"
    url = f"{daphne_server.url}/r/{slug}/?game=decrypto"
    names = {"ivy": "white", "ann": "black", "amy": "black"}
    pages = {name: open_page(**PHONE) for name in names}
    frames = {name: capture_frames(page) for name, page in pages.items()}
    for name, team in names.items():
        _join(pages[name], url, name, team)
    pages["ivy"].wait_for_selector("#dc-deal[data-mode='interceptor']")
    pages["ivy"].click("#dc-deal")
    for page in pages.values():
        page.wait_for_selector(".dc-game")
    team_words = _game(slug).state["teams"]["white"]["keywords"]
    shots = {"member": f"{shots_dir}/decrypto-interceptor-team.png"}
    state = _play_to_the_end(pages, slug, miss="white", shots=shots)
    assert state["phase"] == "over"
    pages["ivy"].wait_for_selector("#dc-next-game")
    pages["ivy"].screenshot(path=f"{shots_dir}/decrypto-interceptor-end.png", full_page=True)
    before_end = [f for f in frames["ivy"] if '"phase":"over"' not in f and '"type":"patch"' not in f]
    assert not _secrets_in(before_end, team_words), "the Interceptor never sees the keywords"
    assert _secrets_in(frames["ann"], team_words)


def test_a_bots_interception_is_offered_by_name_and_taken_only_by_a_persons_tap(
    browser: Any, daphne_server: Any
) -> None:
    """Issue 29: the bot's guess is a labelled offer; the team's draft stays empty until a tap."""
    from bench.scenes import PHONE as SMALL_PHONE
    from bench.scenes import build_scene, in_thread, open_scene

    scene = in_thread(lambda: build_scene("decrypto-intercept-bot", "en", "t29"))
    context, page = open_scene(browser, daphne_server.url, scene, SMALL_PHONE)
    try:
        line = page.locator(".dc-suggestion span").inner_text()
        found = re.fullmatch(r"Bot 1 suggests ([1-4])·([1-4])·([1-4])", line)
        assert found, line
        code = [int(d) for d in found.groups()]
        # Offered, not filled in: no digit pressed, the shared draft empty, Lock asks for digits.
        assert page.locator(".dc-digit-button[aria-pressed='true']").count() == 0
        assert _game(scene.slug).state["guesses"]["black"] == [None, None, None]
        page.click("#dc-lock-guess")
        assert page.locator("#dc-guess-problem").inner_text() == "Pick a digit for every clue."
        page.click(".dc-take")
        pressed = [
            int(page.locator(f"#dc-guess-{i} [aria-pressed='true']").get_attribute("data-digit") or 0)
            for i in (1, 2, 3)
        ]
        assert pressed == code
        _wait_saved(scene.slug, lambda s: s["guesses"]["black"] == code, page)
        # The suggestion stays in view, to compare with what the person writes instead.
        assert page.locator(".dc-suggestion").count() == 1
    finally:
        context.close()


def test_deal_waits_for_seats_that_make_a_game(browser: Any, daphne_server: Any) -> None:
    """Issue 29: with one player seated Deal is disabled, the hint saying what is missing."""
    from bench.scenes import PHONE as SMALL_PHONE
    from bench.scenes import SeededRoom, in_thread, open_scene
    from rooms.services import room_sit

    people = [("Ann", "white", "player"), ("Amy", "", "spectator"), ("Bob", "black", "player")]
    room = in_thread(lambda: SeededRoom("dc-deal-29", "decrypto", "en", people))
    scene = in_thread(lambda: room.scene("dc-deal-29-ann", "Ann", (), "#dc-deal"))
    context, page = open_scene(browser, daphne_server.url, scene, SMALL_PHONE)
    try:
        assert page.is_disabled("#dc-deal")
        assert page.get_attribute("#dc-deal", "aria-describedby") == "dc-seat-hint"
        in_thread(lambda: room_sit(slug=room.slug, uid=room.uids["Amy"], team="white", role="player"))
        page.wait_for_selector("#dc-deal:not([disabled])[data-mode='interceptor']")
    finally:
        context.close()
