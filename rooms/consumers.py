"""The room's socket: parse a frame, call a service, answer errors to the sender only."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext_lazy as _

from rooms import services
from rooms.errors import RoomError
from rooms.games import get_game
from rooms.i18n import render_message, socket_language
from rooms.slugs import is_valid_slug
from rooms.state import room_state

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 16 * 1024
MAX_DEPTH = 4
# Per socket: a burst of 30 messages, then 10 a second (typing a clue draft sends a few a
# second). Past that, messages are refused before they reach the database.
BURST, RATE = 30.0, 10.0


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def parse_frame(text: str | None, data: bytes | None) -> dict[str, Any]:
    """Turn a frame into an action dict, or raise RoomError saying what is wrong with it."""
    if data is not None and text is None:
        raise RoomError("bad_frame", _("Binary frames are not accepted; send JSON text."))
    if not text:
        raise RoomError("bad_frame", _("Empty message."))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise RoomError(
            "too_large", _("Messages are limited to %(limit)s KiB."), limit=MAX_FRAME_BYTES // 1024
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise RoomError("bad_json", _("That message is not valid JSON.")) from None
    if not isinstance(message, dict):
        raise RoomError("bad_message", _("A message is a JSON object with an 'action'."))
    if _depth(message) > MAX_DEPTH:
        raise RoomError("bad_message", _("That message is nested too deeply."))
    if not isinstance(message.get("action"), str):
        raise RoomError("bad_message", _("A message needs an 'action' string."))
    return message


class RoomConsumer(AsyncWebsocketConsumer):
    """One socket of one browser in one room.

    The player is the one the Django session names, never one a message claims to be.
    """

    slug: str
    uid: str | None
    sent_version: int

    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        if not is_valid_slug(self.slug):
            await self.close(code=4404)
            return
        self.device_token = self.scope["url_route"]["kwargs"].get("token")
        session = self.scope.get("session")
        if self.device_token:
            # A second device speaks for the player its link names, not for its session.
            self.uid = None
        else:
            # The session loads from the database lazily: read it off the event loop.
            self.uid = await database_sync_to_async(session.get)("uid") if session is not None else None
        self.sent_version = -1
        self.language = socket_language(self.scope)
        await self.channel_layer.group_add(services.group_name(self.slug), self.channel_name)
        await self.accept()
        await database_sync_to_async(services.presence_change)(slug=self.slug, uid=self.uid, delta=+1)
        await self.send_state(force=True)

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "sent_version"):
            return
        await self.channel_layer.group_discard(services.group_name(self.slug), self.channel_name)
        await database_sync_to_async(services.presence_change)(slug=self.slug, uid=self.uid, delta=-1)

    def within_rate(self) -> bool:
        """A token bucket: True if this message may go on."""
        now = time.monotonic()
        allowance = getattr(self, "allowance", BURST)
        last = getattr(self, "last_message", now)
        self.allowance = min(BURST, allowance + (now - last) * RATE)
        self.last_message = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        ref = None
        if not self.within_rate():
            await self.send_error("too_fast", _("Too many messages at once: slow down a little."))
            return
        try:
            message = parse_frame(text_data, bytes_data)
            ref = message.get("ref") if isinstance(message.get("ref"), str | int) else None
            await self.dispatch_action(message)
        except RoomError as error:
            await self.send_error(error.code, error.message, ref, error.params)
        except Exception:
            # A bug, not a player's mistake: keep the socket, say little, log it all.
            log.exception("room %s: action failed", self.slug)
            await self.send_error(
                "server_error", "Something went wrong on the server; nothing was changed.", ref
            )

    async def dispatch_action(self, message: dict[str, Any]) -> None:
        action = message["action"]
        if action == "ping":
            await database_sync_to_async(services.presence_heartbeat)(slug=self.slug, uid=self.uid)
            known = message.get("version")
            await self.send(text_data=json.dumps({"type": "pong"}))
            if known != self.sent_version:
                await self.send_state(force=True)
            return
        if action == "sync":
            await self.send_state(force=True)
            return
        handler = LOBBY_ACTIONS.get(action)
        if handler is not None:
            await database_sync_to_async(handler)(self, message)
        else:
            await database_sync_to_async(self.game_action)(message)

    def game_action(self, message: dict[str, Any]) -> None:
        refused: RoomError | None = None
        with services.locked_room(self.slug) as room:
            player = services.find_player(room, uid=self.uid, device_token=self.device_token)
            if player is None:
                raise RoomError("not_joined", _("Join the room first."))
            try:
                get_game(room.game).act(room, player, message)
            except RoomError as error:
                # A refused move changes nothing of its own, but a deadline that had
                # passed may have been applied on the way: keep that, then answer.
                refused = error
        if refused is not None:
            raise refused

    async def room_changed(self, event: dict[str, Any]) -> None:
        if event.get("version", 0) > self.sent_version:
            await self.send_state()

    async def send_state(self, force: bool = False) -> None:
        state = await database_sync_to_async(room_state)(
            slug=self.slug, uid=self.uid, device_token=self.device_token
        )
        if self.device_token and state["you"] is None:
            await self.send_error(
                "link_revoked", "This link is no longer valid: open the new one from your seat."
            )
            await self.close(code=4403)
            return
        if force or state["version"] > self.sent_version:
            self.sent_version = state["version"]
            await self.send(text_data=json.dumps(state, ensure_ascii=False, separators=(",", ":")))

    async def send_error(
        self, code: str, message: Any, ref: Any = None, params: dict[str, Any] | None = None
    ) -> None:
        text = render_message(message, params or {}, getattr(self, "language", "en"))
        payload: dict[str, Any] = {"type": "error", "code": code, "message": text}
        if ref is not None:
            payload["ref"] = ref
        if params:
            payload["params"] = params
        await self.send(text_data=json.dumps(payload, ensure_ascii=False))


def _rename(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_rename(slug=consumer.slug, uid=consumer.uid, name=message.get("name"))


def _sit(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_sit(
        slug=consumer.slug, uid=consumer.uid, team=message.get("team"), role=message.get("role")
    )


def _shuffle(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_shuffle(slug=consumer.slug, uid=consumer.uid)


def _device_link(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_device_link(
        slug=consumer.slug, uid=consumer.uid, regenerate=message.get("regenerate") is True
    )


def _set_language(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_set_language(slug=consumer.slug, uid=consumer.uid, language=message.get("language"))


def _set_words(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_set_words(
        slug=consumer.slug,
        uid=consumer.uid,
        game=message.get("game"),
        mode=message.get("mode"),
        text=message.get("text"),
    )


def _set_game(consumer: RoomConsumer, message: dict[str, Any]) -> None:
    services.room_set_game(slug=consumer.slug, uid=consumer.uid, game=message.get("game"))


LOBBY_ACTIONS: dict[str, Callable[[RoomConsumer, dict[str, Any]], None]] = {
    "rename": _rename,
    "sit": _sit,
    "shuffle": _shuffle,
    "set_game": _set_game,
    "device_link": _device_link,
    "set_language": _set_language,
    "set_words": _set_words,
}
