"""What one browser may see of a room: the page's first render and every push use this."""

from __future__ import annotations

import time
from typing import Any

from django.urls import reverse
from django.utils import timezone

from rooms.games import game_names, get_game
from rooms.models import Player, Room
from rooms.services import is_connected


def _seating(game_name: str) -> dict[str, Any]:
    seating = get_game(game_name).seating
    return {
        "teams": list(seating.teams),
        "roles": list(seating.roles),
        "single_roles": list(seating.single_roles),
    }


def _public_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The room's settings without its own word lists: only their size and use.

    A short list of a room's own Decrypto keywords would let each team narrow down the
    other's screen, so the words themselves never leave the server after saving.
    """
    public = {key: value for key, value in settings.items() if key != "words"}
    public["words"] = {
        game: {"mode": options.get("mode", "pack"), "count": len(options.get("list", []))}
        for game, options in settings.get("words", {}).items()
    }
    return public


def _you(room: Room, me: Player, *, device: bool) -> dict[str, Any]:
    """The viewer's own seat; their device link is theirs alone to see."""
    link = reverse("device", args=[room.slug, me.device_token]) if me.device_token else None
    return {
        "id": me.public_id,
        "name": me.name,
        "team": me.team,
        "role": me.role,
        "device": device,
        "device_link": link,
    }


def room_state(*, slug: str, uid: str | None, device_token: str | None = None) -> dict[str, Any]:
    """The room as the holder of ``uid`` may see it (``None``: a visitor who has not joined).

    Built field by field: the browser's session ``uid`` never leaves the server, and the
    game part comes only from the game's own redaction function.
    """
    room = Room.objects.filter(slug=slug).first()
    if room is None:
        default_game = game_names()[0]
        return {
            "type": "state",
            "version": 0,
            "now": time.time(),
            "slug": slug,
            "stored": False,
            "game": default_game,
            "games": game_names(),
            "seating": _seating(default_game),
            "players": [],
            "you": None,
            "language": "en",
            "settings": {},
            "scoreboard": {},
            "play": None,
        }
    players = list(room.players.all())
    me: Player | None
    if device_token:
        me = next((p for p in players if p.device_token == device_token), None)
    else:
        me = next((p for p in players if uid and p.uid == uid), None)
    now = timezone.now()
    game = get_game(room.game)
    return {
        "type": "state",
        "version": room.version,
        "now": time.time(),
        "slug": room.slug,
        "stored": True,
        "game": room.game,
        "games": game_names(),
        "seating": _seating(room.game),
        "players": [
            {
                "id": p.public_id,
                "name": p.name,
                "team": p.team,
                "role": p.role,
                "connected": is_connected(p, now),
            }
            for p in players
        ],
        "you": None if me is None else _you(room, me, device=bool(device_token)),
        "language": room.language,
        "settings": _public_settings(room.settings),
        "scoreboard": room.scoreboard,
        "play": game.view(room, me),
    }
