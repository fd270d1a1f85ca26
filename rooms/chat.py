"""Table talk: the room's channel (everyone in the room) and each team's (its seated
players), within the game's rules; stored and bounded; pushed without a game render.

Who reads a line is decided once, when it is said, from the room's rows under its lock:
the push names its readers (``None``: everyone in the room), so no process has to guess
who was on which team at that moment, and a line never reaches a socket outside them.
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from rooms.errors import RoomError
from rooms.games import get_game
from rooms.models import ChatMessage, Player, Room, room_identity

CHANNELS = ("room", "team")
MAX_TEXT = 280
KEPT = 300  # lines kept per room; older ones are deleted as new ones come
TRIM_EVERY = 25  # …checked every this many lines (a delete per line would double the cost)
HISTORY = 60  # lines a socket gets when it opens (or asks)
# Per socket: a burst of this many lines, then one every RATE seconds.
BURST, EVERY = 6, 1.5

# Text direction overrides and isolates could make a line read as another's words.
_SPOOF = re.compile("[\u202a-\u202e\u2066-\u2069]")


def clean_text(raw: object) -> str:
    if not isinstance(raw, str):
        raise RoomError("chat_empty", _("Type something to say."))
    text = unicodedata.normalize("NFC", raw).strip()
    if _SPOOF.search(text):
        raise RoomError("bad_text", _("That message contains characters that cannot be used."))
    if not text:
        raise RoomError("chat_empty", _("Type something to say."))
    if len(text) > MAX_TEXT:
        raise RoomError(
            "chat_too_long",
            ngettext_lazy(
                "Messages are at most %(limit)s character.",
                "Messages are at most %(limit)s characters.",
                MAX_TEXT,
            ),
            limit=MAX_TEXT,
        )
    return text


def wire(line: ChatMessage) -> dict[str, Any]:
    """A line as every client gets it (docs/protocol.md, ``chat``)."""
    channel, _sep, team = line.channel.partition(":")
    return {
        "id": line.pk,
        "channel": channel,
        "team": team or None,
        "author": line.author_public_id,
        "name": line.author_name,
        "text": line.text,
        "at": round(line.created_at.timestamp(), 3),
    }


def chat_say(*, slug: str, uid: str | None, channel: object, text: object) -> dict[str, Any]:
    """Store a line; the push that carries it (its readers named)."""
    if channel not in CHANNELS:
        raise RoomError("bad_channel", _("Say it in the room or to your team."))
    words = clean_text(text)
    with transaction.atomic():
        # One read for the speaker and their room. A team's line also locks the room: its
        # readers are then read in order with the seat changes that moves and `sit` make.
        found = Player.objects.select_related("room").filter(room__slug=slug, uid=uid) if uid else None
        player = found.first() if found is not None else None
        if player is None:
            raise RoomError("not_joined", _("Join the room first."))
        room = player.room
        readers: list[str] | None = None
        stored = "room"
        if channel == "team":
            Room.objects.select_for_update().filter(pk=room.pk).values_list("pk").first()
            player.refresh_from_db(fields=["team", "role"])
            if not player.team:
                raise RoomError("chat_no_team", _("Take a seat in a team to talk to it."))
            stored = f"team:{player.team}"
            readers = list(
                Player.objects.filter(room=room, team=player.team, bot=False).values_list(
                    "public_id", flat=True
                )
            )
        muted = get_game(room.game).chat_muted(room, player)
        if muted is not None:
            raise RoomError("chat_not_now", muted)
        line = ChatMessage.objects.create(
            room=room,
            channel=stored,
            author=player,
            author_public_id=player.public_id,
            author_name=player.name,
            text=words,
        )
        if line.pk % TRIM_EVERY == 0:
            _trim(room)
        return {
            "slug": room.slug,
            "room": room_identity(room.pk, room.created_at),
            "kind": "chat",
            "readers": readers,
            "line": wire(line),
        }


def _trim(room: Room) -> None:
    edge = ChatMessage.objects.filter(room=room).order_by("-id").values_list("id", flat=True)[KEPT : KEPT + 1]
    oldest_kept = list(edge)
    if oldest_kept:
        ChatMessage.objects.filter(room=room, id__lte=oldest_kept[0]).delete()


def readable_channels(player: Player | None) -> list[str]:
    """The stored channels ``player`` reads (``None``: a visitor or a table view)."""
    channels = ["room"]
    if player is not None and player.team and not player.bot:
        channels.append(f"team:{player.team}")
    return channels


def chat_history(*, slug: str, uid: str | None, device_token: str | None = None) -> list[dict[str, Any]]:
    """The recent lines of the channels this socket's seat may read now, oldest first."""
    players = Player.objects.filter(room__slug=slug)
    if device_token:
        player = players.filter(device_token=device_token).first()
    else:
        player = players.filter(uid=uid).first() if uid else None
    lines = ChatMessage.objects.filter(room__slug=slug, channel__in=readable_channels(player)).order_by("-id")
    return [wire(line) for line in reversed(lines[:HISTORY])]


class Allowance:
    """A socket's chat rate: ``BURST`` lines at once, then one every ``EVERY`` seconds."""

    def __init__(self) -> None:
        self.tokens, self.at = float(BURST), time.monotonic()

    def take(self) -> float:
        """0 when a line may go now; else the seconds until one may."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.at) / EVERY)
        self.at = now
        if self.tokens < 1:
            return (1 - self.tokens) * EVERY
        self.tokens -= 1
        return 0.0
