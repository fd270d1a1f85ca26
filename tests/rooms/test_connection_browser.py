"""An honest connection, in a real browser: a network that goes silent without a reset (a
half-open socket) is noticed within seconds, the page takes no move while it is down, and
it comes back by itself; the browser's own offline signal is believed at once."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench.scenes import CARD, PHONE, Scene, build_scene, in_thread, open_scene
from tests.conftest import close_and_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_NUMBERS = itertools.count(1)

# Records every change of the veil (shown or not) with the page's time, from the start.
VEIL_LOG = """
window.__veil = [];
new MutationObserver(() => {
  const veil = document.getElementById("offline");
  const shown = veil && !veil.hidden;
  const last = window.__veil[window.__veil.length - 1];
  if (!last || last.shown !== shown) window.__veil.push({ shown, at: Date.now() });
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["hidden"] });
"""


class Line:
    """Every socket of the page through a relay that can go silent both ways at once,
    keeping the socket open (what a dropped Wi-Fi does), and note what the page sends."""

    def __init__(self) -> None:
        self.dead = False
        self.held: list[str] = []  # what the page sent while the line was dead

    def route(self, ws: Any) -> None:
        if self.dead:
            # A new socket over a dead network never gets through.
            ws.close(code=4000, reason="no network")
            return
        server = ws.connect_to_server()

        def up(message: str | bytes) -> None:
            if self.dead:
                self.held.append(message if isinstance(message, str) else message.decode())
            else:
                server.send(message)

        def down(message: str | bytes) -> None:
            if not self.dead:
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)


@pytest.fixture
def opened(browser: Any, daphne_server: Any) -> Iterator[Callable[..., tuple[Scene, Any]]]:
    contexts: list[tuple[Scene, Any]] = []

    def make(name: str, prepare: Callable[[Any], None]) -> tuple[Scene, Any]:
        # A room name never reused within the server's life (its hub may hold the old one).
        scene = in_thread(lambda: build_scene(name, "en", suffix=f"line{next(_NUMBERS)}"))
        context, page = open_scene(browser, daphne_server.url, scene, PHONE, prepare)
        contexts.append((scene, context))
        return scene, page

    yield make
    for scene, context in contexts:
        close_and_settle(context.close, [scene.slug])


def _version(scene: Scene) -> int:
    from rooms.models import Room

    return in_thread(lambda: Room.objects.get(slug=scene.slug).version)


def _game(scene: Scene) -> dict[str, Any]:
    from rooms.records import current_record

    def read() -> dict[str, Any]:
        from rooms.models import Room

        record = current_record(Room.objects.get(slug=scene.slug))
        assert record is not None
        return dict(record.state)

    return in_thread(read)


def _moves(frames: list[str]) -> list[str]:
    return [f for f in frames if json.loads(f).get("action") not in ("ping", "sync")]


def test_a_silent_network_shows_connection_lost_within_6_s_and_sends_no_move(opened: Any) -> None:
    line = Line()

    def prepare(page: Any) -> None:
        page.add_init_script(VEIL_LOG)
        page.route_web_socket(re.compile(r"/ws/"), line.route)

    scene, page = opened("codenames-operative-guess", prepare)
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    version = _version(scene)
    game = _game(scene)
    card = page.locator(f"{CARD}[data-position='{scene.extra['target']}']")
    box = card.bounding_box()
    assert box is not None

    line.dead = True
    died = time.monotonic()
    page.wait_for_selector("#offline", state="visible", timeout=8000)
    noticed = time.monotonic() - died
    print(f"\nthe silent line was called lost after {noticed:.1f} s")
    assert noticed < 6
    assert "Connection lost" in page.inner_text("#offline")
    assert page.evaluate("() => document.getElementById('play').inert")
    # A tap where the card is: the veil takes it, nothing leaves the page.
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.press("Enter")

    line.dead = False
    page.wait_for_selector("#offline", state="hidden", timeout=15000)
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    assert _moves(line.held) == [], line.held
    # The veil stayed up from the moment it came until the line was back.
    log = page.evaluate("() => window.__veil")
    shown = [entry["shown"] for entry in log]
    assert shown[-2:] == [True, False] and shown.count(True) == 1, log
    assert _game(scene) == game  # (the room's version moved: presence)
    version = _version(scene)
    # The control: once the line is back, the same tap is a move.
    card.click()
    deadline = time.monotonic() + 10
    while _version(scene) == version and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert _version(scene) > version


def test_the_browsers_offline_signal_is_believed_at_once(opened: Any) -> None:
    line = Line()
    scene, page = opened(
        "codenames-operative-guess", lambda page: page.route_web_socket(re.compile(r"/ws/"), line.route)
    )
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    page.context.set_offline(True)
    started = time.monotonic()
    page.wait_for_selector("#offline", state="visible", timeout=3000)
    print(f"\noffline shown {(time.monotonic() - started) * 1000:.0f} ms after the browser said so")
    assert page.evaluate("() => document.getElementById('play').inert")
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=15000)
    assert page.get_attribute("#conn", "data-state") == "open"


def test_a_tap_into_a_silently_dead_line_shows_pending_then_is_resent_and_refused_as_too_late(
    opened: Any,
) -> None:
    """Tapped before the page can know the line is dead: the tap shows as pending at once;
    on the next socket it is sent once more, and a line down longer than a move may wait
    (MOVE_MAX_AGE_SECONDS) makes that resend a refusal the player reads — never silence."""
    from django.conf import settings

    line = Line()

    def prepare(page: Any) -> None:
        page.route_web_socket(re.compile(r"/ws/"), line.route)

    scene, page = opened("codenames-operative-guess", prepare)
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    game = _game(scene)
    card = page.locator(f"{CARD}[data-position='{scene.extra['target']}']")
    line.dead = True
    card.click()  # a proposal, into a line nobody has noticed is dead yet
    tapped = time.monotonic()
    assert page.evaluate("() => document.body.classList.contains('sending')")
    assert page.get_attribute("#conn", "data-sending") == "1"
    assert page.get_attribute("#play", "aria-busy") == "true"
    assert any(json.loads(m).get("action") == "propose" for m in line.held), line.held
    page.wait_for_selector("#offline", state="visible", timeout=8000)
    # Past the age a move may have when it arrives: the resend is then surely too late.
    page.wait_for_timeout(max(0.0, settings.MOVE_MAX_AGE_SECONDS + 1 - (time.monotonic() - tapped)) * 1000)
    line.dead = False
    page.wait_for_selector("#offline", state="hidden", timeout=15000)
    page.wait_for_selector("#toast.show", timeout=5000)
    assert "nothing was changed" in page.inner_text("#toast")
    page.wait_for_function("() => !document.body.classList.contains('sending')", timeout=5000)
    assert _game(scene) == game  # never applied, and the player knows why
    # A tap on a live line is pending only until the server has read it.
    version = _version(scene)
    card.click()
    page.wait_for_function("() => !document.body.classList.contains('sending')", timeout=10000)
    assert _version(scene) > version


class Restarts:
    """Every socket of the page through a relay that plays a server restarting under a tap:
    for socket number ``n`` (from 0) in ``plan``, the first move the page sends is passed
    on (``"pass"``: applied, its answer lost) or kept (``"hold"``: never arrives), and the
    page's side is closed with 1012 at once, as a draining process closes it."""

    def __init__(self, plan: dict[int, str]) -> None:
        self.plan = plan
        self.opened = 0
        self.moves: list[dict[str, Any]] = []  # every move the page sent, on any socket

    def route(self, ws: Any) -> None:
        number = self.opened
        self.opened += 1
        server = ws.connect_to_server()
        step = self.plan.get(number)

        def up(message: str | bytes) -> None:
            nonlocal step
            text = message if isinstance(message, str) else message.decode()
            frame = json.loads(text)
            if frame.get("action") in ("ping", "sync", "chat_history"):
                if step != "closed":
                    server.send(message)
                return
            self.moves.append(frame)
            if step is None:
                server.send(message)
                return
            if step == "pass":
                server.send(message)
            step = "closed"
            ws.close(code=1012, reason="server restart")
            server.close()

        def down(message: str | bytes) -> None:
            if step != "closed":
                ws.send(message)

        ws.on_message(up)
        server.on_message(down)


def _moves_made(scene: Scene) -> int:
    from rooms.models import GameMove

    return in_thread(lambda: GameMove.objects.filter(room__slug=scene.slug, kind=GameMove.MOVE).count())


def _through(relay: Restarts) -> Callable[[Any], None]:
    return lambda page: page.route_web_socket(re.compile(r"/ws/"), relay.route)


@pytest.mark.parametrize("lost", ["pass", "hold"])
def test_a_tap_whose_socket_restarts_under_it_is_resent_once_and_applied_once(opened: Any, lost: str) -> None:
    """A process restarting (1012) under a tap: whether the tap reached it ("pass": applied,
    the answer lost) or not ("hold"), the page sends it once more on the next socket under
    the same id and `at`, and the server applies it exactly once; no toast, nothing pending."""
    relay = Restarts({0: lost})
    scene, page = opened("codenames-operative-guess", _through(relay))
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    before = _moves_made(scene)
    page.locator(f"{CARD}[data-position='{scene.extra['target']}']").click()
    page.wait_for_function("() => !document.body.classList.contains('sending')", timeout=10000)
    assert relay.opened == 2
    sent = [m for m in relay.moves if m["action"] == "propose"]
    assert len(sent) == 2 and sent[0]["id"] == sent[1]["id"] and sent[0]["at"] == sent[1]["at"], sent
    assert _moves_made(scene) == before + 1
    assert not page.is_visible("#toast.show")


def test_a_tap_whose_resend_is_lost_too_is_shown_as_not_sent(opened: Any) -> None:
    """Resent once, never twice: a second socket closing under the resend leaves the
    player told, once the board is back, that the move was not confirmed."""
    relay = Restarts({0: "hold", 1: "hold"})
    scene, page = opened("codenames-operative-guess", _through(relay))
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    game = _game(scene)
    page.locator(f"{CARD}[data-position='{scene.extra['target']}']").click()
    page.wait_for_selector("#toast.show", timeout=10000)
    assert "not confirmed" in page.inner_text("#toast")
    assert not page.evaluate("() => document.body.classList.contains('sending')")
    assert relay.opened == 3 and [m["action"] for m in relay.moves] == ["propose", "propose"]
    assert _game(scene) == game


def _pings_within(opened: Any, scene_name: str, seconds: float) -> int:
    """Pings the page sends in its first ``seconds`` on a quiet line (nobody else moves)."""
    sent: list[str] = []

    def prepare(page: Any) -> None:
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))

    _scene, page = opened(scene_name, prepare)
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    page.wait_for_timeout(seconds * 1000)
    return sum(json.loads(frame).get("action") == "ping" for frame in sent)


def test_a_page_whose_player_can_act_pings_after_2_5_s_of_silence(opened: Any) -> None:
    """The operative's turn to guess: a dead line must be called lost within 6 s."""
    pings = _pings_within(opened, "codenames-operative-guess", 6.5)
    print(f"\n{pings} pings in 6.5 s while the player can act")
    assert pings >= 2


def test_a_page_whose_player_cannot_act_pings_six_times_less_often(opened: Any) -> None:
    """The other team's turn, no timer, nothing pending: one ping per 15 s of silence at most."""
    pings = _pings_within(opened, "codenames-operative-waiting", 6.5)
    print(f"\n{pings} pings in 6.5 s while the player cannot act")
    assert pings == 0


class OldRelease(Restarts):
    """``Restarts``, where the sockets numbered in ``old`` reach a release before move ids:
    their states come without ``move_ids`` (such a release refuses an ``id``)."""

    def __init__(self, plan: dict[int, str], old: set[int]) -> None:
        super().__init__(plan)
        self.old = old

    def route(self, ws: Any) -> None:
        number = self.opened
        if number in self.old:
            original_send = ws.send

            def send(message: str | bytes) -> None:
                frame = json.loads(message)
                if frame.get("type") == "state":
                    frame.pop("move_ids", None)
                original_send(json.dumps(frame))

            ws.send = send
        super().route(ws)


def test_a_page_on_a_release_before_move_ids_sends_no_id(opened: Any) -> None:
    """A rolling upgrade's mix: the socket's server said no `move_ids`, so the tap goes
    without an `id` (an old release would refuse the field) and is applied."""
    relay = OldRelease({}, old={0})
    scene, page = opened("codenames-operative-guess", _through(relay))
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    before = _moves_made(scene)
    page.locator(f"{CARD}[data-position='{scene.extra['target']}']").click()
    page.wait_for_function("() => !document.body.classList.contains('sending')", timeout=10000)
    sent = [m for m in relay.moves if m["action"] == "propose"]
    assert len(sent) == 1 and "id" not in sent[0] and "at" in sent[0], sent
    assert _moves_made(scene) == before + 1


def test_a_tap_lost_on_the_way_to_a_release_before_move_ids_is_not_resent(opened: Any) -> None:
    """Sent with an id on a new process that restarted under it, the tap is not resent to
    an old one (which could neither recognise a repeat nor read the id): the player is
    told it was not confirmed, and the game is unchanged."""
    relay = OldRelease({0: "hold"}, old={1})
    scene, page = opened("codenames-operative-guess", _through(relay))
    page.wait_for_function("() => document.getElementById('conn').dataset.state === 'open'")
    game = _game(scene)
    page.locator(f"{CARD}[data-position='{scene.extra['target']}']").click()
    page.wait_for_selector("#toast.show", timeout=10000)
    assert "not confirmed" in page.inner_text("#toast")
    assert not page.evaluate("() => document.body.classList.contains('sending')")
    sent = [m for m in relay.moves if m["action"] == "propose"]
    assert len(sent) == 1 and "id" in sent[0], sent
    assert relay.opened == 2
    assert _game(scene) == game
