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
    """One pass over every game's due deadlines; how many were applied."""
    from rooms.services import presence_sweep

    now = time.time() if now is None else now
    applied = 0
    for name in game_names():
        applied += get_game(name).expire_due(now)
    # Players counted by a server that died show away once their grace has passed.
    presence_sweep()
    return applied


def _run(interval: float) -> None:
    while True:
        try:
            close_old_connections()
            sweep()
        except Exception:
            log.exception("game clock sweep failed")
        time.sleep(interval)


def start(interval: float = 1.0) -> None:
    """Start the clock thread once per process."""
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=_run, args=(interval,), name="game-clock", daemon=True).start()
