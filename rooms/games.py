"""The contract between rooms and the games played in them.

A room knows nothing of Codenames or Decrypto rules: it asks the game registered
under the room's ``game`` name which seats exist, what a seat change means while a
game runs, what each player may see, and how to apply a move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rooms.models import Player, Room


@dataclass(frozen=True)
class Seating:
    """The seats of a game: its teams, and the roles a team member may take."""

    teams: tuple[str, ...]
    roles: tuple[str, ...]
    # Roles held by at most one player per team (a Codenames spymaster).
    single_roles: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WordRules:
    """What a room's own word list must look like for a game."""

    minimum: int
    max_length: int
    spaces: bool


class Game(Protocol):
    name: str
    title: str
    seating: Seating
    words: WordRules

    def is_running(self, room: Room) -> bool: ...

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        """Raise RoomError when the running game forbids this change; else record what it must."""

    def view(self, room: Room, player: Player | None) -> dict[str, Any] | None:
        """The game as ``player`` may see it: the only path game state takes to a browser."""

    def act(self, room: Room, player: Player, payload: dict[str, Any]) -> None:
        """Apply a move under the room's row lock (held by the caller); raise RoomError."""

    def expire_due(self, now: float) -> int:
        """Apply every deadline that has passed (even with no browser open); count them."""


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    return _REGISTRY[name]


def game_names() -> list[str]:
    return list(_REGISTRY)
