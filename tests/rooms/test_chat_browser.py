"""Table talk in real browsers: two phones of one Decrypto team whisper in their team's
channel at 360×740 while deciphering, the other team and a spectator see none of it, and
the game stays usable with the chat on screen (DC-45, DC-S4)."""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest

from bench.scenes import DC_READY, PHONE, Scene, build_scene, in_thread, open_scene
from tests.conftest import close_and_settle, make_session

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_NUMBERS = itertools.count(1)
WHISPER = "zqwhisper mexico is four"
REPLY = "zqreply agreed"


@pytest.fixture
def phones(browser: Any, daphne_server: Any) -> Iterator[Callable[..., Any]]:
    contexts: list[tuple[str, Any]] = []

    def open_as(scene: Scene, session: str | None, ready: str | None = None) -> Any:
        seat = dataclasses.replace(scene, session_key=session, ready=ready or scene.ready)
        frames: list[str] = []

        def listen(page: Any) -> None:
            page.on(
                "websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload)))
            )

        context, page = open_scene(browser, daphne_server.url, seat, PHONE, listen)
        contexts.append((scene.slug, context))
        return page, frames

    yield open_as
    for slug, context in contexts:
        close_and_settle(context.close, [slug])


def _seats(slug: str) -> tuple[list[str], str, str]:
    """Session keys of White's two deciphering players (the Encryptor aside), Bob's, Sam's."""
    from decrypto.models import DecryptoGame
    from rooms.models import Player

    state = DecryptoGame.objects.filter(room__slug=slug).latest("number").state
    encryptor = state["turns"]["white"]["encryptor"]
    players = {p.name: p for p in Player.objects.filter(room__slug=slug)}
    white = [make_session(p.uid) for p in players.values() if p.team == "white" and p.public_id != encryptor]
    return white, make_session(players["Bob"].uid), make_session(players["Sam"].uid)


def _uncovered(page: Any, selector: str) -> bool:
    """True when a tap at the element's centre lands on it (nothing drawn over it)."""
    return bool(page.evaluate(
        """(selector) => { const el = document.querySelector(selector); const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.bottom <= innerHeight && hit !== null && (hit === el || el.contains(hit)); }""",
        selector,
    ))  # fmt: skip


def _say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_dc45_dcs4_two_phones_whisper_in_their_team_channel_and_the_game_stays_usable(phones: Any) -> None:
    scene = in_thread(lambda: build_scene("decrypto-decipher", "en", suffix=f"chat{next(_NUMBERS)}"))
    white, bob_session, sam_session = in_thread(lambda: _seats(scene.slug))
    assert len(white) == 2
    (ann, _), (amy, amy_frames) = phones(scene, white[0]), phones(scene, white[1])
    bob, sam = phones(scene, bob_session, DC_READY), phones(scene, sam_session, DC_READY)

    ann.click(".chat-toggle")
    ann.click(".chat-tab[data-channel='team']")
    assert "White" in ann.inner_text(".chat-tab[data-channel='team']")
    _say(ann, WHISPER)
    ann.wait_for_selector(f".chat-line:has-text('{WHISPER}')")
    # The teammate's phone: an unread badge, then the line in the team's tab.
    amy.wait_for_selector(".chat-badge:not([hidden])")
    assert amy.inner_text(".chat-badge") == "1"
    amy.click(".chat-toggle")
    amy.click(".chat-tab[data-channel='team']")
    amy.wait_for_selector(f".chat-line:has-text('{WHISPER}')")
    _say(amy, REPLY)
    ann.wait_for_selector(f".chat-line:has-text('{REPLY}')")
    assert amy.is_visible(f".chat-line:has-text('{REPLY}')")

    # With the drawer open it sits above the game, in the page's flow: it covers none of it
    # (and the game's top is still on screen); closed, nothing covers its action.
    drawer, play = (ann.locator(s).bounding_box() for s in ("#chat-drawer", "#play"))
    assert drawer is not None and play is not None
    assert drawer["y"] + drawer["height"] <= play["y"] and play["y"] < 740
    ann.keyboard.press("Escape")
    assert ann.is_hidden("#chat-drawer")
    ann.locator("#dc-lock-guess").scroll_into_view_if_needed()
    assert _uncovered(ann, "#dc-lock-guess")

    # Black and the spectator: the room's channel only, and no byte of the whisper.
    for (page, frames), teams in ((bob, 1), (sam, 0)):
        page.click(".chat-toggle")
        page.wait_for_selector(".chat-tab[data-channel='room']")
        assert page.locator(".chat-tab[data-channel='team']").count() == teams
        raw = "".join(frames) + page.content()
        assert WHISPER not in raw and REPLY not in raw
    # The control: the whisper did travel in White's frames.
    assert any(WHISPER in frame for frame in amy_frames)
    assert any(json.loads(f).get("type") == "chat" for f in amy_frames)


def test_dc46_the_encryptors_phone_shows_why_not_a_composer_and_no_stray_text(phones: Any) -> None:
    """While their code is deciphered the Encryptor reads both channels but gets no
    composer, only the reason; a drawer holds no stray text (it once showed "null")."""
    from decrypto.models import DecryptoGame
    from rooms.models import Player

    scene = in_thread(lambda: build_scene("decrypto-decipher", "en", suffix=f"chat{next(_NUMBERS)}"))

    def encryptor_session() -> str:
        state = DecryptoGame.objects.filter(room__slug=scene.slug).latest("number").state
        player = Player.objects.get(room__slug=scene.slug, public_id=state["turns"]["white"]["encryptor"])
        return make_session(player.uid)

    white, _bob, _sam = in_thread(lambda: _seats(scene.slug))
    (encryptor, _), (ann, _) = phones(scene, in_thread(encryptor_session), DC_READY), phones(scene, white[0])
    for page in (encryptor, ann):
        page.click(".chat-toggle")
        page.wait_for_selector("#chat-drawer:not([hidden])")
    assert encryptor.is_visible(".chat-quiet")
    assert "You are the Encryptor" in encryptor.inner_text(".chat-quiet")
    assert encryptor.is_hidden("#chat-input") and encryptor.is_hidden(".chat-reactions")
    assert ann.is_visible("#chat-input") and ann.is_hidden(".chat-quiet")
    for page in (encryptor, ann):
        lines = page.locator(".chat-lines").evaluate("(el) => [...el.childNodes].map((n) => n.nodeName)")
        assert set(lines) <= {"LI"}, lines
        assert "null" not in page.inner_text("#chat-drawer")


LANGUAGES = ("en", "it", "pt-br", "ca", "sv")


def _overlaps(page: Any, selector: str, within: str) -> list[str]:
    """The enabled controls of ``within`` whose boxes meet ``selector``'s."""
    return list(page.evaluate(
        """([selector, within]) => {
          const box = document.querySelector(selector).getBoundingClientRect();
          const meets = (r) => r.width && r.height && r.left < box.right && box.left < r.right
            && r.top < box.bottom && box.top < r.bottom;
          const controls = ["button", "input", "textarea", "select"].map((t) => `${within} ${t}`).join();
          return [...document.querySelectorAll(controls)]
            .filter((el) => !el.disabled && meets(el.getBoundingClientRect()))
            .map((el) => el.id || el.className || el.tagName);
        }""",
        [selector, within],
    ))  # fmt: skip


def test_the_chat_opener_sits_in_the_room_bar_over_no_control_in_five_languages(phones: Any) -> None:
    for language in LANGUAGES:
        scene = in_thread(partial(build_scene, "decrypto-decipher", language, suffix=f"chat{next(_NUMBERS)}"))
        white, _bob, _sam = in_thread(partial(_seats, scene.slug))
        page, _frames = phones(scene, white[0])
        assert page.evaluate("() => Boolean(document.querySelector('.room-bar #chat-toggle'))"), language
        assert page.is_visible("#chat-toggle"), language
        # Nothing of the chat floats: no fixed element but the toast, the banner and the veil.
        assert _overlaps(page, "#chat-toggle", "#play") == [], language
        page.click("#chat-toggle")
        page.wait_for_selector("#chat-drawer:not([hidden])")
        # The drawer opens in the page's flow: the game moves down, nothing is covered.
        page.locator("#dc-lock-guess").scroll_into_view_if_needed()
        assert _uncovered(page, "#dc-lock-guess"), language
        page.close()


def test_an_open_drawer_yields_to_the_players_turn(phones: Any) -> None:
    from decrypto.models import DecryptoGame
    from rooms.models import Player
    from tests.decrypto.table import clue_set, play_as

    scene = in_thread(
        lambda: build_scene("decrypto-teammate-during-clues", "en", suffix=f"chat{next(_NUMBERS)}")
    )
    page, _frames = phones(scene, scene.session_key)
    page.click("#chat-toggle")
    page.wait_for_selector("#chat-drawer:not([hidden])")
    _say(page, "zq are you ready")
    page.wait_for_selector(".chat-line:has-text('zq are you ready')")
    open_height = page.locator("#chat-drawer").bounding_box()["height"]

    def submit_all() -> None:
        state = DecryptoGame.objects.filter(room__slug=scene.slug).latest("number").state
        for team in ("white", "black"):
            turn = state["turns"][team]
            if turn is None:
                continue
            uid = Player.objects.get(room__slug=scene.slug, public_id=turn["encryptor"]).uid
            move = {
                "action": "submit_clues",
                "round": state["round"],
                "phase": "clues",
                "clues": clue_set(state, team),
            }
            play_as(scene.slug, uid, move)

    in_thread(submit_all)
    # "Your turn: deciphering": the drawer shrinks to its newest line, the game's action is free.
    page.wait_for_selector("#chat-drawer.chat-strip", timeout=10000)
    strip_height = page.locator("#chat-drawer").bounding_box()["height"]
    print(f"\nthe open drawer was {open_height:.0f} px; yielded to the turn, {strip_height:.0f} px")
    assert strip_height < open_height / 2 and strip_height <= 120
    assert page.is_visible(".chat-line:has-text('zq are you ready')")
    assert page.is_hidden("#chat-input")
    page.wait_for_selector("#dc-lock-guess")
    page.locator("#dc-lock-guess").scroll_into_view_if_needed()
    assert _uncovered(page, "#dc-lock-guess")
    # One tap brings the whole drawer back.
    page.click(".chat-expand")
    page.wait_for_selector("#chat-drawer:not(.chat-strip)")
    assert page.is_visible("#chat-input")
