"""Who is here: each server process counts its own sockets and says, by beating, that it lives.

Every process that holds sockets has a row (``ServerProcess``) it beats every
``PRESENCE_BEAT_SECONDS`` and one row per player it holds sockets of (``Presence``: how
many). ``Player.connections`` is the sum of a player's rows, changed in the same
statement or transaction as they are, so a screen shows "connected" from the player
alone (``is_connected``: ``connections > 0``). No clock enters that: a database that was
away makes nobody look away when it returns.

Three things keep it true:

- **A process knows its exact set** (``Process.counts``, in memory). After a write that
  failed (a player who left during a database outage) or when it finds its own row gone
  (another process took it for dead), it re-asserts that set at its next beat: its rows
  raised or lowered to it, each player's count by the same amount (rooms/beat.py).
- **A process that stops beating is dead** (SIGKILL, a lost host): once the database's
  clock says it has not beaten for ``PRESENCE_DEAD_SECONDS``, any live process deletes
  its row and its rows, and lowers its players' counts by them (rooms/beat.py); a player
  it held who came back on another process is counted once, one who did not shows away.
  A process judges only after beating without a gap for ``PRESENCE_JUDGE_SECONDS``
  itself: right after an outage every process is silent, and each gets that long to
  beat again before anyone is dropped.
- **A count that no row backs** (left by the previous release's code, which kept no
  rows) and that nobody vouched for during ``PRESENCE_GRACE`` is lowered to its rows by
  the clock's sweep, once the database has been up for that long (``presence_sweep``).

Why this shape: one counter per player summed over processes (the previous model) cannot
tell a dead process's share from a live one's, nor lower a count whose decrement an
outage lost. A row per process and player says whose each socket is, and is exactly what
a process knows of itself; the counter stays beside the rows, equal to their sum, so
showing presence reads nothing more than before (and the previous release's code reads
and writes it as it always did during a rolling upgrade). Liveness is one heartbeat per
process, judged by the database's clock, rather than a timestamp per player refreshed
per socket. Costs: a handshake and a close are one statement each on PostgreSQL (two in
a transaction on SQLite); a process with sockets beats once a second on a thread and
connection of its own (not the sockets' pool, where a crowd of handshakes could delay a
beat until the process looked dead), and reads the table of processes for dead ones in
the same pass; nothing is written per socket on a beat, and a re-assertion happens only
after a failure. A process with no socket stops beating (an idle site costs nothing);
its first handshake then beats first (rooms/beat.py).
"""

from __future__ import annotations

import time
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q, Sum, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from rooms.beat import (
    BEATER,
    Process,
    chunks,
    ensure_beating,
    presence_beat,
    presence_drop_dead,
    presence_retire,
)
from rooms.changes import bump, locked_room, remember
from rooms.errors import RoomError
from rooms.models import PRESENCE_GRACE, Player, Presence, Room, is_connected

__all__ = [
    "Process",
    "presence_beat",
    "presence_close",
    "presence_drop_dead",
    "presence_open",
    "presence_refresh",
    "presence_retire",
    "presence_sweep",
    "presence_touch",
]

# ---- sockets -------------------------------------------------------------------------


def presence_open(
    *, slug: str, uid: str | None, device_token: str | None, process: Process
) -> dict[str, Any] | None:
    """A socket opens: which player it speaks for (``None``: a visitor), counted if by session.

    One statement on PostgreSQL: the player's count and this process's row go up and the
    player's ids come back. A device link (a second screen) does not count towards
    presence. ``flipped``: this is the player's first socket, so the room's connected
    marks may need a push.
    """
    if device_token:
        found = Player.objects.filter(room__slug=slug, device_token=device_token)
        row = found.values("pk", "public_id").first()
        return None if row is None else {**row, "flipped": False}
    if not uid:
        return None
    ensure_beating(process)
    with process.writing():
        try:
            row = _count_in(slug, uid, process.key)
        except Exception:
            process.dirty = True  # perhaps committed: the next beat re-asserts
            BEATER.add(process)
            raise
        if row is None:
            return None
        with process._gate:
            process._add(row[0], 1)
    BEATER.add(process)
    return {"pk": row[0], "public_id": row[1], "flipped": row[2] == 1}


def presence_close(*, pk: int, process: Process) -> bool:
    """A counted socket closed; True when its player now shows away (the room needs a push).

    Counted out here at once, in the database only if this process's row still counts
    it (a process dropped as dead had its rows counted out already). If the database
    fails, the next beat that succeeds re-asserts this process's sockets.
    """
    with process.writing():
        with process._gate:
            process._add(pk, -1)
        try:
            left = _count_out(pk, process.key)
        except Exception:
            process.dirty = True
            BEATER.add(process)
            raise
    return left == 0


def _count_in(slug: str, uid: str, key: str) -> tuple[int, str, int] | None:
    player, room, presence = Player._meta.db_table, Room._meta.db_table, Presence._meta.db_table
    raise_player = (
        f"UPDATE {player} SET connections = connections + 1, last_seen = %s "
        f"WHERE uid = %s AND room_id = (SELECT id FROM {room} WHERE slug = %s) "
        "RETURNING id, public_id, connections"
    )
    upsert = (
        f"INTO {presence} (process_id, player_id, sockets) {{}} "
        f"ON CONFLICT (process_id, player_id) DO UPDATE SET sockets = {presence}.sockets + 1"
    )
    params = [timezone.now(), uid, slug]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH p AS ({raise_player}), c AS (INSERT {upsert.format('SELECT %s, id, 1 FROM p')}) "
                "SELECT id, public_id, connections FROM p",
                [*params, key],
            )
            return cursor.fetchone()  # type: ignore[no-any-return]
        with transaction.atomic():
            cursor.execute(raise_player, params)
            row = cursor.fetchone()
            if row is not None:
                cursor.execute(f"INSERT {upsert.format('VALUES (%s, %s, 1)')}", [key, row[0]])
    return row  # type: ignore[no-any-return]


def _count_out(pk: int, key: str) -> int | None:
    """The player's count after this process's row lost a socket (``None``: no row had it)."""
    player, presence = Player._meta.db_table, Presence._meta.db_table
    lower_row = (
        f"UPDATE {presence} SET sockets = sockets - 1 "
        "WHERE process_id = %s AND player_id = %s AND sockets > 0"
    )
    lower_player = (
        f"UPDATE {player} SET connections = {'GREATEST' if connection.vendor == 'postgresql' else 'MAX'}"
        "(connections - 1, 0), last_seen = %s WHERE id = %s{} RETURNING connections"
    )
    now = timezone.now()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH r AS ({lower_row} RETURNING 1) "
                + lower_player.format(" AND EXISTS (SELECT 1 FROM r)"),
                [key, pk, now, pk],
            )
            row = cursor.fetchone()
            return None if row is None else int(row[0])
        with transaction.atomic():
            cursor.execute(lower_row, [key, pk])
            if cursor.rowcount == 0:
                return None
            cursor.execute(lower_player.format(""), [now, pk])
            row = cursor.fetchone()
    return None if row is None else int(row[0])


# ---- what the rooms show -------------------------------------------------------------


def presence_touch(pks: list[int]) -> None:
    """Open sockets vouch for their players: ``last_seen`` now (what an operator sees, what
    the sweep and the previous release's code read)."""
    now = timezone.now()
    for part in chunks(pks):
        Player.objects.filter(pk__in=part).update(last_seen=now)


def presence_refresh(*, slug: str, shown: dict[str, bool] | None = None) -> None:
    """Push the room if its players' connected marks differ from ``shown`` (the latest push's)."""
    try:
        with locked_room(slug) as room:
            players = list(room.players.all())
            now = timezone.now()
            if shown is None or any(shown.get(p.public_id) != is_connected(p, now) for p in players):
                remember(room, players=players)
                bump(room)
    except RoomError:
        pass  # the room is gone


# When the database was last seen answering the sweeper's process, and since when it has
# answered without a gap (monotonic seconds).
_sweeps: dict[str, float] = {}


SWEEP_GAP = 10.0  # a pause longer than this (the database was away) restarts the count


def presence_database_seen() -> float:
    """Record that the database answers now; how long it has answered without a gap.

    The clock calls it on every pass (each pass reads the database), so the sweep can
    tell a count nobody vouched for from one whose vouching an outage stopped.
    """
    mono = time.monotonic()
    last = _sweeps.get("last")
    if last is None or mono - last > SWEEP_GAP:
        _sweeps["since"] = mono
    _sweeps["last"] = mono
    return mono - _sweeps["since"]


def presence_sweep(now: Any = None, *, up_for: float | None = None) -> int:
    """Lower the counts that no process's row backs and nobody vouched for during the grace
    period (the previous release's code kept no rows); how many rooms were pushed.

    Only once the database has been reachable for a whole grace period (``up_for``,
    measured from the clock's passes if not given): an outage stops every vouching.
    """
    if up_for is None:
        up_for = presence_database_seen()
    if up_for < PRESENCE_GRACE.total_seconds():
        return 0
    cutoff = (now or timezone.now()) - PRESENCE_GRACE
    unvouched = Q(last_seen__lt=cutoff) | Q(last_seen__isnull=True)
    stale = dict(Player.objects.filter(unvouched, connections__gt=0).values_list("pk", "connections"))
    backed: dict[int, int] = {}
    for part in chunks(list(stale)):
        rows = Presence.objects.filter(player_id__in=part).values("player_id").annotate(n=Sum("sockets"))
        backed.update((row["player_id"], row["n"]) for row in rows)
    over = {pk: backed.get(pk, 0) - count for pk, count in stale.items() if count > backed.get(pk, 0)}
    rooms: set[str] = set()
    for delta in set(over.values()):
        pks = [pk for pk, d in over.items() if d == delta]
        # Still unvouched when written: a socket that opened meanwhile stamped last_seen.
        Player.objects.filter(unvouched, pk__in=pks).update(
            connections=Greatest(F("connections") + delta, Value(0))
        )
        rooms |= set(Player.objects.filter(pk__in=pks, connections=0).values_list("room__slug", flat=True))
    for slug in rooms:
        presence_refresh(slug=slug)
    return len(rooms)
