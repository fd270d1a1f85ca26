"""A clean stop on SIGTERM: players move to another process at once, presence stays right.

Left to itself, Daphne answers SIGTERM by cancelling every application: sockets drop
without a close frame (the browser sees 1006 and waits out its backoff) and no
disconnect code runs, so the other processes show those players present until the
clock's presence sweep (a minute). Here Daphne's shutdown step first drains:

1. stop listening, so the proxy sends new connections to the other processes;
2. take this process's room sockets out of play: no new frame starts a move (one that
   arrives is not applied; the page resends it on its next socket under its ``id``,
   applied at most once: rooms.receipts), and their players are counted out here, once
   (their own disconnect then counts nothing);
3. close every WebSocket with 1012 ("service restart"): the page reconnects at once,
   without its backoff, and the proxy hands it to another process;
4. clear those players' presence in the database and push the rooms whose players now
   show away (the push reaches the other processes through Redis);
5. wait until every request and move under way has finished (``DRAIN_TIMEOUT`` at most;
   a socket that finished its handshake meanwhile is drained too), then retire the
   process's presence row (``rooms.presence``);

then Daphne's own shutdown goes on and the process exits 0.

Installed by ``config/asgi.py``; Daphne runs on Twisted's asyncio reactor, so all of
this runs on the loop that serves the sockets.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from rooms import presence

log = logging.getLogger(__name__)

DRAIN_TIMEOUT = 10.0  # seconds the requests and moves under way get to finish
SERVICE_RESTART = 1012
REASON = b"server restart"


def install() -> None:
    """Make Daphne drain before its shutdown cancels the applications (once per process)."""
    from daphne.server import Server

    original = Server.kill_all_applications
    if getattr(original, "drains_first", False):
        return

    def kill_all_applications(server: Server) -> Any:
        from twisted.internet import defer

        drained = defer.Deferred.fromFuture(asyncio.ensure_future(drain(server)))
        drained.addErrback(lambda failure: log.error("drain failed: %s", failure.getTraceback()))
        drained.addBoth(lambda _: original(server))
        return drained

    kill_all_applications.drains_first = True  # type: ignore[attr-defined]
    Server.kill_all_applications = kill_all_applications


def stop_listening() -> int:
    """Close this process's listening ports (TCP or UNIX); how many."""
    from twisted.internet import reactor, tcp

    readers = reactor.getReaders()  # type: ignore[misc]
    ports = [reader for reader in readers if isinstance(reader, tcp.Port)]
    for port in ports:
        port.stopListening()
    return len(ports)


def room_sockets() -> list[Any]:
    """The room sockets this process serves (``rooms.hub`` keeps them by room)."""
    from rooms import hub

    local = hub._hubs.get(asyncio.get_running_loop())
    if local is None:
        return []
    return [socket for room in list(local.rooms.values()) for socket in list(room.sockets)]


def close_websockets(server: Any) -> int:
    """Send every open WebSocket a 1012 close frame; how many.

    Below Daphne's ``websocket.close``, which lets an application send only 1000 or
    3000–4999: the browser must see the standard "service restart" code.
    """
    from daphne.ws_protocol import WebSocketProtocol

    closed = 0
    for protocol in list(server.connections):
        if isinstance(protocol, WebSocketProtocol) and protocol.state == WebSocketProtocol.STATE_OPEN:
            protocol.sendCloseFrame(code=SERVICE_RESTART, reasonUtf8=REASON, isReply=False)
            closed += 1
    return closed


def _count_out(players: list[tuple[int, str]], process: presence.Process) -> list[str]:
    """Count each player's socket out; the rooms where someone now shows away."""

    return sorted({slug for pk, slug in players if presence.presence_close(pk=pk, process=process)})


def _hub() -> Any:
    from rooms import hub

    return hub._hubs.get(asyncio.get_running_loop())


async def clear_presence(players: list[tuple[int, str]]) -> int:
    """Count ``players`` (pk, room) out and push the rooms whose players now show away."""
    from rooms import db

    local = _hub()
    if not players or local is None:
        return 0
    rooms = await db.run_in_pool(_count_out)(players, local.process)
    await _push_presence(rooms)
    return len(rooms)


async def _push_presence(rooms: list[str]) -> None:
    from rooms import db, hub

    for slug in rooms:
        pushes: list[dict[str, Any]] = []
        try:
            await db.call_collecting(pushes, presence.presence_refresh, slug=slug)
        except Exception:
            log.exception("room %s: presence push on drain failed", slug)
        for snapshot in pushes:
            await hub.publish(snapshot)


async def retire_presence() -> None:
    """This process counts no socket any more: its presence rows go now, not when the
    others find it stopped beating (rooms.presence)."""
    from rooms import db

    local = _hub()
    if local is None:
        return
    try:
        rooms = await db.run_in_pool(presence.presence_retire)(local.process)
    except Exception:
        log.exception("presence: retiring this process failed (the others drop it shortly)")
        return
    await _push_presence(sorted(rooms))


def _running(server: Any) -> list[asyncio.Future[Any]]:
    return [
        details["application_instance"]
        for details in list(server.connections.values())
        if "application_instance" in details and not details["application_instance"].done()
    ]


async def drain(server: Any) -> None:
    """Steps 1–5 above. Steps 2–4 repeat until the end: a handshake that was under way
    when listening stopped opens a socket afterwards, and it is drained like the rest."""
    started = time.monotonic()
    stop_listening()
    drained: set[Any] = set()
    closed = counted = rooms = 0
    while True:
        players: list[tuple[int, str]] = []
        for socket in room_sockets():
            if socket in drained:
                continue
            drained.add(socket)
            # Frames still arriving start no move: answered "draining" if the socket can
            # still carry it, else resent by the page on its next socket (rooms.consumers).
            socket.closing = socket.draining = True
            if socket.player_pk is not None:
                players.append((socket.player_pk, socket.slug))
                socket.player_pk = None  # counted out here: its disconnect must not count again
        closed += close_websockets(server)
        rooms += await clear_presence(players)
        counted += len(players)
        running = _running(server)
        left = DRAIN_TIMEOUT - (time.monotonic() - started)
        if not running or left <= 0:
            break
        await asyncio.wait(running, timeout=min(0.1, left))
    await retire_presence()
    log.warning(
        "drained in %.2f s: %d sockets closed with %d, %d players counted out in %d rooms%s",
        time.monotonic() - started,
        closed,
        SERVICE_RESTART,
        counted,
        rooms,
        f", {len(running)} still running were cancelled" if running else "",
    )
