"""Bots in the lobby: a player gives an empty seat to a bot, or takes a bot away."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bots.play import DECIDE
from rooms import changes, services
from rooms.errors import RoomError
from rooms.games import get_game
from rooms.models import Player

if TYPE_CHECKING:
    from rooms.lobby import Sender

# The games whose seats a bot can fill: those a bot can play (bots/play.py).
GAMES = frozenset(DECIDE)


def add_bot(*, slug: str, uid: str | None, team: object, role: object) -> None:
    """Seat a new bot at ``team``/``role``; any joined player may."""
    with changes.locked_room(slug) as room:
        services.player_of(room, uid)
        if room.game not in GAMES:
            raise RoomError("no_bots", _("Bots cannot play this game yet."))
        # "Bot 1": a name, the same in every language (and not the adder's language).
        taken = set(room.players.filter(bot=True).values_list("name", flat=True))
        if len(taken) >= settings.MAX_BOTS_PER_ROOM:
            # Bots think on the server's clock: a room of hundreds would slow every room.
            raise RoomError(
                "too_many_bots",
                ngettext(
                    "A room can have at most %(limit)s bot.",
                    "A room can have at most %(limit)s bots.",
                    settings.MAX_BOTS_PER_ROOM,
                ),
                limit=settings.MAX_BOTS_PER_ROOM,
            )
        number = next(n for n in range(1, len(taken) + 2) if f"Bot {n}" not in taken)
        bot = Player.objects.create(
            room=room, uid=f"bot:{secrets.token_urlsafe(12)}", name=f"Bot {number}", bot=True
        )
        try:
            services.take_seat(room, bot, team, role)
        except RoomError:
            bot.delete()
            raise
        if not bot.is_seated:
            bot.delete()
            raise RoomError("bad_seat", _("There is no such seat in this game."))


def remove_bot(*, slug: str, uid: str | None, bot: object) -> None:
    """Take a bot out of the room (its seat is free again)."""
    with changes.locked_room(slug) as room:
        services.player_of(room, uid)
        found = room.players.filter(bot=True, public_id=bot if isinstance(bot, str) else "").first()
        if found is None:
            raise RoomError("no_such_bot", _("There is no such bot in this room."))
        if get_game(room.game).is_running(room):
            raise RoomError("game_running", _("Bots leave between games, not during one."))
        found.delete()
        changes.bump(room)


def add_bot_action(consumer: Sender, message: dict[str, Any]) -> None:
    add_bot(slug=consumer.slug, uid=consumer.uid, team=message.get("team"), role=message.get("role"))


def remove_bot_action(consumer: Sender, message: dict[str, Any]) -> None:
    remove_bot(slug=consumer.slug, uid=consumer.uid, bot=message.get("bot"))
