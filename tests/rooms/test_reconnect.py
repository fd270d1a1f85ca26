"""The page on a server restart: a 1012 close reconnects at once, without the veil."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.rooms.test_browser import _join

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """() => {
  window.connStates = [];
  window.veilChanges = 0;
  // Each change's previous state (two changes in one task come as one callback).
  const conn = document.getElementById('conn');
  new MutationObserver((records) => { for (const r of records) window.connStates.push(r.oldValue); })
    .observe(conn, {attributes: true, attributeFilter: ['data-state'], attributeOldValue: true});
  new MutationObserver((records) => { window.veilChanges += records.length; })
    .observe(document.getElementById('offline'), {attributes: true, attributeFilter: ['hidden']});
}"""


def test_a_1012_close_reconnects_at_once_and_any_other_waits_behind_the_veil(
    daphne_server: Any, open_page: Any
) -> None:
    sockets: list[Any] = []

    def pass_through(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page = open_page()
    page.route_web_socket(re.compile(r"/ws/"), pass_through)
    _join(page, f"{daphne_server.url}/r/restart-reconnect/", "Ada")
    page.evaluate(WATCH)
    opened = len(sockets)  # the visitor's socket before the join, then the player's

    sockets[-1].close(code=1012, reason="server restart")
    page.wait_for_function("() => window.connStates.length === 3", timeout=5000)
    assert page.get_attribute("#conn", "data-state") == "open"
    assert len(sockets) == opened + 1
    assert page.evaluate("window.connStates") == ["open", "closed", "connecting"]
    assert page.evaluate("window.veilChanges") == 0  # no "Reconnecting in N s"

    # Any other close keeps the backoff: the veil shows its countdown first.
    sockets[-1].close(code=4000, reason="network gone")
    page.wait_for_function("() => window.connStates.length === 6", timeout=10000)
    assert page.get_attribute("#conn", "data-state") == "open"
    assert len(sockets) == opened + 2
    assert page.evaluate("window.veilChanges") == 2  # shown, then hidden once open
