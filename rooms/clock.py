"""The site's clock: game deadlines, AI teammates, presence left unbacked and the hourly purge.

In production it runs once for the whole site, in its own process (``manage.py clock``,
``deploy/systemd/wordrooms-clock.service``), and the Daphne processes run with
``GAME_CLOCK=false``: bot thinking then never shares a thread or a GIL with the sockets.
``make run`` keeps it as a thread inside its one Daphne process (``GAME_CLOCK`` defaults
on), so a laptop needs one command.

Idle, one pass is one read-only transaction on the connection the clock keeps: what is
due now, and when the next deadline or bot move will be. The clock sleeps until then,
or ``POLL_EVERY`` at most: every deadline is set at least 15 s ahead (Decrypto's
shortest timer) and a bot waits ``BOT_THINK_SECONDS`` after a change, so a poll sees
each before it is due and the clock wakes on time for it. Rooms are locked with
``SKIP LOCKED``: two clocks (or a clock and a player's move) never queue behind each
other, and each re-checks under the lock before changing anything.
"""

from __future__ import annotations

import logging
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Protocol

from django.db import close_old_connections, connection, transaction

from rooms import db, metrics
from rooms.games import game_names, get_game

log = logging.getLogger(__name__)
_started = threading.Event()

POLL_EVERY = 2.0  # seconds between passes with nothing due sooner
PURGE_EVERY = 3600.0  # seconds between retention passes (rooms, expired sessions)
BOT_BUDGET = 0.5  # seconds of bot moves per pass before deadlines are looked at again
WAKE_MARGIN = 0.005  # wake just after a due time, not just before it
APPLICATION_NAME = "wordrooms-clock"


class Player(Protocol):
    """Players that move on the clock (an app's AI teammates, bots/apps.py registers
    them): rooms/ knows them only through these three calls."""

    def due_rooms(self, now: float) -> list[str]:
        """The rooms where one of them may move now."""

    def next_due(self, now: float) -> float | None:
        """When one of them will next be due (Unix seconds), if ever."""

    def step(self, now: float, due: list[str], budget: float | None) -> int:
        """Move in ``due`` for at most ``budget`` seconds; how many moves were made."""


_PLAYERS: list[Player] = []


def register_player(player: Player) -> None:
    _PLAYERS.append(player)


@dataclass
class Due:
    """What one pass found: the work due now, and when the next will be."""

    deadlines: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    bot_rooms: list[tuple[Player, list[str]]] = field(default_factory=list)
    stale_presence: bool = False
    next_at: float | None = None  # Unix seconds of the next deadline or bot move


def find_due(now: float) -> Due:
    """Everything due at ``now``, in one transaction (an idle pass is one commit)."""
    from django.utils import timezone

    from rooms.models import PRESENCE_GRACE
    from rooms.models import Player as RoomPlayer
    from rooms.play import due_deadlines, next_deadline
    from rooms.presence import presence_database_seen

    due = Due()
    upcoming: list[float | None] = []
    # One transaction on PostgreSQL (one commit instead of one per query); SQLite reads
    # in autocommit, since its transactions here begin IMMEDIATE and would take the
    # write lock from the players' moves.
    with nullcontext() if connection.vendor == "sqlite" else transaction.atomic():
        for name in game_names():
            game = get_game(name)
            due.deadlines[name] = due_deadlines(game, now)
            upcoming.append(next_deadline(game, now))
        for player in _PLAYERS:
            rooms = player.due_rooms(now)
            if rooms:
                due.bot_rooms.append((player, rooms))
            upcoming.append(player.next_due(now))
        # Counts nobody vouched for during the grace period (the sweep keeps those its
        # processes' rows back: rooms.presence).
        cutoff = timezone.now() - PRESENCE_GRACE
        due.stale_presence = RoomPlayer.objects.filter(connections__gt=0, last_seen__lt=cutoff).exists()
    # The pass read the database: the sweep waits a grace period after any outage.
    presence_database_seen()
    due.next_at = min((at for at in upcoming if at is not None), default=None)
    return due


def work(due: Due, now: float, budget: float | None = None) -> int:
    """Do what ``due`` found; how many game moves were made (deadlines and bots)."""
    from rooms.presence import presence_sweep

    applied = 0
    for name, found in due.deadlines.items():
        if found:
            applied += get_game(name).expire_due(now, found)
    if due.stale_presence:
        presence_sweep()
    # AI teammates make their moves on this clock (no browser needed, restarts forgotten);
    # a pass gives them BOT_BUDGET seconds, then looks at the deadlines again.
    for player, rooms in due.bot_rooms:
        applied += player.step(now, rooms, budget)
    return applied


def sweep(now: float | None = None) -> int:
    """One pass over every game's due deadlines and bots; how many moves were made."""
    now = time.time() if now is None else now
    return work(find_due(now), now)


def purge() -> int:
    """Delete the rooms idle past the retention period (ROOM_RETENTION_DAYS) and the
    expired sessions (what ``manage.py clearsessions`` does)."""
    from importlib import import_module

    from django.conf import settings

    from rooms.operators import purge_rooms

    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
    return purge_rooms(days=settings.ROOM_RETENTION_DAYS)


def keep_connection() -> None:
    """This thread's database connection lives as long as the clock.

    No health check before each pass either: on PostgreSQL that is a ``SELECT 1``, a
    transaction of its own. A broken connection fails one pass, is found unusable after
    it (``close_old_connections``) and replaced.
    """
    from django.db import connections

    connection = connections["default"]
    options = dict(connection.settings_dict.get("OPTIONS", {}))
    if connection.vendor == "postgresql":
        # Named in pg_stat_activity, for operators (and the test that counts its sessions).
        options.setdefault("application_name", APPLICATION_NAME)
    connection.settings_dict = {
        **connection.settings_dict,
        "CONN_MAX_AGE": None,
        "CONN_HEALTH_CHECKS": False,
        "OPTIONS": options,
    }


def run(stop: threading.Event, poll: float = POLL_EVERY) -> None:
    """Pass after pass until ``stop`` is set (the current pass always finishes)."""
    keep_connection()
    purged_at = -PURGE_EVERY
    planned = time.time()
    outage = db.Outage(log, "game clock pass")
    while not stop.is_set():
        wake = time.time() + poll
        try:
            close_old_connections()
            now = time.time()
            lag = now - planned
            due = find_due(now)
            if work(due, now, BOT_BUDGET):
                wake = time.time()  # a move changes what is due next: look again at once
            elif due.next_at is not None:
                wake = min(wake, due.next_at + WAKE_MARGIN)
            metrics.clock_pass(lag, time.time() - now)
            if time.monotonic() - purged_at > PURGE_EVERY:
                purged_at = time.monotonic()
                purge()
            outage.succeeded()
        except Exception as error:
            # A pass every POLL_EVERY: an outage is said once, a bug every time.
            outage.failed(error)
        planned = wake
        stop.wait(max(0.0, wake - time.time()))
    connection.close()


def start(poll: float = POLL_EVERY) -> None:
    """Start the clock as a thread of this process, once (``GAME_CLOCK``, ``make run``)."""
    if _started.is_set():
        return
    _started.set()
    threading.Thread(target=run, args=(threading.Event(), poll), name="game-clock", daemon=True).start()
