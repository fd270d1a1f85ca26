"""Two operatives confirm at the same moment: exactly one confirmation is applied (CN-16).

First through the service with the row lock observed on PostgreSQL, then through two
sockets on two real server processes that share the database and Redis.
"""

from __future__ import annotations

import json
import threading
from contextlib import ExitStack
from typing import Any

import pytest
from django.db import connection, connections
from websockets.sync.client import connect

from codenames.game import GAME
from codenames.models import CodenamesGame
from rooms import changes, services
from rooms.models import Player
from rooms.services import room_join, room_sit
from tests.conftest import BrowserSocket, DaphneServer, make_session

pytestmark = pytest.mark.django_db(transaction=True)

LAYOUT = [("rosa", "red", "spymaster"), ("rui", "red", "operative"), ("ria", "red", "operative"),
          ("bea", "blue", "spymaster"), ("bo", "blue", "operative")]  # fmt: skip


def _table(slug: str) -> None:
    for name, team, role in LAYOUT:
        room_join(slug=slug, uid=f"{slug}-{name}", name=name)
        room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role=role)


def _act(slug: str, name: str, message: dict[str, Any]) -> None:
    """What the consumer does for one game message (one transaction, room row locked)."""
    with changes.locked_room(slug) as room:
        player = room.players.get(name=name)
        GAME.act(room, player, message)


def _state(slug: str) -> dict[str, Any]:
    return CodenamesGame.objects.filter(room__slug=slug).order_by("-number").first().state  # type: ignore[union-attr]


def _one_guess_left(slug: str) -> tuple[dict[str, Any], list[int]]:
    """Red on turn with clue number 1, one agent found: one guess (the +1) is left."""
    _table(slug)
    while True:
        _act(slug, "rosa", {"action": "start_game", "confirm": True})
        state = _state(slug)
        if state["team"] == "red":
            break
    _act(slug, "rosa", {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 1})
    state = _state(slug)
    reds = [i for i, who in enumerate(state["key"]) if who == "red"]
    _act(slug, "rui", {"action": "confirm", "turn": state["turn"], "position": reds[0]})
    state = _state(slug)
    assert state["guesses_left"] == 1 and state["phase"] == "guess"
    return state, reds[1:3]


def _covered(state: dict[str, Any]) -> int:
    return sum(1 for by in state["covered_by"] if by is not None)


def _race(slug: str, moves: list[tuple[str, dict[str, Any]]]) -> list[str]:
    """Run the moves in threads released together; the outcome of each ("ok" or a code)."""
    barrier = threading.Barrier(len(moves))
    results: list[str] = [""] * len(moves)

    def run(index: int, name: str, message: dict[str, Any]) -> None:
        try:
            barrier.wait()
            _act(slug, name, message)
            results[index] = "ok"
        except services.RoomError as error:
            results[index] = error.code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, n, m)) for i, (n, m) in enumerate(moves)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_cn16_racing_confirmations_apply_exactly_one() -> None:
    for round_ in range(5):
        slug = f"race-{round_}"
        state, (first, second) = _one_guess_left(slug)
        results = _race(
            slug,
            [
                ("rui", {"action": "confirm", "turn": state["turn"], "position": first}),
                ("ria", {"action": "confirm", "turn": state["turn"], "position": second}),
            ],
        )
        after = _state(slug)
        assert sorted(results) == ["ok", "stale"], results
        assert _covered(after) == _covered(state) + 1
        assert after["team"] == "blue"  # the +1 guess ended red's turn (CN-13)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are observed in pg_locks")
def test_cn16_second_confirmation_waits_for_the_row_lock_on_postgresql() -> None:
    """The second action blocks on the room's row until the first commits, then is re-checked."""
    slug = "race-lock"
    state, (first, second) = _one_guess_left(slug)
    holding, release = threading.Event(), threading.Event()
    outcome: dict[str, str] = {}

    def first_move() -> None:
        with changes.locked_room(slug) as room:
            GAME.act(
                room,
                room.players.get(name="rui"),
                {"action": "confirm", "turn": state["turn"], "position": first},
            )
            holding.set()
            release.wait(timeout=30)
        connections.close_all()

    def second_move() -> None:
        try:
            _act(slug, "ria", {"action": "confirm", "turn": state["turn"], "position": second})
            outcome["ria"] = "ok"
        except services.RoomError as error:
            outcome["ria"] = error.code
        finally:
            connections.close_all()

    a = threading.Thread(target=first_move)
    a.start()
    assert holding.wait(timeout=30)
    b = threading.Thread(target=second_move)
    b.start()
    # Wait (on the database's own word, not a timer) until the second backend is blocked.
    with connection.cursor() as cursor:
        for _ in range(10_000):
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            if cursor.fetchone()[0] > 0:
                break
        else:
            pytest.fail("the second confirmation never waited for the lock")
    assert "ria" not in outcome
    release.set()
    a.join(timeout=30)
    b.join(timeout=30)
    assert outcome["ria"] == "stale"
    assert _covered(_state(slug)) == _covered(state) + 1


# ---- two server processes, two sockets --------------------------------------------------


def _socket(stack: ExitStack, server: DaphneServer, slug: str, uid: str) -> Any:
    key = make_session(uid)
    ws = stack.enter_context(
        connect(
            f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": f"sessionid={key}"},
            open_timeout=10,
        )
    )
    socket = BrowserSocket(ws)
    socket.recv()
    return socket


def _until(ws: Any, predicate: Any) -> dict[str, Any]:
    while True:
        message = ws.recv()
        if predicate(message):
            return message


def test_cn16_two_sockets_on_two_servers_apply_exactly_one(redis_url: str) -> None:
    slug = "race-sockets"
    state, (first, second) = _one_guess_left(slug)
    with ExitStack() as stack:
        # Both servers stop inside the test: a server still writing (a socket's departure)
        # while pytest empties the tables can deadlock PostgreSQL's TRUNCATE.
        two_servers = (DaphneServer(redis_url).start(), DaphneServer(redis_url).start())
        for server in two_servers:
            stack.callback(server.stop)
        _race_sockets(stack, two_servers, slug, state, first, second)


def _race_sockets(
    stack: ExitStack,
    two_servers: tuple[DaphneServer, DaphneServer],
    slug: str,
    state: dict[str, Any],
    first: int,
    second: int,
) -> None:
    rui = _socket(stack, two_servers[0], slug, f"{slug}-rui")
    ria = _socket(stack, two_servers[1], slug, f"{slug}-ria")
    barrier = threading.Barrier(2)

    def send(ws: Any, position: int) -> None:
        barrier.wait()
        ws.send(
            json.dumps({"action": "confirm", "turn": state["turn"], "position": position, "ref": position})
        )

    threads = [
        threading.Thread(target=send, args=(rui, first)),
        threading.Thread(target=send, args=(ria, second)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    # Both screens, each served by its own process, end on red's turn over and one card more.
    finals = [
        _until(ws, lambda m: m.get("type") == "state" and m["play"]["team"] == "blue") for ws in (rui, ria)
    ]
    assert finals[0]["play"]["cards"] == finals[1]["play"]["cards"]
    assert sum(1 for c in finals[0]["play"]["cards"] if c["covered"]) == _covered(state) + 1
    assert _covered(_state(slug)) == _covered(state) + 1
    assert Player.objects.filter(room__slug=slug).count() == len(LAYOUT)
