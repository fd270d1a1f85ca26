"""Codenames as a room's game: seats, the view each seat gets, and moves."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from rooms.errors import RoomError
from rooms.games import Seating
from rooms.models import Player, Room


class CodenamesGame:
    name = "codenames"
    title = _("Codenames")
    seating = Seating(
        teams=("red", "blue"),
        roles=("spymaster", "operative"),
        single_roles=("spymaster",),
    )

    def is_running(self, room: Room) -> bool:
        return False

    def check_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        return None

    def view(self, room: Room, player: Player | None) -> dict[str, Any] | None:
        return None

    def act(self, room: Room, player: Player, payload: dict[str, Any]) -> None:
        raise RoomError("unknown_action", f"Unknown action: {str(payload.get('action'))[:40]}")


GAME = CodenamesGame()
