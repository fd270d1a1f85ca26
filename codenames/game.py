"""Codenames as a room's game: seats, the engine behind ``rooms.play``, and its views."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from codenames import engine, services
from codenames.engine.actions import ACTION_NAMES
from codenames.models import CodenamesGame as Record
from rooms import play
from rooms.errors import RoomError
from rooms.games import Seating, WordRules
from rooms.models import GameRecord, Player, Room

SPYMASTER_VIEW, TABLE_VIEW = "spymaster", "table"


class CodenamesGame:
    name = "codenames"
    title = _("Codenames")
    seating = Seating(
        teams=("red", "blue"),
        roles=("spymaster", "operative"),
        single_roles=("spymaster",),
    )
    # Own words are card words: single words short enough for a phone's card.
    words = WordRules(minimum=25, max_length=20, spaces=False)
    record = Record
    actions = frozenset(ACTION_NAMES)
    room_actions = {"rotate_spymasters": services.rotate_spymasters}

    def is_running(self, room: Room) -> bool:
        return play.is_running(room)

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        game = services.current_game(room)
        if game is None or game.finished:
            return
        if role == "operative" and player.public_id in game.key_seen_by:
            raise RoomError(
                "key_seen",
                _("You have seen the key in this game: you can be an operative again in the next one."),
            )
        if role == "spymaster" and player.public_id not in game.key_seen_by:
            game.key_seen_by = [*game.key_seen_by, player.public_id]
            game.save(update_fields=["key_seen_by"])

    def deal(
        self, room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any], now: float
    ) -> tuple[engine.State, dict[str, Any]]:
        return services.deal(room, players, mode=mode, seed=seed, recent=recent, now=now)

    def set_house_rules(self, room: Room, options: dict[str, Any]) -> None:
        services.set_house_rules(room, options)

    def load(self, data: dict[str, Any]) -> engine.State:
        return engine.state_from_json(data)

    def dump(self, state: engine.State) -> dict[str, Any]:
        return engine.state_to_json(state)

    def apply(
        self, state: engine.State, record: GameRecord, player: Player, message: dict[str, Any], now: float
    ) -> engine.State:
        return services.apply(state, player, message, now)

    def expire(self, state: engine.State, now: float) -> engine.State:
        return engine.expire(state, now=now)

    def deadline(self, state: engine.State) -> float | None:
        return engine.deadline(state)

    def outcome(self, state: engine.State) -> engine.Outcome | None:
        return engine.outcome(state)

    def score(self, board: dict[str, Any], state: engine.State, outcome: engine.Outcome) -> dict[str, Any]:
        return services.score(board, state.rules.mode, outcome)

    def view_key(self, record: GameRecord, state: engine.State, player: Player | None) -> str:
        """Two views (CN-S1): spymasters see the key; operatives, spectators and visitors do not."""
        return SPYMASTER_VIEW if player is not None and player.role == "spymaster" else TABLE_VIEW

    def view(self, record: GameRecord, state: engine.State, key: str) -> dict[str, Any]:
        """The one redaction path: the engine's ``view_for`` decides what the seat sees."""
        payload = engine.view_for(state, sees_key=key == SPYMASTER_VIEW)
        payload["number"] = record.number
        return payload

    def act(self, room: Room, player: Player, message: dict[str, Any]) -> None:
        """A move through the one game path (the caller holds the room's lock)."""
        play.act(room, list(room.players.all()), player, message)

    def expire_due(self, now: float) -> int:
        return play.expire_due(self, now)


GAME = CodenamesGame()
