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

import threading
import time
from collections import defaultdict
from typing import Any

from django.conf import settings
from limits import parse, storage, strategies

_lock = threading.Lock()
_limiter: tuple[Any, strategies.RateLimiter] | None = None


def enabled() -> bool:
    return bool(getattr(settings, "RATE_LIMITS_ENABLED", True))


def _rate_limiter() -> strategies.RateLimiter:
    """The limiter for the current settings (rebuilt when they change, as in tests)."""
    global _limiter
    config = (settings.RATE_LIMITS_STORAGE, tuple(sorted(settings.RATE_LIMITS.items())))
    with _lock:
        if _limiter is None or _limiter[0] != config:
            backend = storage.storage_from_string(settings.RATE_LIMITS_STORAGE)
            _limiter = (config, strategies.SlidingWindowCounterRateLimiter(backend))
        return _limiter[1]


def hit(rule: str, *keys: str | None) -> bool:
    """Count one event against ``rule`` for ``keys``; False when the limit is reached.

    No key (a test's socket has no address) or limits turned off: always allowed.
    """
    if not enabled() or not all(keys):
        return True
    try:
        return _rate_limiter().hit(parse(settings.RATE_LIMITS[rule]), rule, *[str(k) for k in keys])
    except Exception:
        # The counter's store (Redis) is away: a game night goes on without limits.
        return True


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
        return True

    def open_socket(self, ip: str | None) -> bool:
        if not ip or not enabled():
            return True
        if self.open[ip] >= settings.LIMIT_OPEN_SOCKETS_PER_IP:
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
            return False
        self.buckets[ip] = (allowance - 1, now)
        return True


COUNTS = ProcessCounts()
