"""Who is here: each socket counts its player present; heartbeats and a sweep heal the
counts that a dead server process or an outage left behind."""

from __future__ import annotations

import time
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from rooms.changes import bump, locked_room, remember
from rooms.errors import RoomError
from rooms.models import PRESENCE_GRACE, Player, Room, is_connected


def presence_open(*, slug: str, uid: str | None, device_token: str | None) -> dict[str, Any] | None:
    """A socket opens: which player it speaks for (``None``: a visitor), counted if by session.

    One statement: the count goes up and the player's ids come back. A device link (a
    second screen) does not count towards presence. ``flipped``: this is the player's
    first socket, so the room's connected marks may need a push.
    """
    if device_token:
        found = Player.objects.filter(room__slug=slug, device_token=device_token)
        row = found.values("pk", "public_id").first()
        return None if row is None else {**row, "flipped": False}
    if not uid:
        return None
    player, room = Player._meta.db_table, Room._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {player} SET connections = connections + 1, last_seen = %s "
            f"WHERE uid = %s AND room_id = (SELECT id FROM {room} WHERE slug = %s) "
            "RETURNING id, public_id, connections",
            [timezone.now(), uid, slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return {"pk": row[0], "public_id": row[1], "flipped": row[2] == 1}


def presence_close(*, pk: int) -> bool:
    """A counted socket closed; True when its player now shows away (the room needs a push)."""
    with transaction.atomic():
        Player.objects.filter(pk=pk).update(connections=_decrement(), last_seen=timezone.now())
        left = Player.objects.filter(pk=pk).values_list("connections", flat=True).first()
    return left == 0


def presence_touch(counts: dict[int, int] | list[int]) -> None:
    """Open sockets prove their players are here: seen now, and counted at least as many
    times as the process holds sockets for them (``counts``: player pk → sockets).

    Re-asserting the count, not only the time, heals a database outage: the sweep may
    have counted everyone out meanwhile, and a touch that only stamped ``last_seen``
    would leave every connected player shown away for good.
    """
    if isinstance(counts, list):
        counts = dict.fromkeys(counts, 1)
    if not counts:
        return
    now = timezone.now()
    by_count: dict[int, list[int]] = {}
    for pk, sockets in counts.items():
        by_count.setdefault(sockets, []).append(pk)
    with transaction.atomic():
        for sockets, pks in by_count.items():
            Player.objects.filter(pk__in=pks).update(
                connections=Greatest(F("connections"), Value(sockets)), last_seen=now
            )


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

    The sweep calls it; a clock that calls it on every pass (each pass reads the
    database) lets the sweep count a dead process's players out a grace period after
    their last touch instead of a grace period after the sweep first noticed them.
    """
    mono = time.monotonic()
    last = _sweeps.get("last")
    if last is None or mono - last > SWEEP_GAP:
        _sweeps["since"] = mono
    _sweeps["last"] = mono
    return mono - _sweeps["since"]


def presence_sweep(now: Any = None, *, up_for: float | None = None) -> int:
    """Heal counts left by a server that died: no touch for the grace period means no socket.

    Every live process touches its players' ``last_seen`` well within the grace period,
    so a player still counted but untouched has no open socket anywhere — provided the
    database let them touch: after a pause of the sweep (a database outage stops it and
    every touch alike), nobody is counted out until the database has been reachable
    for a whole grace period again, so a live process is never swept. ``up_for``: how
    long the database has been reachable (measured from the sweeps themselves if not
    given).
    """
    if up_for is None:
        up_for = presence_database_seen()
    if up_for < PRESENCE_GRACE.total_seconds():
        return 0
    now = now or timezone.now()
    stale = Player.objects.filter(connections__gt=0, last_seen__lt=now - PRESENCE_GRACE)
    rooms = set(stale.values_list("room__slug", flat=True))
    stale.update(connections=0)
    for slug in rooms:
        presence_refresh(slug=slug)
    return len(rooms)


def _decrement() -> Any:
    from django.db.models import Case, Value, When

    # Never below zero, even if a crash left the counter out of step.
    return Case(When(connections__gt=0, then=F("connections") - 1), default=Value(0))
