"""The access log: one line per request and two per socket, in the site's log format.

Daphne's own access log is plain text whatever ``LOG_FORMAT`` says, and writes a device
link's secret path, so the units run Daphne with ``-v 0`` and this writes the access log
instead, through the site's handler (config/logs.py): JSON with ``LOG_FORMAT=json``, a
device link's token cut, only with ``ACCESS_LOG=true``. Each request or socket gets an
id (``r…`` or ``s…``) that every line of its work carries, with the client's address as
Daphne resolved it from the proxy's ``X-Forwarded-For`` (a 429's warning names it too).

- a request: ``GET /r/friday/ 200 5120 B 12 ms``; ``/healthz``, ``/readyz`` and
  ``/metrics`` are not logged (monitors call them every few seconds);
- a socket: ``socket open /ws/r/friday/`` when accepted (``socket refused …`` when
  not), ``socket closed /ws/r/friday/: 1001 after 62.3 s`` when it ends.

The query string is never written (a path is all an operator needs).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from time import monotonic
from typing import Any

from config.logs import ACCESS_LOGGER, Work, current_work, scrub

log = logging.getLogger(ACCESS_LOGGER)

Scope = dict[str, Any]
Message = dict[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]
QUIET = ("/healthz", "/readyz", "/metrics")


def new_id(kind: str) -> str:
    return kind + secrets.token_hex(4)


def with_access_log(app: ASGIApp) -> ASGIApp:
    """``app`` with each request and socket named and logged."""

    async def access_app(scope: Scope, receive: Callable[[], Awaitable[Message]],
                         send: Callable[[Message], Awaitable[None]]) -> None:  # fmt: skip
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        client = scope.get("client")
        work = Work(new_id("r" if kind == "http" else "s"), str(client[0]) if client else None,
                    asyncio.current_task())  # fmt: skip
        token = current_work.set(work)
        path = scrub(scope.get("path", ""))
        started = monotonic()
        seen: dict[str, Any] = {"status": None, "bytes": 0, "code": None, "open": False}

        async def logged_send(message: Message) -> None:
            what = message["type"]
            if what == "http.response.start":
                seen["status"] = message["status"]
            elif what == "http.response.body":
                seen["bytes"] += len(message.get("body", b""))
            elif what == "websocket.accept":
                seen["open"] = True
                log.info("socket open %s", path, extra={"access": {"path": path, "event": "open"}})
            elif what == "websocket.close" and seen["code"] is None:
                seen["code"] = message.get("code", 1000)
            await send(message)

        async def logged_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.disconnect" and seen["code"] is None:
                seen["code"] = message.get("code")
            return message

        try:
            await app(scope, logged_receive, logged_send)
        finally:
            seconds = monotonic() - started
            if kind == "http" and path not in QUIET:
                method, status, size = scope.get("method", ""), seen["status"], seen["bytes"]
                fields = {"method": method, "path": path, "status": status, "bytes": size,
                          "ms": round(seconds * 1000, 1)}  # fmt: skip
                log.info("%s %s %s %d B %.0f ms", method, path, status, size, seconds * 1000,
                         extra={"access": fields})  # fmt: skip
            elif kind == "websocket" and seen["open"]:
                fields = {"path": path, "event": "closed", "code": seen["code"], "seconds": round(seconds, 1)}
                log.info(
                    "socket closed %s: %s after %.1f s", path, seen["code"], seconds, extra={"access": fields}
                )
            elif kind == "websocket":
                fields = {"path": path, "event": "refused", "code": seen["code"]}
                log.info("socket refused %s: %s", path, seen["code"], extra={"access": fields})
            current_work.reset(token)

    return access_app
