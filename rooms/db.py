"""Database work from the event loop: a pool of threads, each with its own connection.

Channels' ``database_sync_to_async`` runs every call of the process on one shared
thread, so under a crowd every socket's database work queues behind every other's.
Here calls run on a small pool instead; each thread keeps its own persistent
connection (``CONN_MAX_AGE``), so a call does not open and close a connection either.

A call may also collect the room pushes its transaction produced (see
``rooms.changes.publish_after_commit``): the caller sends them from the event loop
once the call returns, after the commit, without a hop back across threads.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_executor: ThreadPoolExecutor | None = None

# While a pooled call runs, the pushes its committed transactions produced.
pending_pushes: contextvars.ContextVar[list[dict[str, Any]] | None] = contextvars.ContextVar(
    "pending_pushes", default=None
)


def pool_size() -> int:
    """Threads for database work: one on SQLite (one writer at a time anyway, and its
    busy-wait sleeps would add latency), several on a server database."""
    configured = getattr(settings, "DB_THREADS", 0)
    if configured:
        return int(configured)
    engine = settings.DATABASES["default"]["ENGINE"]
    return 1 if engine.endswith("sqlite3") else 2


def _keep_connections() -> None:
    """A pool thread keeps its connection for ``DB_POOL_CONN_MAX_AGE`` seconds.

    The setting's ``CONN_MAX_AGE`` stays 0 for everything else: under ASGI each HTTP
    request runs on a thread of its own, so a persistent connection there would be left
    open by every request thread (Django's advice; measured: PostgreSQL ran out of
    connections). The connection object is this thread's own, so only it changes.
    """
    from django.db import connections

    connection = connections["default"]
    connection.settings_dict = {
        **connection.settings_dict,
        "CONN_MAX_AGE": getattr(settings, "DB_POOL_CONN_MAX_AGE", 600),
        # No "SELECT 1" before every call (each call is a "request" to Django): a broken
        # connection fails one call, is found unusable after it, and is replaced.
        "CONN_HEALTH_CHECKS": False,
    }


def executor() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(
            max_workers=pool_size(), thread_name_prefix="db", initializer=_keep_connections
        )
    return _executor


def run_in_pool(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` as a coroutine function that runs on the database pool."""
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=executor())  # type: ignore[return-value]


def start_in_pool(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> Future[R]:
    """Start ``func`` on the pool; it runs to its end whatever becomes of the caller.

    For work that must not be lost with a socket Daphne cancels: a ``run_in_pool`` call
    whose caller is cancelled while it waits for a free thread never runs at all.
    """
    from django.db import close_old_connections

    def call() -> R:
        # What Channels' DatabaseSyncToAsync does around each call: a broken or aged
        # connection is replaced, not reused.
        close_old_connections()
        try:
            return func(*args, **kwargs)
        finally:
            close_old_connections()

    return executor().submit(call)


async def run_to_end(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``func`` on the pool, awaited; cancelling the caller does not stop it (nor keep it
    from starting)."""
    return await asyncio.shield(asyncio.wrap_future(start_in_pool(func, *args, **kwargs)))


async def call_collecting(
    collected: list[dict[str, Any]], func: Callable[..., R], *args: Any, **kwargs: Any
) -> R:
    """Run ``func`` on the pool, appending to ``collected`` the pushes its commits produced.

    The list is the caller's, so the pushes of a transaction that committed before the
    call raised (a deadline applied on the way to a refused move) are not lost.
    """

    def wrapped() -> R:
        token = pending_pushes.set(collected)
        try:
            return func(*args, **kwargs)
        finally:
            pending_pushes.reset(token)

    return await run_in_pool(wrapped)()


_closers: list[Callable[[], None]] = []


def at_close(close: Callable[[], None]) -> None:
    """Also run ``close`` when the pool's connections are closed (a thread of another
    module that keeps a connection of its own)."""
    _closers.append(close)


def close_pool_connections() -> None:
    """Close every pool thread's connection, and the presence thread's (before a test
    database is dropped)."""
    global _executor
    for close in _closers:
        close()
    if _executor is None:
        return
    from django.db import connections

    pool, _executor = _executor, None
    size = pool._max_workers
    barrier = threading.Barrier(size)

    def close() -> None:
        # Each worker waits for the others, so every thread runs exactly one of these.
        barrier.wait(timeout=10)
        connections.close_all()

    for future in [pool.submit(close) for _ in range(size)]:
        future.result(timeout=20)
    pool.shutdown(wait=True)


class Outage:
    """One log line when the database goes away and one when it is back, for a loop that
    retries every few seconds (the clock, the hub's check): not a traceback per try.

    Any other error is a bug, and logged with its traceback each time.
    """

    def __init__(self, logger: logging.Logger, what: str) -> None:
        self.log = logger
        self.what = what
        self.away_since: float | None = None
        self.failures = 0

    def failed(self, error: BaseException) -> None:
        """A try failed with ``error`` (called from its ``except`` block)."""
        import time

        from django.db import InterfaceError, OperationalError

        if not isinstance(error, OperationalError | InterfaceError):
            self.log.exception("%s failed", self.what)
            return
        self.failures += 1
        if self.away_since is None:
            self.away_since = time.monotonic()
            # What the driver said ("connection refused", "terminating connection", a lock
            # timeout): its first line only, config.logs keeps the rest out of the log.
            self.log.warning("%s: database away (%s: %s)", self.what, type(error).__name__, error)

    def succeeded(self) -> None:
        """A try went through: the database is back if it was away."""
        import time

        if self.away_since is not None:
            self.log.warning(
                "%s: database back after %.0f s (%d tries failed)",
                self.what,
                time.monotonic() - self.away_since,
                self.failures,
            )
            self.away_since, self.failures = None, 0
