"""Codenames as a room's game: seats, the view each seat gets, and moves."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from codenames import engine, services
from codenames.engine.actions import ACTION_NAMES
from rooms.errors import RoomError
from rooms.games import Seating, WordRules
from rooms.models import Player, Room


def _flag(message: dict[str, Any], name: str) -> bool:
    value = message.get(name, False)
    if not isinstance(value, bool):
        raise RoomError("bad_action", _("'%(name)s' must be true or false."), name=name)
    return value


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

    def is_running(self, room: Room) -> bool:
        game = services.current_game(room)
        return game is not None and not game.finished

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        game = services.current_game(room, lock=True)
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

    def view(self, room: Room, player: Player | None) -> dict[str, Any] | None:
        """The one redaction path: the engine's ``view_for`` decides what the seat sees."""
        game = services.current_game(room)
        if game is None:
            return None
        sees_key = player is not None and player.role == "spymaster"
        payload = engine.view_for(engine.state_from_json(game.state), sees_key=sees_key)
        payload["number"] = game.number
        return payload

    def act(self, room: Room, player: Player, message: dict[str, Any]) -> None:
        action = message["action"]
        fields = {k: v for k, v in message.items() if k != "ref"}
        if action == "start_game":
            mode = fields.get("mode")
            if mode is not None and not isinstance(mode, str):
                raise RoomError("bad_mode", _("There is no such game mode."))
            if not player.is_seated:
                raise RoomError("not_seated", _("Take a seat to deal a game."))
            services.game_start(room=room, player=player, mode=mode, confirm=_flag(fields, "confirm"))
        elif action == "house_rules":
            if not player.is_seated:
                raise RoomError("not_seated", _("Take a seat to change the house rules."))
            services.set_house_rules(room=room, options={k: v for k, v in fields.items() if k != "action"})
        elif action == "rotate_spymasters":
            services.rotate_spymasters(room=room)
        elif action in ACTION_NAMES:
            services.game_act(room=room, player=player, message=fields)
        else:
            raise RoomError("unknown_action", _("Unknown action: %(action)s"), action=str(action)[:40])

    def expire_due(self, now: float) -> int:
        return services.expire_due(now)


GAME = CodenamesGame()
