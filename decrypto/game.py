"""Decrypto as a room's game: seats, the view each seat gets, and moves."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from rooms.errors import RoomError
from rooms.games import Seating
from rooms.models import Player, Room


class DecryptoGame:
    name = "decrypto"
    title = _("Decrypto")
    seating = Seating(teams=("white", "black"), roles=("player",))

    def is_running(self, room: Room) -> bool:
        return False

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        return None

    def view(self, room: Room, player: Player | None) -> dict[str, Any] | None:
        return None

    def act(self, room: Room, player: Player, message: dict[str, Any]) -> None:
        raise RoomError("unknown_action", f"Unknown action: {str(message.get('action'))[:40]}")

    def expire_due(self, now: float) -> int:
        return 0


GAME = DecryptoGame()
