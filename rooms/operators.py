"""What the site's operators do to rooms (the admin) and what the clock purges."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from rooms.changes import bump, locked_room, publish_after_commit
from rooms.models import Player, Room, room_identity


def room_close(*, slug: str) -> bool:
    """Delete a room with its players and games; its open sockets are told and closed.

    The room's row is locked first, as every change does: deleting its players and
    games before holding it deadlocked with a move holding the room and writing its game.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(slug=slug).first()
        if room is None:
            return False
        closed = {"slug": slug, "room": room_identity(room.pk, room.created_at), "version": room.version,
                  "closed": True}  # fmt: skip
        room.delete()
        publish_after_commit(closed)
    return True


def player_remove(*, pk: int) -> bool:
    """Remove a player from their room; their sockets are told and closed, the room updated."""
    slug = Player.objects.filter(pk=pk).values_list("room__slug", flat=True).first()
    if slug is None:
        return False
    with locked_room(slug) as room:
        Player.objects.filter(pk=pk).delete()
        bump(room)
    return True


def purge_rooms(*, days: int, now: Any = None) -> int:
    """Delete rooms nobody has changed for ``days`` days and nobody is in now."""
    now = now or timezone.now()
    idle = Room.objects.filter(updated_at__lt=now - timedelta(days=days))
    present = Player.objects.filter(connections__gt=0)
    slugs = list(idle.exclude(players__in=present).values_list("slug", flat=True))
    for slug in slugs:
        room_close(slug=slug)
    return len(slugs)
