"""SIGTERM drains a real Daphne: 1012 to its sockets, its players counted out at once."""

from __future__ import annotations

import json
import signal
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from rooms.models import Player
from rooms.services import new_uid, room_join
from tests.conftest import BrowserSocket, DaphneServer, make_session

pytestmark = pytest.mark.django_db(transaction=True)


def open_socket(server: DaphneServer, slug: str, uid: str) -> ClientConnection:
    session = make_session(uid)
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
        origin=f"http://127.0.0.1:{server.port}",
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=10,
    )


def connected_marks(state: dict[str, Any]) -> dict[str, bool]:
    return {p["name"]: p["connected"] for p in state["players"]}


def test_sigterm_closes_sockets_with_1012_and_counts_their_players_out(redis_url: str) -> None:
    slug = "drain-on-sigterm"
    leaving, staying = new_uid(), new_uid()
    room_join(slug=slug, uid=leaving, name="Ada")
    room_join(slug=slug, uid=staying, name="Bea")
    stopped = DaphneServer(redis_url).start()
    other = DaphneServer(redis_url).start()
    try:
        with open_socket(stopped, slug, leaving) as ws_a, open_socket(other, slug, staying) as ws_b:
            ws_a.recv(timeout=10)
            bea = BrowserSocket(ws_b)
            state = bea.recv()
            while connected_marks(state) != {"Ada": True, "Bea": True}:
                state = bea.recv()
            assert Player.objects.get(uid=leaving).connections == 1

            assert stopped.proc is not None
            stopped.proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed):
                while True:
                    ws_a.recv(timeout=10)
            assert ws_a.close_code == 1012  # "service restart", not 1006
            assert ws_a.close_reason == "server restart"
            assert stopped.proc.wait(timeout=20) == 0
            stopped.proc = None
            # Counted out before the process exited, not a minute later by the clock.
            assert Player.objects.get(uid=leaving).connections == 0
            # And the other process's socket was told (through Redis) within 2 s.
            state = bea.recv(timeout=2)
            while connected_marks(state) != {"Ada": False, "Bea": True}:
                state = bea.recv(timeout=2)
            ws_b.send(json.dumps({"action": "ping", "version": state["version"]}))
            assert bea.recv()["type"] == "pong"
    finally:
        stopped.stop()
        other.stop()
    assert Player.objects.get(uid=staying).connections == 0
