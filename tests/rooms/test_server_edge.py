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
