"""A restart loses nothing: every screen comes back the same, and deadlines still fire."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import pytest
from websockets.sync.client import connect

from codenames.models import CodenamesGame
from rooms import clock
from rooms.models import Player, Room
from tests.codenames.test_concurrency import _act, _state, _table
from tests.conftest import BrowserSocket, DaphneServer, make_session

pytestmark = pytest.mark.django_db(transaction=True)


def _first_state(stack: ExitStack, server: DaphneServer, slug: str, uid: str) -> dict[str, Any]:
    ws = stack.enter_context(
        connect(
            f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": f"sessionid={make_session(uid)}"},
            open_timeout=10,
        )
    )
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def _mid_turn(slug: str) -> dict[str, Any]:
    _table(slug)
    _act(slug, "rosa", {"action": "start_game"})
    state = _state(slug)
    team = state["team"]
    spymaster, operative = ("rosa", "rui") if team == "red" else ("bea", "bo")
    _act(slug, spymaster, {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2})
    state = _state(slug)
    own = [i for i, who in enumerate(state["key"]) if who == team]
    _act(slug, operative, {"action": "confirm", "turn": state["turn"], "position": own[0]})
    _act(slug, operative, {"action": "propose", "turn": state["turn"], "position": own[1]})
    return _state(slug)


def test_restart_mid_turn_restores_every_screen(redis_url: str) -> None:
    slug = "restart-screens"
    _mid_turn(slug)
    uids = {name: f"{slug}-{name}" for name in ("rosa", "rui", "bo")}
    server = DaphneServer(redis_url).start()
    with ExitStack() as stack:
        before = {name: _first_state(stack, server, slug, uid) for name, uid in uids.items()}
    server.stop()
    server = DaphneServer(redis_url).start()
    with ExitStack() as stack:
        after = {name: _first_state(stack, server, slug, uid) for name, uid in uids.items()}
    server.stop()
    for name in uids:
        assert after[name]["play"] == before[name]["play"], name
        assert after[name]["version"] >= before[name]["version"]
    assert before["rui"]["play"]["proposals"] and before["rui"]["play"]["guesses_made"] == 1


def _with_timer(slug: str) -> None:
    _table(slug)
    Room.objects.filter(slug=slug).update(
        settings={"codenames": {"timer": True, "clue_seconds": 120, "guess_seconds": 60}}
    )


def test_cn24_guessing_timeout_ends_the_turn_with_no_browser_open() -> None:
    slug = "timer-sweep"
    _with_timer(slug)
    _act(slug, "rosa", {"action": "start_game"})
    state = _state(slug)
    team = state["team"]
    spymaster, operative = ("rosa", "rui") if team == "red" else ("bea", "bo")
    _act(slug, spymaster, {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 3})
    state = _state(slug)
    assert state["deadline"] is not None
    own = [i for i, who in enumerate(state["key"]) if who == team]
    _act(slug, operative, {"action": "confirm", "turn": state["turn"], "position": own[0]})
    deadline = _state(slug)["deadline"]
    assert clock.sweep(now=deadline - 1) == 0
    assert _state(slug)["team"] == team
    assert clock.sweep(now=deadline + 1) == 1
    assert _state(slug)["team"] != team


def test_cn24_timer_survives_restart(redis_url: str) -> None:
    """A deadline that passed while no server ran is applied by the next server's clock."""
    slug = "timer-restart"
    _with_timer(slug)
    _act(slug, "rosa", {"action": "start_game"})
    state = _state(slug)
    team = state["team"]
    spymaster, operative = ("rosa", "rui") if team == "red" else ("bea", "bo")
    _act(slug, spymaster, {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 3})
    state = _state(slug)
    own = [i for i, who in enumerate(state["key"]) if who == team]
    _act(slug, operative, {"action": "confirm", "turn": state["turn"], "position": own[0]})
    # The server was down when the guessing time ran out: move the saved deadline back.
    game = CodenamesGame.objects.get(room__slug=slug)
    past = time.time() - 5
    game.state = {**game.state, "deadline": past}
    game.deadline = datetime.fromtimestamp(past, tz=UTC)
    game.save()
    server = DaphneServer(redis_url, extra_env={"GAME_CLOCK": "1"}).start()
    try:
        for _ in range(200):  # the clock ticks every second; poll the database up to ~20 s
            if _state(slug)["team"] != team:
                break
            time.sleep(0.1)
    finally:
        server.stop()
    assert _state(slug)["team"] != team


def test_an_idle_socket_stays_open_on_the_redis_layer(redis_url: str, settings: Any) -> None:
    """An idle player still hears the next move (redis-py 8's read timeout is 5 s)."""
    import websockets.exceptions

    from config.settings import CHANNEL_LAYERS  # noqa: F401  (documents where the fix lives)

    # This process must publish on the server's layer: the production config, on our Redis.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": redis_url, "socket_timeout": None}],
                "symmetric_encryption_keys": [settings.SECRET_KEY],
            },
        }
    }
    slug = "idle-socket"
    _table(slug)
    server = DaphneServer(redis_url).start()
    try:
        with connect(
            f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": f"sessionid={make_session(f'{slug}-rui')}"},
            open_timeout=10,
        ) as raw:
            ws = BrowserSocket(raw)
            first = ws.recv()
            # Arriving shows the player connected to the room: a push of its own.
            while not all(p["connected"] for p in first["players"] if p["name"] == "rui"):
                first = ws.recv()
            # Nothing happens for longer than redis-py's default read timeout.
            with pytest.raises(TimeoutError):
                ws.recv(timeout=6.5)
            _act(slug, "rosa", {"action": "start_game"})
            try:
                while True:
                    message = ws.recv()
                    if message.get("play"):
                        break
            except websockets.exceptions.ConnectionClosed:
                pytest.fail("the idle socket was closed by the server")
            assert message["version"] > first["version"]
    finally:
        server.stop()


def test_sigkill_mid_game_loses_no_acknowledged_move(redis_url: str) -> None:
    """A server killed outright mid-game: every move a screen saw acknowledged is kept, and
    every screen, reconnected to a new server, shows the same game as the database."""
    import os
    import signal

    slug = "sigkill-moves"
    _table(slug)
    _act(slug, "rosa", {"action": "start_game"})
    state = _state(slug)
    spymaster, operative = ("rosa", "rui") if state["team"] == "red" else ("bea", "bo")
    _act(slug, spymaster, {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 3})
    state = _state(slug)
    server = DaphneServer(redis_url).start()
    acknowledged: list[int] = []
    try:
        with ExitStack() as stack:
            mover = BrowserSocket(_connect(stack, server, slug, f"{slug}-{operative}"))
            mover.recv()
            free = [i for i, covered in enumerate(state["covered_by"]) if covered is None]
            for position in free[:6]:
                version = mover.state["version"]  # type: ignore[index]
                mover.send(json.dumps({"action": "propose", "turn": state["turn"], "position": position}))
                while mover.recv()["version"] <= version:
                    pass
                acknowledged.append(position)  # this screen saw it applied
            seen_version = mover.state["version"]  # type: ignore[index]
            assert server.proc is not None
            os.kill(server.proc.pid, signal.SIGKILL)
            server.proc.wait(timeout=10)
            server.proc = None
    finally:
        server.stop()
    me = Player.objects.get(name=operative, room__slug=slug).public_id
    assert len(acknowledged) == 6 and _state(slug)["proposals"][me] == acknowledged[-1]
    assert Room.objects.get(slug=slug).version >= seen_version
    server = DaphneServer(redis_url).start()
    try:
        with ExitStack() as stack:
            screens = {n: _first_state(stack, server, slug, f"{slug}-{n}") for n in ("rosa", "rui", "bo")}
    finally:
        server.stop()
    # Each screen's first state from the new server holds every acknowledged move (a
    # presence push from the screens opening may add versions after it: not the game's).
    for name, screen in screens.items():
        assert seen_version <= screen["version"] <= Room.objects.get(slug=slug).version, name
        assert screen["play"]["proposals"] == screens["rosa"]["play"]["proposals"], name
        assert screen["play"]["proposals"][me] == acknowledged[-1], name


def _connect(stack: ExitStack, server: DaphneServer, slug: str, uid: str) -> Any:
    return stack.enter_context(
        connect(
            f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": f"sessionid={make_session(uid)}"},
            open_timeout=10,
        )
    )
