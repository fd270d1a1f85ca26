"""``/healthz`` and ``/readyz``, answered in front of Django.

A load balancer or systemd calls them on the process's own address (``127.0.0.1:8001``)
with whatever Host header it likes and over plain HTTP, so they are answered before
Django's Host check (ALLOWED_HOSTS) and HTTPS redirect could refuse them, and before
sessions, CSRF or templates cost anything.

- ``/healthz``: the process's event loop answers. Touches nothing.
- ``/readyz``: the database answers ``SELECT 1`` and, when ``REDIS_URL`` is set, Redis
  answers ``PING``, each within ``CHECK_TIMEOUT`` seconds (so a hung one costs under a
  second), and this deployment's Redis prefix is not another database's
  (rooms/deployment.py); 200, or 503 naming what failed (``{"database": "ok", "redis":
  "down"}``, ``"deployment": "conflict"``). No error text: it could carry an address or a
  password.

The database check runs on a thread of its own that keeps its connection, so a probe
every few seconds opens no connection, and a hung database cannot tie up the threads
that serve the players' moves.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings

CHECK_TIMEOUT = 0.8  # seconds each dependency gets to answer: /readyz answers within 1 s
PATHS = ("/healthz", "/readyz", "/metrics")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_executor: ThreadPoolExecutor | None = None
_redis: Any = None
_identity: str | None = None  # this process's database (rooms.deployment), read once


def _database_thread_setup() -> None:
    """The check's thread keeps its connection and gives up connecting quickly."""
    from django.db import connections

    connection = connections["default"]
    options = dict(connection.settings_dict.get("OPTIONS", {}))
    if connection.vendor == "postgresql":
        options["connect_timeout"] = 1  # whole seconds (0 would wait forever)
    connection.settings_dict = {
        **connection.settings_dict,
        "CONN_MAX_AGE": None,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
    }


def _select_one() -> None:
    global _identity
    from django.db import close_old_connections, connection

    # Drops a connection found broken last time, so a database back up is seen again.
    close_old_connections()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        if _identity is None and settings.REDIS_URL and getattr(settings, "DEPLOYMENT_GUARD", True):
            from rooms import deployment

            _identity = deployment.identity()
    except Exception:
        # A broken connection must not be kept for the next probe.
        connection.close()
        raise


async def database_ok() -> bool:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="readyz", initializer=_database_thread_setup
        )
    loop = asyncio.get_running_loop()
    try:
        await asyncio.wait_for(loop.run_in_executor(_executor, _select_one), CHECK_TIMEOUT)
    except Exception:
        return False
    return True


async def redis_ok() -> tuple[bool | None, bool]:
    """Whether Redis answers (None when the site runs without Redis), and whether this
    deployment's prefix is another database's (known once the database answered)."""
    global _redis
    if not settings.REDIS_URL:
        return None, False
    import redis.asyncio

    from rooms import deployment

    loop = asyncio.get_running_loop()
    if _redis is None or _redis[0] is not loop:
        client = redis.asyncio.Redis.from_url(
            settings.REDIS_URL,
            socket_connect_timeout=CHECK_TIMEOUT,
            socket_timeout=CHECK_TIMEOUT,
            max_connections=2,
        )
        _redis = (loop, client)
    mine = _identity
    pipe = _redis[1].pipeline(transaction=False)
    pipe.ping()
    if mine is not None:
        # Claimed again if Redis lost it (a restart): the prefix stays this database's.
        pipe.set(deployment.key(), mine, nx=True, ex=deployment.CLAIM_SECONDS)
        pipe.get(deployment.key())
    try:
        answers = await asyncio.wait_for(pipe.execute(), CHECK_TIMEOUT)
    except Exception:
        return False, False
    try:
        if mine is not None:
            deployment.decide(mine, answers[2])
    except deployment.Conflict:
        return True, True
    return bool(answers[0]), False


async def readiness() -> tuple[int, dict[str, str]]:
    # Side by side: a hung one costs CHECK_TIMEOUT, not the sum. The database's identity,
    # read by its first answered probe, is checked against Redis from the next one on.
    database, (redis, conflict) = await asyncio.gather(database_ok(), redis_ok())
    body = {"database": "ok" if database else "down"}
    if redis is not None:
        body["redis"] = "ok" if redis else "down"
    if conflict:
        body["deployment"] = "conflict"
    ready = database and redis is not False and not conflict
    return (200 if ready else 503), {"status": "ok" if ready else "unavailable", **body}


async def _answer(send: Send, status: int, body: dict[str, str], head: bool) -> None:
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b"" if head else payload})


async def _metrics(scope: Scope, send: Send, head: bool) -> None:
    """``/metrics`` (rooms/metrics.py): only with METRICS on, and never to a request that
    came through a proxy (it carries X-Forwarded-For): a 404, as if there were none."""
    proxied = {b"x-forwarded-for", b"x-real-ip", b"forwarded"}
    forwarded = any(name in proxied for name, _value in scope.get("headers", []))
    if not settings.METRICS or forwarded:
        await _answer(send, 404, {"status": "not found"}, head)
        return
    from rooms import metrics

    body, content_type = metrics.page()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", content_type.encode()), (b"cache-control", b"no-store")],
        }
    )
    await send({"type": "http.response.body", "body": b"" if head else body})


def with_health_checks(app: ASGIApp) -> ASGIApp:
    """``app`` with ``/healthz`` and ``/readyz`` answered before it sees the request."""

    async def health_app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in PATHS:
            await app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD"):
            await _answer(send, 405, {"status": "method not allowed"}, False)
            return
        if scope["path"] == "/metrics":
            await _metrics(scope, send, method == "HEAD")
        elif scope["path"] == "/healthz":
            await _answer(send, 200, {"status": "ok"}, method == "HEAD")
        else:
            status, body = await readiness()
            await _answer(send, status, body, method == "HEAD")

    return health_app
