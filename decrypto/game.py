"""Decrypto as a room's game: seats, the view each seat gets, and moves."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from decrypto import engine, services
from decrypto.engine.actions import ACTION_NAMES
from rooms.errors import RoomError
from rooms.games import Seating, WordRules
from rooms.models import Player, Room

ENGINE_ACTIONS = frozenset(ACTION_NAMES.values())
# Keys of the room protocol that are not the engine's: the action's name (sent to the
# engine as "type") and the client's reference number (echoed only in errors).
ROOM_KEYS = ("action", "ref")


def _flag(message: dict[str, Any], name: str) -> bool:
    value = message.get(name, False)
    if not isinstance(value, bool):
        raise RoomError("bad_action", _("'%(name)s' must be true or false."), name=name)
    return value


def engine_action(message: dict[str, Any]) -> dict[str, Any]:
    """``{"action": "lock_guess", …, "ref": 3}`` → ``{"type": "lock_guess", …}``."""
    fields = {k: v for k, v in message.items() if k not in ROOM_KEYS}
    if "type" in fields:
        # The engine reads "type" as the action's name: never let a client pick it twice.
        raise RoomError("bad_action", _("Name the action in 'action' only."))
    return {"type": message["action"], **fields}


class DecryptoGame:
    name = "decrypto"
    title = _("Decrypto")
    seating = Seating(teams=("white", "black"), roles=("player",))
    # Own keywords may be short phrases (DC-16 allows phrases for clues, and a group's
    # inside jokes make good keywords).
    words = WordRules(minimum=8, max_length=30, spaces=True)

    def is_running(self, room: Room) -> bool:
        game = services.current_game(room)
        return game is not None and not game.finished

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        """Rosters are fixed when a game is dealt.

        A roster player has seen their team's keywords (DC-S1): they may step out to
        watch and come back to their own team, never sit with the other team. Anyone
        else may not join a team while the game runs: the engine has no seat for them.
        """
        game = services.current_game(room, lock=True)
        if game is None or game.finished or role == Player.SPECTATOR:
            return
        home = game.seat_teams.get(player.public_id)
        if home is None:
            raise RoomError(
                "rosters_fixed",
                _("The teams were fixed when this game was dealt: join them for the next one."),
            )
        if team != home:
            raise RoomError(
                "team_locked", _("You have seen your team's keywords: you can change teams in the next game.")
            )

    def view(self, room: Room, player: Player | None) -> dict[str, Any] | None:
        """The one redaction path: the engine's ``view_for`` decides what the player sees.

        The game's roster, not the room seat, says who the player is: a roster player who
        stepped out to watch still sees their own team's screen, and nothing more.
        """
        game = services.current_game(room)
        if game is None:
            return None
        state = engine.state_from_json(game.state)
        payload = engine.view_for(state, player=player.public_id if player is not None else None)
        payload["number"] = game.number
        return payload

    def act(self, room: Room, player: Player, message: dict[str, Any]) -> None:
        action = message["action"]
        if action == "start_game":
            mode = message.get("mode")
            if mode is not None and not isinstance(mode, str):
                raise RoomError("bad_mode", _("There is no such game mode."))
            if not player.is_seated:
                raise RoomError("not_seated", _("Take a seat to deal a game."))
            services.game_start(room=room, player=player, mode=mode, confirm=_flag(message, "confirm"))
        elif action == "house_rules":
            if not player.is_seated:
                raise RoomError("not_seated", _("Take a seat to change the house rules."))
            services.set_house_rules(
                room=room, options={k: v for k, v in message.items() if k not in ROOM_KEYS}
            )
        elif action in ENGINE_ACTIONS:
            services.game_act(room=room, player=player, action=engine_action(message))
        else:
            raise RoomError("unknown_action", _("Unknown action: %(action)s"), action=str(action)[:40])

    def expire_due(self, now: float) -> int:
        return services.expire_due(now)


GAME = DecryptoGame()
