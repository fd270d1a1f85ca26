"""A room's game records: the one reader of a game's current record."""

from __future__ import annotations

from typing import TypeVar

from rooms.games import Game, get_game
from rooms.models import GameRecord, Room

Record = TypeVar("Record", bound=GameRecord)


def current_record(room: Room, game: Game | None = None) -> GameRecord | None:
    """The room's current (or last) game of the room's game kind."""
    return latest_record(room, (game or get_game(room.game)).record)


def latest_record(room: Room, model: type[Record]) -> Record | None:
    """The room's newest game stored in ``model``: the one reader of a game's record.

    Every writer of a game record holds the room's row lock, so reading it under that
    lock needs no lock of its own.
    """
    # Plain SQL: read on every move (see rooms.changes.locked_room).
    found = model.objects.raw(
        f"SELECT * FROM {model._meta.db_table} WHERE room_id = %s ORDER BY number DESC LIMIT 1",
        [room.pk],
    )
    return next(iter(found), None)


def is_running(room: Room) -> bool:
    record = current_record(room)
    return record is not None and not record.finished
