"""Table talk: the room's channel (everyone in the room) and each team's (the people
seated in it), within the game's rules; stored, numbered and bounded; pushed without a
game render.

A line is said under the room's row lock (``rooms.changes.locked_room``), like every
change to a room: its speaker, its readers and its number are read in order with the
seat changes, moves and operators' actions that lock the room too. Who reads a team
line is decided then and stored with it (``ChatMessage.readers``): a player who sits in
that team later never reads it, in a push or in a history, whatever seats they take.
Each line gets the room's next number (``seq``), so a process that missed lines (Redis
away, a resubscription) reads exactly the ones after the last it delivered, and the trim
keeps exactly the newest ``KEPT``.
"""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any

from django.db import connection
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from rooms import limits
from rooms.changes import locked_room, room_players
from rooms.errors import RoomError
from rooms.games import get_game
from rooms.models import ChatMessage, Player, Room, room_identity

CHANNELS = ("room", "team")
MAX_TEXT = 280  # code points, after NFC and trimming
KEPT = 300  # lines kept per room: the newest, exactly
HISTORY = 60  # lines a socket gets when it opens (or asks)
# Per socket: a burst of this many lines, then one every EVERY seconds. A browser's
# sockets together, and an address's, are held to RATE_LIMITS' chat_lines_per_* too.
BURST, EVERY = 6, 1.5

# Characters that show nothing or reorder what shows, so a line could read as another's
# words, hide text from the readers it is shown to, or break a search: direction marks,
# embeddings, overrides and isolates; zero-width spaces and joiners; the word joiner and
# invisible operators; the byte order mark; the Mongolian vowel separator; tag
# characters; noncharacters. The zero-width joiner is kept inside an emoji sequence (👩‍💻)
# and tag characters inside a subdivision flag (🏴 + tags + cancel tag), where they draw.
_INVISIBLE = re.compile(
    "[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
    "\U000e0000-\U000e007f\ufdd0-\ufdef\ufffe\uffff]"
    "|[\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff\U0004fffe\U0004ffff"
    "\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff\U0008fffe\U0008ffff"
    "\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff\U000cfffe\U000cffff"
    "\U000dfffe\U000dffff\U000efffe\U000effff\U000ffffe\U000fffff\U0010fffe\U0010ffff]"
)
_FLAG = re.compile("\U0001f3f4[\U000e0020-\U000e007e]{1,7}\U000e007f")
_ZWJ = "\u200d"


def _emoji(char: str) -> bool:
    """A character an emoji sequence joins (a pictograph, a skin tone, a variation)."""
    return unicodedata.category(char) == "So" or "\U0001f3fb" <= char <= "\U0001f3ff" or char == "\ufe0f"


def _invisible(text: str) -> bool:
    """True when ``text`` holds a character a line may not (above)."""
    text = _FLAG.sub("", text)
    for index, char in enumerate(text):
        if char == _ZWJ and not (
            0 < index < len(text) - 1
            and _emoji(text[index - 1])
            and unicodedata.category(text[index + 1]) == "So"
        ):
            return True
    return _INVISIBLE.search(text.replace(_ZWJ, "")) is not None


def clean_text(raw: object) -> str:
    if not isinstance(raw, str):
        raise RoomError("chat_empty", _("Type something to say."))
    text = unicodedata.normalize("NFC", raw).strip()
    if _invisible(text):
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
        "seq": line.seq,
        "channel": channel,
        "team": team or None,
        "author": line.author_public_id,
        "name": line.author_name,
        "text": line.text,
        "at": round(line.created_at.timestamp(), 3),
    }


def _said(room: Room, line: ChatMessage) -> dict[str, Any]:
    """The push that carries ``line``: its readers named (``None``: everyone in the room)."""
    readers = None if line.channel == "room" else [r for r in line.readers.split(",") if r]
    return {
        "slug": room.slug,
        "room": room_identity(room.pk, room.created_at),
        "kind": "chat",
        "readers": readers,
        "line": wire(line),
    }


def _check_allowance(uid: str, ip: str | None) -> None:
    """A browser's and an address's lines across all their sockets (shared through Redis)."""
    for rule, key in (("chat_lines_per_session", uid), ("chat_lines_per_ip", ip)):
        if not limits.hit(rule, key):
            raise RoomError(
                "chat_too_fast",
                _("You are talking fast: wait %(seconds)s s."),
                seconds=int(limits.wait(rule, key)),
            )


def chat_say(
    *, slug: str, uid: str | None, channel: object, text: object, ip: str | None = None
) -> dict[str, Any]:
    """Store a line; the push that carries it (its readers named)."""
    if channel not in CHANNELS:
        raise RoomError("bad_channel", _("Say it in the room or to your team."))
    words = clean_text(text)
    if not uid:
        raise RoomError("not_joined", _("Join the room first."))
    _check_allowance(uid, ip)
    try:
        with locked_room(slug) as room:
            players = room_players(room)
            player = next((p for p in players if p.uid == uid), None)
            if player is None:
                raise RoomError("not_joined", _("Join the room first."))
            readers = ""
            stored = "room"
            if channel == "team":
                if not player.team:
                    raise RoomError("chat_no_team", _("Take a seat in a team to talk to it."))
                stored = f"team:{player.team}"
                seated = [p.public_id for p in players if p.team == player.team and not p.bot]
                readers = "," + ",".join(seated) + ","
            muted = get_game(room.game).chat_muted(room, player)
            if muted is not None:
                raise RoomError("chat_not_now", muted)
            room.chat_seq += 1
            with connection.cursor() as cursor:
                cursor.execute(
                    f"UPDATE {Room._meta.db_table} SET chat_seq = %s WHERE id = %s", [room.chat_seq, room.pk]
                )
            line = ChatMessage.objects.create(
                room=room,
                channel=stored,
                author=player,
                author_public_id=player.public_id,
                author_name=player.name,
                text=words,
                seq=room.chat_seq,
                readers=readers,
            )
            # Exact: lines are numbered without gaps under this lock, so the newest KEPT
            # are those above this number (an operator's deletion only leaves fewer).
            ChatMessage.objects.filter(room=room, seq__lte=room.chat_seq - KEPT).delete()
            return _said(room, line)
    except RoomError as error:
        if error.code == "no_room":
            raise RoomError("not_joined", _("Join the room first.")) from None
        raise


def _readable(player: Player | None) -> Q:
    """The stored lines ``player`` reads now (``None``: a visitor or a table view): the
    room's, and the lines of their present team said while they sat in it."""
    readable = Q(channel="room")
    if player is not None and player.team and not player.bot:
        readable |= Q(channel=f"team:{player.team}", readers__contains=f",{player.public_id},")
    return readable


def chat_history(*, slug: str, uid: str | None, device_token: str | None = None) -> list[dict[str, Any]]:
    """The recent lines this socket's seat may read now, oldest first."""
    players = Player.objects.filter(room__slug=slug)
    if device_token:
        player = players.filter(device_token=device_token).first()
    else:
        player = players.filter(uid=uid).first() if uid else None
    lines = ChatMessage.objects.filter(_readable(player), room__slug=slug).order_by("-id")
    return [wire(line) for line in reversed(lines[:HISTORY])]


def chat_since(*, slug: str, after: int, upto: int | None = None) -> list[dict[str, Any]]:
    """The pushes of the room's lines numbered after ``after`` (up to ``upto``), in order:
    what a process that missed them delivers late (``rooms.hub``)."""
    room = Room.objects.filter(slug=slug).first()
    if room is None:
        return []
    lines = ChatMessage.objects.filter(room=room, seq__gt=after)
    if upto is not None:
        lines = lines.filter(seq__lte=upto)
    return [_said(room, line) for line in lines.order_by("seq")[:KEPT]]


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
