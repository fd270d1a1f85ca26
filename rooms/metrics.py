"""Prometheus metrics of one server process, served at ``/metrics`` when ``METRICS=true``.

Each Daphne process keeps its own counts (and the clock process its own): Prometheus
scrapes each process on its own loopback port (``127.0.0.1:8001/metrics``…). The page is
never served through the proxy: the shipped nginx site refuses ``/metrics``, and a
request that carries ``X-Forwarded-For`` (one that came through a proxy) gets a 404.
The default registry also carries the process's CPU, memory and open descriptors.

Other modules call the small functions below, one line each, so the metric names live
here alone.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

_SOCKETS = Gauge("wordrooms_open_sockets", "Room sockets open on this process.")
_MOVES = Counter("wordrooms_moves_total", "Socket actions that changed a room (moves and lobby actions).")
_REFUSED = Counter("wordrooms_refused_total", "Socket actions answered with an error, by code.", ["code"])
_PUSHES = Counter("wordrooms_pushes_total", "Frames pushed to this process's sockets, by kind.", ["kind"])
_ACTION_SECONDS = Histogram(
    "wordrooms_action_seconds",
    "From a socket's action received to its answer and this process's pushes sent.",
    buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
_LIMITS = Counter("wordrooms_limit_refusals_total", "Requests refused by a limit, by limit.", ["limit"])
_LIMIT_STORE = Counter(
    "wordrooms_limit_store_failures_total",
    "Limit checks that failed on Redis and let the request through (each starts a pause).",
)
_CLOCK_LAG = Histogram(
    "wordrooms_clock_lag_seconds",
    "How late a clock pass started after the time it meant to wake at.",
    buckets=(0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
)
_CLOCK_PASS = Histogram(
    "wordrooms_clock_pass_seconds",
    "How long one clock pass took (deadlines, presence, bots).",
    buckets=(0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
)
_ROOMS = Gauge("wordrooms_rooms_followed", "Rooms with a socket on this process.")


def socket_opened() -> None:
    _SOCKETS.inc()


def socket_closed() -> None:
    _SOCKETS.dec()


def action_done(seconds: float, error: str | None) -> None:
    _ACTION_SECONDS.observe(seconds)
    if error is None:
        _MOVES.inc()
    else:
        _REFUSED.labels(error).inc()


def pushed(kind: str) -> None:
    """One frame sent to a socket: ``patch`` or ``state``."""
    _PUSHES.labels(kind).inc()


def limit_refused(limit: str) -> None:
    _LIMITS.labels(limit).inc()


def limit_store_failed() -> None:
    _LIMIT_STORE.inc()


def clock_pass(lag: float, seconds: float) -> None:
    _CLOCK_LAG.observe(max(0.0, lag))
    _CLOCK_PASS.observe(seconds)


def follow_rooms(count: Any) -> None:
    """``count()`` tells how many rooms this process serves (read at each scrape)."""
    _ROOMS.set_function(count)


def page() -> tuple[bytes, str]:
    return generate_latest(), CONTENT_TYPE_LATEST
