"""How a room changes: one transaction under its row lock, then one push.

A change players can see calls ``bump``; when the locked block ends, the room's version
goes up by exactly one, every distinct view of the room is rendered once
(``rooms.state``), and only after the commit is that push sent (``rooms.hub``), so no
socket ever hears of a change that was rolled back and no socket reads the database to
receive one.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rooms.errors import RoomBusy, RoomError
from rooms.models import GameRecord, Player, Room


@contextmanager
def locked_room(slug: str, *, skip_locked: bool = False) -> Iterator[Room]:
    """The room, its row locked until the block ends (serialises every change to it).

    ``skip_locked`` (the clock): raise ``RoomBusy`` instead of waiting for another lock.
    """
    with transaction.atomic():
        room = next(iter(Room.objects.raw(_room_for_update_sql(skip_locked), [slug])), None)
        if room is None:
            if skip_locked:
                raise RoomBusy(slug)
            raise RoomError("no_room", _("This room has no players yet: join it first."))
        with _unit_of_work(room) as change:
            yield room
            _finish(change)


def _room_for_update_sql(skip_locked: bool = False) -> str:
    # Every change of every room starts here: plain SQL spares the ORM's query building,
    # half of a move's database time when measured (SQLite locks the whole file instead).
    lock = "" if connection.vendor == "sqlite" else " FOR UPDATE"
    if lock and skip_locked:
        lock += " SKIP LOCKED"
    return f"SELECT * FROM {Room._meta.db_table} WHERE slug = %s{lock}"


def save_fields(instance: Any, fields: list[str]) -> None:
    """``instance.save(update_fields=fields)`` in plain SQL (a move saves its game this way).

    Values go through each field's own database preparation, as ``save`` does; an
    ``auto_now`` field among ``fields`` is stamped as ``save`` would.
    """
    meta = instance._meta
    columns, values = [], []
    for name in fields:
        field = meta.get_field(name)
        if getattr(field, "auto_now", False):
            setattr(instance, field.attname, timezone.now())
        columns.append(f"{connection.ops.quote_name(field.column)} = %s")
        values.append(field.get_db_prep_save(getattr(instance, field.attname), connection))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {meta.db_table} SET {', '.join(columns)} WHERE id = %s",
            [*values, instance.pk],
        )


def room_players(room: Room) -> list[Player]:
    """The room's players in joining order (plain SQL, for the same reason as above)."""
    table = Player._meta.db_table
    return list(
        Player.objects.raw(f"SELECT * FROM {table} WHERE room_id = %s ORDER BY joined_at, id", [room.pk])
    )


@contextmanager
def locked_room_by_pk(pk: int, *, skip_locked: bool = False) -> Iterator[Room]:
    with transaction.atomic():
        if skip_locked:
            room = Room.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if room is None:
                raise RoomBusy(pk)
        else:
            room = Room.objects.select_for_update().get(pk=pk)
        with _unit_of_work(room) as change:
            yield room
            _finish(change)


@dataclass
class Change:
    """The unit of work of one locked block: whether players can see what it did, and
    what it already loaded, so the push renders without reading it again."""

    room: Room
    visible: bool = False
    players: list[Player] | None = None
    record: GameRecord | None = None
    state: Any = None  # ``record``'s engine state, already parsed


_local = threading.local()


@contextmanager
def _unit_of_work(room: Room) -> Iterator[Change]:
    # Per thread: each database thread runs its own locked blocks, nested ones included
    # (an operator's action inside a change of another room).
    stack: list[Change] = _local.__dict__.setdefault("changes", [])
    change = Change(room)
    stack.append(change)
    try:
        yield change
    finally:
        stack.pop()


def _change_of(room: Room) -> Change:
    for change in reversed(_local.__dict__.get("changes", [])):
        if change.room.pk == room.pk:
            return change
    raise RuntimeError(f"room {room.pk} changed outside locked_room")


def bump(room: Room) -> None:
    """Record that players can see a change: pushed once when the locked block ends."""
    _change_of(room).visible = True


def remember(
    room: Room, *, players: list[Player] | None = None, record: GameRecord | None = None, state: Any = None
) -> None:
    """Hand the push what the change already loaded (``state``: ``record``'s, parsed)."""
    change = _change_of(room)
    if players is not None:
        change.players = players
    if record is not None:
        change.record, change.state = record, state


def _finish(change: Change) -> None:
    """One version per transaction; every view rendered now, sent after the commit."""
    if not change.visible:
        return
    from rooms.state import render_snapshot

    room = change.room
    change.visible = False
    room.version += 1
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Room._meta.db_table} SET version = %s, updated_at = %s WHERE id = %s",
            [room.version, timezone.now(), room.pk],
        )
    snapshot = render_snapshot(room, players=change.players, record=change.record, state=change.state)
    publish_after_commit(snapshot)


def publish_after_commit(snapshot: dict[str, Any]) -> None:
    """Send ``snapshot`` to every process serving the room, once the transaction commits.

    Called from a pooled call of the event loop, the push is handed back to it (sent
    there, no thread hop); from anywhere else (the clock's thread, a test), it is sent
    from this thread.
    """
    from rooms import db

    def send() -> None:
        pending = db.pending_pushes.get()
        if pending is not None:
            pending.append(snapshot)
        elif _publish is not None:
            async_to_sync(_publish)(snapshot)

    transaction.on_commit(send)


# The hub (rooms.hub.publish, set from rooms/apps.py): it sits above this module, which
# must not import it.
_publish: Callable[[dict[str, Any]], Awaitable[None]] | None = None


def set_publisher(publish: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    global _publish
    _publish = publish
