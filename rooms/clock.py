"""The server's clock: applies game deadlines even when no browser is open.

Every server process runs one; with several processes they race harmlessly, because
each sweep locks the room's row and re-checks the deadline before changing anything.
"""

from __future__ import annotations

import logging
import threading
import time

from django.db import close_old_connections

from rooms.games import game_names, get_game

log = logging.getLogger(__name__)
_started = threading.Event()


def sweep(now: float | None = None) -> int:
    """One pass over every game's due deadlines and bots; how many moves were made."""
    from rooms.services import presence_sweep

    now = time.time() if now is None else now
    applied = 0
    for name in game_names():
        applied += get_game(name).expire_due(now)
    # Players counted by a server that died show away once their grace has passed.
    presence_sweep()
    # AI teammates make their moves on this clock (no browser needed, restarts forgotten).
    from bots.play import step

    applied += step(now)
    return applied


PURGE_EVERY = 3600.0  # seconds between retention passes


def purge() -> int:
    """Delete the rooms idle past the retention period (ROOM_RETENTION_DAYS)."""
    from django.conf import settings

    from rooms.services import purge_rooms

    return purge_rooms(days=settings.ROOM_RETENTION_DAYS)


def _run(interval: float) -> None:
    purged_at = 0.0
    while True:
        try:
            close_old_connections()
            sweep()
            if time.monotonic() - purged_at > PURGE_EVERY:
                purged_at = time.monotonic()
                purge()
        except Exception:
            log.exception("game clock sweep failed")
        time.sleep(interval)


def start(interval: float = 1.0) -> None:
    """Start the clock thread once per process."""
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=_run, args=(interval,), name="game-clock", daemon=True).start()
