"""Moves applied at most once: a page resends a move it saw no answer to (a process
restarting under it), under the id it chose (docs/protocol.md, ``id``).

Both calls run inside the move's transaction, with the room's row locked
(``rooms.changes.locked_room``): a resend that reaches another process waits for the
first one's transaction and then finds its receipt. The unique constraint is the
backstop where there is no row lock (SQLite locks the file only when it writes).
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rooms.errors import RoomError
from rooms.models import Receipt

# How long an applied move's id is remembered. A resend comes within seconds (the page
# resends once, on its next socket, and a move older than MOVE_MAX_AGE_SECONDS is
# refused as too late anyway); the margin covers a page whose clock reads the server's
# time wrong.
KEEP = timedelta(minutes=10)
_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def take_id(message: dict[str, object]) -> str | None:
    """Remove ``id`` from ``message``: the move's idempotency id, or None if it has none."""
    key = message.pop("id", None)
    if key is None:
        return None
    if not isinstance(key, str) or not _ID.fullmatch(key):
        raise RoomError("bad_message", _("'id' is 8 to 64 letters, digits, '-' or '_'."))
    return key


def applied(player_pk: int, key: str) -> bool:
    """Whether this player's move ``key`` was applied already (call under the room's lock)."""
    return Receipt.objects.filter(player_id=player_pk, key=key).exists()


def keep(player_pk: int, key: str) -> None:
    """Remember that this player's move ``key`` is applied (in the move's transaction);
    the player's receipts older than ``KEEP`` go at the same time."""
    now = timezone.now()
    Receipt.objects.filter(player_id=player_pk, at__lt=now - KEEP).delete()
    Receipt.objects.create(player_id=player_pk, key=key, at=now)
