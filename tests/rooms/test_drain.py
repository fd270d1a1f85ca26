"""SIGTERM drains a real Daphne: 1012 to its sockets, its players counted out at once."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
from pathlib import Path
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
            # A push already under way (the version check's) may come first; the pong follows.
            kinds = [bea.recv()["type"]]
            while kinds[-1] != "pong" and len(kinds) < 5:
                kinds.append(bea.recv()["type"])
            assert kinds[-1] == "pong", kinds
            assert set(kinds[:-1]) <= {"state", "patch"}, kinds
    finally:
        stopped.stop()
        other.stop()
    assert Player.objects.get(uid=staying).connections == 0


def _slow_socket(server: DaphneServer, slug: str, uid: str) -> socket.socket:
    """A browser that opens its socket, then reads nothing more: the server's close
    frame stays unanswered, so its side of the socket is closing while the drain pushes."""
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    raw.sendall(
        (
            f"GET /ws/r/{slug}/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{server.port}\r\n"
            f"Cookie: sessionid={make_session(uid)}\r\n\r\n"
        ).encode()
    )
    received = b""
    while b'"type":"state"' not in received:  # opened, and sent the room
        received += raw.recv(65536)
    return raw


def test_a_drain_logs_one_line_and_no_failed_push_to_its_closing_sockets(
    redis_url: str, tmp_path: Path
) -> None:
    slug = "drain-quietly"
    uids = [new_uid() for _ in range(4)]
    for i, uid in enumerate(uids):
        room_join(slug=slug, uid=uid, name=f"P{i}")
    with open(tmp_path / "server.log", "w+b") as log:
        server = DaphneServer(redis_url, stderr=log).start()
        try:
            sockets = [_slow_socket(server, slug, uid) for uid in uids]
            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            assert server.proc.wait(timeout=20) == 0
            server.proc = None
            for raw in sockets:
                raw.close()
        finally:
            server.stop()
        log.seek(0)
        lines = [line for line in log.read().decode().splitlines() if not line.startswith("127.0.0.1:")]
    print(f"\ndrain of {len(uids)} sockets wrote {len(lines)} log lines: {lines}")
    assert not any("push to a socket failed" in line or "Traceback" in line for line in lines), lines
    assert sum("drained in" in line for line in lines) == 1
    assert "4 players counted out in 1 rooms" in next(line for line in lines if "drained in" in line)
