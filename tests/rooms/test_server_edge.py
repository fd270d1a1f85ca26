"""What only the real server (Daphne) decides: broken frames are closed with a reason."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

pytestmark = pytest.mark.django_db(transaction=True)


def test_invalid_utf8_in_a_text_frame_is_closed_with_1007(daphne_server: Any) -> None:
    url = f"ws://127.0.0.1:{daphne_server.port}/ws/r/broken-utf8/"
    origin = f"http://127.0.0.1:{daphne_server.port}"
    with connect(url, origin=origin, open_timeout=10) as ws:
        ws.recv(timeout=10)
        ws.send(b'{"action": "ping", "x": "\xff\xfe"}', text=True)
        with pytest.raises(ConnectionClosedError):
            ws.recv(timeout=10)
        assert ws.close_code == 1007
    # The server goes on: the next socket is served.
    with connect(url, origin=origin, open_timeout=10) as ws:
        assert '"type":"state"' in ws.recv(timeout=10)


def test_a_frame_over_one_mib_is_closed_with_1009_and_one_under_is_answered(daphne_server: Any) -> None:
    url = f"ws://127.0.0.1:{daphne_server.port}/ws/r/huge-frame/"
    origin = f"http://127.0.0.1:{daphne_server.port}"
    with connect(url, origin=origin, open_timeout=10) as ws:
        ws.recv(timeout=10)
        # Under Daphne's 1 MiB: the room reads it and answers too_large, the socket open.
        ws.send('{"action": "ping", "x": "' + "x" * (1024 * 1024 - 100) + '", "ref": 3}')
        assert '"too_large"' in (answer := ws.recv(timeout=10)) and '"ref"' not in answer
        ws.send('{"action": "ping", "version": 0}')
        assert '"pong"' in ws.recv(timeout=10)
        # One byte over: Daphne (autobahn's maxMessagePayloadSize) closes it unread.
        ws.send("x" * (1024 * 1024 + 1))
        with pytest.raises(ConnectionClosedError):
            while True:
                ws.recv(timeout=10)
        assert ws.close_code == 1009
