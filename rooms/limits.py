"""Limits beyond one socket: per IP address (and per session for new rooms).

Counted with the ``limits`` library: in Redis when the site runs on Redis (so every
server process shares the counts), in this process's memory otherwise. Two limits are
counted in each process's memory whatever the setup, because they are checked on every
socket frame or held for a socket's lifetime: open sockets per IP, and messages per IP
across its sockets (a token bucket). Defaults suit a game night behind one home router,
where a dozen players share one address; every limit is settable (README).

Behind a reverse proxy, run Daphne with ``--proxy-headers`` so the client's address,
not the proxy's, is the one counted.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import defaultdict
from typing import Any

from django.conf import settings
from limits import parse, storage, strategies

from rooms import metrics

log = logging.getLogger(__name__)
_lock = threading.Lock()
_limiter: tuple[Any, strategies.RateLimiter] | None = None
# A limit check waits this long at most for Redis: a hung Redis must not hold up a
# handshake or a page (the check then lets the request through).
REDIS_TIMEOUT = 1.0
WARN_EVERY = 60.0  # seconds between two warnings that the counter's store is away
# After a failure the store is left alone this long: a hung Redis then costs one
# timeout now and then, not one on every handshake and page.
BACK_OFF = 10.0
_warned_at = -WARN_EVERY
_away_until = 0.0


def enabled() -> bool:
    return bool(getattr(settings, "RATE_LIMITS_ENABLED", True))


def _rate_limiter() -> strategies.RateLimiter:
    """The limiter for the current settings (rebuilt when they change, as in tests)."""
    global _limiter
    config = (
        settings.RATE_LIMITS_STORAGE,
        settings.REDIS_PREFIX,
        tuple(sorted(settings.RATE_LIMITS.items())),
    )
    with _lock:
        if _limiter is None or _limiter[0] != config:
            backend = _storage(settings.RATE_LIMITS_STORAGE)
            _limiter = (config, strategies.SlidingWindowCounterRateLimiter(backend))
        return _limiter[1]


def _storage(uri: str) -> storage.Storage:
    if not uri.startswith(("redis://", "rediss://", "redis+unix://")):
        return storage.storage_from_string(uri)
    # The deployment's own keys (REDIS_PREFIX): two sites on one Redis count apart.
    return storage.storage_from_string(
        uri,
        key_prefix=f"{settings.REDIS_PREFIX}:limits",
        socket_timeout=REDIS_TIMEOUT,
        socket_connect_timeout=REDIS_TIMEOUT,
    )


def hit(rule: str, *keys: str | None) -> bool:
    """Count one event against ``rule`` for ``keys``; False when the limit is reached.

    No key (a test's socket has no address) or limits turned off: always allowed.
    """
    global _away_until
    if not enabled() or not all(keys):
        return True
    if time.monotonic() < _away_until and not settings.RATE_LIMITS_STORAGE.startswith("memory"):
        return True
    written = settings.RATE_LIMITS.get(rule)
    if written is None:
        return True  # a rule this deployment's settings leave out limits nothing
    try:
        item = parse(written)
    except ValueError:
        # Written wrong (the system check rooms.E001 says so at start): nothing to count
        # against, and Redis is not to blame (no back-off for the other limits).
        return True
    try:
        allowed = _rate_limiter().hit(item, rule, *[str(k) for k in keys])
    except Exception:
        # The counter's store (Redis) is away: a game night goes on without limits.
        _away_until = time.monotonic() + BACK_OFF
        metrics.limit_store_failed()
        _warn_store_away()
        return True
    if not allowed:
        metrics.limit_refused(rule)
    return allowed


def wait(rule: str, *keys: str | None) -> float:
    """Seconds until ``rule`` lets ``keys`` through again (at least 1), for a refusal that
    says how long to wait; 1 when the store cannot tell."""
    try:
        item = parse(settings.RATE_LIMITS[rule])
        reset = _rate_limiter().get_window_stats(item, rule, *[str(k) for k in keys]).reset_time
    except Exception:
        return 1.0
    return max(1.0, float(math.ceil(reset - time.time())))


def _warn_store_away() -> None:
    """Said once a minute at most, however many checks fail meanwhile."""
    global _warned_at
    now = time.monotonic()
    if now - _warned_at >= WARN_EVERY:
        _warned_at = now
        log.warning("rate limits: the counter's store does not answer; requests are let through")


def client_ip(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


class ProcessCounts:
    """Open sockets and a message bucket per IP, in this process (checked on every frame)."""

    def __init__(self) -> None:
        self.open: defaultdict[str, int] = defaultdict(int)
        self.buckets: dict[str, tuple[float, float]] = {}
        # Addresses refused lately: refused again at once, without asking the shared
        # counter (a database thread and Redis) for every handshake of a flood.
        self.blocked: dict[str, float] = {}

    def block(self, ip: str | None, seconds: float = 10.0) -> None:
        if ip:
            self.blocked[ip] = time.monotonic() + seconds

    def is_blocked(self, ip: str | None) -> bool:
        until = self.blocked.get(ip or "")
        if until is None:
            return False
        if until < time.monotonic():
            self.blocked.pop(ip or "", None)
            return False
        metrics.limit_refused("blocked")
        return True

    def open_socket(self, ip: str | None) -> bool:
        if not ip or not enabled():
            return True
        if self.open[ip] >= settings.LIMIT_OPEN_SOCKETS_PER_IP:
            metrics.limit_refused("open_sockets_per_ip")
            return False
        self.open[ip] += 1
        return True

    def close_socket(self, ip: str | None) -> None:
        if ip and self.open.get(ip, 0) > 0:
            self.open[ip] -= 1
            if not self.open[ip]:
                del self.open[ip]
                self.buckets.pop(ip, None)

    def message(self, ip: str | None) -> bool:
        """A token bucket per IP: a burst of twice the rate, then the rate per second."""
        if not ip or not enabled():
            return True
        rate = float(settings.LIMIT_MESSAGES_PER_IP)
        now = time.monotonic()
        allowance, last = self.buckets.get(ip, (2 * rate, now))
        allowance = min(2 * rate, allowance + (now - last) * rate)
        if allowance < 1:
            self.buckets[ip] = (allowance, now)
            metrics.limit_refused("messages_per_ip")
            return False
        self.buckets[ip] = (allowance - 1, now)
        return True


COUNTS = ProcessCounts()
