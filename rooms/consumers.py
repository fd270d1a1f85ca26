"""The room's socket: parse a frame, call a service, answer errors to the sender only."""

from __future__ import annotations

import json
import logging
import threading
import time
from importlib import import_module
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError
from django.utils.translation import gettext_lazy as _

from rooms import changes, chat, db, hub, limits, metrics, play, presence, receipts
from rooms.errors import RoomError
from rooms.frames import parse_frame, ref_of, take_at
from rooms.i18n import render_message, socket_language
from rooms.lobby import LOBBY_ACTIONS
from rooms.models import Player
from rooms.patch import PatchCache, encode
from rooms.slugs import is_valid_slug
from rooms.state import state_message, view_key_of, you_of

log = logging.getLogger(__name__)

# Per socket: a burst of 30 messages, then 10 a second (typing a clue draft sends a few a
# second). Past that, messages are refused before they reach the database.
BURST, RATE = 30.0, 10.0
PONG = json.dumps({"type": "pong"})
LIMITED: dict[str, Any] = {"limited": True}  # _identify's answer when a limit is reached
# Daphne accepts no standard close code but 1000 from an application (1008, "policy",
# fails the close itself): 4000 + 8 says the same.
CLOSE_TOO_MANY = 4008
# The database went away mid-handshake, after the socket was accepted: closed with this
# code, and the page retries with its backoff (before accepting, the socket is refused).
CLOSE_DATABASE_AWAY = 4503
DATABASE_AWAY = _("The server cannot reach its database for a moment; nothing was changed. Try again.")
LINK_REVOKED = "This link is no longer valid: open the new one from your seat."
REMOVED = _("You were removed from this room by the site's operators.")
ROOM_CLOSED = _("This room was closed by the site's operators.")
TABLE_VIEW = _("The table view only shows the game: play from your own screen.")
DRAINING = _("The server is restarting: that move was not applied. It is sent again on the new connection.")
QUIET_ACTIONS = ("ping", "sync", "chat_history")  # change nothing: never refused as draining
RELOAD_EVERY = 1.0  # seconds between two reads of a room for out-of-date pings
_reloaded: dict[str, float] = {}  # room -> when it was last read for one


_database_quiet = hub.bus.Quiet(logger=log)


def _player_of(players: list[Player], *, uid: str | None, device_token: str | None) -> Player | None:
    """The player a socket speaks for: by its device link, else by its session."""
    if device_token:
        return next((p for p in players if p.device_token == device_token), None)
    if uid:
        return next((p for p in players if p.uid == uid), None)
    return None


def _applied_meanwhile(player: Player | None, move_id: str | None) -> bool:
    """After a unique violation: whether it was this move's receipt, written by another
    process's transaction between our check and our write (SQLite, which takes no row lock)."""
    return player is not None and move_id is not None and receipts.applied(player.pk, move_id)


def _once(consumer: Any, move_id: str | None, act: Any, *, device: bool) -> None:
    """``act(room, players, player)`` under the room's lock, unless this player's
    ``move_id`` was applied already; its receipt kept in the same transaction when it
    succeeds. A refusal is raised after the lock is let go, keeping what the action
    committed on its way (a deadline that had passed, applied first)."""
    refused: RoomError | None = None
    player: Player | None = None
    try:
        with changes.locked_room(consumer.slug) as room:
            players = changes.room_players(room)
            if device:
                player = _player_of(players, uid=consumer.uid, device_token=consumer.device_token)
            else:
                player = next((p for p in players if consumer.uid and p.uid == consumer.uid), None)
            known = player is not None and move_id is not None
            if known and receipts.applied(player.pk, move_id):  # type: ignore[union-attr, arg-type]
                return
            try:
                act(room, players, player)
            except RoomError as error:
                refused = error
            else:
                if known:
                    receipts.keep(player.pk, move_id)  # type: ignore[union-attr, arg-type]
    except IntegrityError:
        if not _applied_meanwhile(player, move_id):
            raise
        return
    if refused is not None:
        raise refused


class RoomConsumer(AsyncWebsocketConsumer):
    """One socket of one browser in one room.

    The player is the one the Django session (or a device link) names, never one a
    message claims to be. Pushes come from the process's hub (``rooms.hub``), not from a
    channel of the socket's own: the socket needs no channel layer of its own at all.
    """

    # No channel per socket: the hub subscribes once per room for the whole process.
    channel_layer_alias = "__no_layer_per_socket__"

    slug: str
    uid: str | None
    player_id: str | None
    # The player this socket counts present (rooms.presence), until it is counted out: set
    # by the handshake's thread under ``_count_lock``, taken back once (``_give_up_count``).
    player_pk: int | None = None
    sent_version: int
    # Set once the socket is done with (a handshake that died, a disconnect): a handshake's
    # thread that counts after that counts itself out at once.
    _abandoned = False
    _count_flipped = False  # its count was the player's first (a presence push may be owed)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._count_lock = threading.Lock()

    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        if not is_valid_slug(self.slug):
            await self.close(code=4404)
            return
        self.device_token = self.scope["url_route"]["kwargs"].get("token")
        # The table view (a shared screen) is a visitor whoever opens it: see _identify.
        self.table = self.scope["url_route"]["kwargs"].get("view") == "table"
        self.language = socket_language(self.scope)
        self.ip = limits.client_ip(self.scope)
        if limits.COUNTS.is_blocked(self.ip) or not limits.COUNTS.open_socket(self.ip):
            await self.refuse()
            return
        self.counted_ip = True
        self.hub = hub.get_hub()  # its process counts the socket present (rooms.presence)
        # One trip to the database: who this socket is, and (by session) counted present.
        self.uid, seat = await db.run_in_pool(self._identify)()
        if seat is LIMITED:
            await self.refuse()
            return
        if self.device_token and seat is None:
            await self.accept()
            await self.send_error("link_revoked", LINK_REVOKED)
            await self.close(code=4403)
            return
        self.player_id = seat["public_id"] if seat else None
        self.sent_version, self.sent_key, self.sent_you = -1, "", None
        await self.accept()
        self.metered = True
        metrics.socket_opened()
        await self.hub.attach(self)
        if seat and seat["flipped"]:
            self.hub.presence_changed(self.slug)
        await self.send_state(await self.hub.snapshot(self.slug))
        await self.send_chat_history(quiet=True)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        """The handshake, refused cleanly (not a server error) while the database is away.

        A handshake that dies (cancelled by Daphne when its client left and it did not end
        within the close timeout, even while its thread is still counting; or failed: the
        client gone at ``accept``, a push that failed) gets no ``disconnect``: what it
        counted is taken back here, once.
        """
        try:
            await super().websocket_connect(message)
        except (OperationalError, InterfaceError):
            _database_quiet.warn("room %s: a handshake was refused: the database is away", self.slug)
            self._handshake_died()
            # Before accepting: refused (HTTP 403); after: closed with this code.
            await self.close(code=CLOSE_DATABASE_AWAY)
        except BaseException:
            self._handshake_died()
            raise

    def _handshake_died(self) -> None:
        """Undo what the handshake counted, without awaiting (it may be being cancelled)."""
        pk = self._leave()
        if pk is not None:
            db.start_in_pool(self._count_out_abandoned, pk, self._count_flipped)

    def _leave(self) -> int | None:
        """This socket is done with: uncounted from its address and the metrics, off the
        hub; the player it counted present, if any, is returned to be counted out (once)."""
        self._uncount_ip()
        if getattr(self, "metered", False):
            self.metered = False
            metrics.socket_closed()
        if hasattr(self, "sent_version"):  # attached to the hub, or about to be
            self.hub.detach(self)
        return self._give_up_count()

    def _give_up_count(self) -> int | None:
        """The player this socket counted, now no longer its own (``None``: nothing to
        count out); from now on a count its handshake's thread makes is undone by it."""
        with self._count_lock:
            self._abandoned = True
            pk, self.player_pk = self.player_pk, None
            return pk

    def _counted(self, pk: int, flipped: bool) -> None:
        """From the handshake's thread, just after it counted the player: the count is the
        socket's own, or counted out at once if the handshake died meanwhile."""
        with self._count_lock:
            if not self._abandoned:
                self.player_pk, self._count_flipped = pk, flipped
                return
        self._count_out_abandoned(pk, flipped)

    def _count_out_abandoned(self, pk: int, flipped: bool) -> None:
        """On a pool thread: a dead handshake's count taken back, and the room pushed if
        its connected marks may be wrong (the player went away, or the handshake died
        before pushing the arrival its count was)."""
        process = self.hub.process
        try:
            went_away = presence.presence_close(pk=pk, process=process)
        except (OperationalError, InterfaceError):
            # Counted out of this process's sockets: its next beat writes it.
            _database_quiet.warn("room %s: a dead handshake's count waits for the database", self.slug)
            return
        except Exception:
            log.exception("room %s: counting out a dead handshake failed", self.slug)
            return
        if (went_away or flipped) and process.on_change is not None:
            process.on_change({self.slug}, False)

    async def refuse(self) -> None:
        """A limit reached at the handshake: refused before it opens (HTTP 403).

        Not accepted, so the page never sees the socket open and its reconnect backoff
        keeps growing; an accepted-then-closed socket would be retried at once, a storm.
        """
        self._uncount_ip()
        await self.close()

    def _uncount_ip(self) -> None:
        if getattr(self, "counted_ip", False):
            self.counted_ip = False
            limits.COUNTS.close_socket(self.ip)

    def _identify(self) -> tuple[str | None, dict[str, Any] | None]:
        """The session's uid (unless a device link speaks) and the player it names, if any.

        ``LIMITED`` instead when this address opened too many sockets lately, or guessed
        too many device links.
        """
        if not limits.hit("handshakes_per_ip", self.ip):
            limits.COUNTS.block(self.ip)
            return None, LIMITED
        if self.table:
            # Opened from a player's own browser, the table view would otherwise carry that
            # player's secrets onto the TV: its session is never read.
            return None, None
        uid = None
        key = self.scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
        if not self.device_token and key:
            found = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key).get("uid")
            uid = found if isinstance(found, str) else None
        seat = presence.presence_open(
            slug=self.slug, uid=uid, device_token=self.device_token, process=self.hub.process
        )
        if seat is not None and not self.device_token:  # counted (a device link is not)
            self._counted(seat["pk"], seat["flipped"])
        if seat is None and self.device_token and not limits.hit("device_failures_per_ip", self.ip):
            limits.COUNTS.block(self.ip)
            return None, LIMITED
        return uid, seat

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch, without its hop to close the thread-sensitive executor's old
        connections before every frame: this socket's database work runs on the pool
        (rooms.db), which keeps its own connections."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        pk = self._leave()
        if pk is not None:
            # Counted first, whatever else fails: presence must not drift. To its end even
            # if Daphne cancels this socket while it waits for a pool thread.
            try:
                went_away = await db.run_to_end(presence.presence_close, pk=pk, process=self.hub.process)
            except (OperationalError, InterfaceError):
                # Counted out of this process's sockets: its next beat with the database
                # back writes it (rooms.presence).
                _database_quiet.warn("room %s: a departure waits for the database", self.slug)
                return
            if went_away:
                self.hub.presence_changed(self.slug)

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
        if getattr(self, "closing", False):
            if getattr(self, "draining", False):
                await self._refuse_draining(text_data)
            return  # frames still queued from a socket being closed: nothing to answer
        ref = None
        if not self.within_rate():
            await self.send_error(
                "too_fast", _("Too many messages at once: slow down a little."), ref_of(text_data)
            )
            return
        if not limits.COUNTS.message(getattr(self, "ip", None)):
            # Many sockets of one address flooding together: this one is closed.
            self._uncount_ip()  # now: a flood's sockets must not hold places while closing
            limits.COUNTS.block(self.ip)  # and its reconnects are refused for a while
            await self._close_once(
                CLOSE_TOO_MANY, "too_many", _("Too many messages from your network: slow down.")
            )
            return
        pushes: list[dict[str, Any]] = []
        started, action, failed = time.perf_counter(), None, None
        try:
            message = parse_frame(text_data, bytes_data)
            ref = message.get("ref") if isinstance(message.get("ref"), str | int) else None
            action = message["action"]
            take_at(message)
            move_id = None if action in QUIET_ACTIONS else receipts.take_id(message)
            await self.dispatch_action(message, pushes, move_id)
        except RoomError as error:
            failed = error.code
            if ref is None:
                ref = ref_of(text_data)  # a frame refused before it was read still names its ref
            await self.send_error(error.code, error.message, ref, error.params)
        except (OperationalError, InterfaceError):
            _database_quiet.warn("room %s: an action was refused: the database is away", self.slug)
            await self.send_error("unavailable", DATABASE_AWAY, ref)
        except Exception:
            # A bug, not a player's mistake: keep the socket, say little, log it all.
            failed = "server_error"
            log.exception("room %s: action failed", self.slug)
            await self.send_error(
                "server_error", "Something went wrong on the server; nothing was changed.", ref
            )
        finally:
            # Whatever the answer, what was committed is pushed (a deadline applied on
            # the way to a refused move, say).
            for snapshot in pushes:
                await hub.publish(snapshot)
            if action not in ("ping", "sync"):
                metrics.action_done(time.perf_counter() - started, failed)

    async def _refuse_draining(self, text_data: str | None) -> None:
        """A frame that reached this socket after its process began draining (rooms.drain):
        not applied, and answered ``draining`` while the socket can still carry an answer.
        Once its close frame is out it cannot: the page resends every move it saw no answer
        to on its next socket, under the move's ``id`` (applied at most once)."""
        try:
            message = json.loads(text_data or "")
        except ValueError:
            return
        if not isinstance(message, dict) or message.get("action") in QUIET_ACTIONS:
            return
        try:
            await self.send_error("draining", DRAINING, ref_of(text_data))
        except Disconnected:
            pass  # the close frame went first

    async def dispatch_action(
        self, message: dict[str, Any], pushes: list[dict[str, Any]], move_id: str | None = None
    ) -> None:
        action = message["action"]
        if action == "ping":
            await self.send(text_data=PONG)
            if message.get("version") != self.sent_version:
                await self.send_state(await self._fresh_snapshot(), force=True)
            return
        if action == "sync":
            # The process's own copy: it is the latest version this process knows, kept
            # current by every push and a check against the database every few seconds.
            await self.send_state(await self.hub.snapshot(self.slug), force=True)
            return
        if action == "chat_history":
            await self.send_chat_history(quiet=False)
            return
        if self.table:
            raise RoomError("table_view", TABLE_VIEW)
        if action == "say":
            await self.say(message)
            return
        handler = LOBBY_ACTIONS.get(action)
        if handler is not None:
            if self.device_token:
                raise RoomError("not_joined", _("Join the room first."))
            if move_id is None:
                await db.call_collecting(pushes, handler, self, message)
            else:
                await db.call_collecting(pushes, self.lobby_action_once, handler, message, move_id)
        else:
            await db.call_collecting(pushes, self.game_action, message, move_id)

    async def _fresh_snapshot(self) -> dict[str, Any]:
        """The room read afresh (a client says it missed something), at most once per
        RELOAD_EVERY per room: a reload renders every view and pushes to every socket, so
        a socket repeating out-of-date pings must not make each one cost that."""
        now = time.monotonic()
        if now - _reloaded.get(self.slug, -RELOAD_EVERY) < RELOAD_EVERY:
            return await self.hub.snapshot(self.slug)
        if len(_reloaded) > 10_000:
            _reloaded.clear()
        _reloaded[self.slug] = now
        return await self.hub.reload(self.slug)

    # ---- table talk (rooms/chat.py) -------------------------------------------------------
    async def say(self, message: dict[str, Any]) -> None:
        if self.device_token:
            raise RoomError("not_joined", _("Join the room first."))
        if not hasattr(self, "chat_allowance"):
            self.chat_allowance = chat.Allowance()
        wait = self.chat_allowance.take()
        if wait:
            raise RoomError(
                "chat_too_fast", _("You are talking fast: wait %(seconds)s s."), seconds=max(1, round(wait))
            )
        said = await db.run_in_pool(chat.chat_say)(
            slug=self.slug,
            uid=self.uid,
            channel=message.get("channel"),
            text=message.get("text"),
            ip=getattr(self, "ip", None),
        )
        await hub.publish_chat(said)

    async def send_chat_history(self, *, quiet: bool) -> None:
        """The recent lines this socket's seat may read (``quiet``: nothing when there are none)."""
        lines = await db.run_in_pool(chat.chat_history)(
            slug=self.slug, uid=None if self.table else self.uid, device_token=self.device_token
        )
        if lines or not quiet:
            await self.send(text_data=encode({"type": "chat", "history": True, "messages": lines}))

    async def said(self, line: dict[str, Any], frame: str) -> None:
        """A line the hub found this socket's player may read."""
        if not getattr(self, "closing", False):
            await self.send(text_data=frame)
            metrics.pushed("chat")

    def game_action(self, message: dict[str, Any], move_id: str | None = None) -> None:
        """A move of the game; one whose ``move_id`` was applied already is not applied
        again, and answered by nothing but the state the page is sent anyway."""

        def act(room: Any, players: list[Player], player: Player | None) -> None:
            if player is None:
                raise RoomError("not_joined", _("Join the room first."))
            changes.remember(room, players=players)
            play.act(room, players, player, message)

        _once(self, move_id, act, device=True)

    def lobby_action_once(self, handler: Any, message: dict[str, Any], move_id: str) -> None:
        """A lobby action under its ``move_id``, as ``game_action`` does: the room's lock
        taken around the action's own (a nested block of the same transaction)."""
        _once(self, move_id, lambda room, players, player: handler(self, message), device=False)

    # ---- what this socket is sent ------------------------------------------------------
    async def push(self, snapshot: dict[str, Any], patches: PatchCache) -> None:
        """A newer version of the room: this socket's own view, as a patch when it can be."""
        if snapshot["version"] <= self.sent_version:
            return
        if await self._revoked(snapshot) or await self._removed(snapshot):
            return
        key = view_key_of(snapshot, self.player_id)
        you = you_of(snapshot, self.player_id, device=bool(self.device_token))
        if key == self.sent_key and patches.applies(self.sent_version):
            extra = [] if you == self.sent_you else [["set", ["you"], you]]
            self.sent_version, self.sent_you = snapshot["version"], you
            await self.send(text_data=patches.message(key, extra))
            metrics.pushed("patch")
        else:
            await self.send_state(snapshot)

    async def send_state(self, snapshot: dict[str, Any], force: bool = False) -> None:
        """The whole room as this socket may see it."""
        if await self._revoked(snapshot):
            return
        if not force and snapshot["version"] <= self.sent_version:
            return
        message = state_message(snapshot, self.player_id, device=bool(self.device_token))
        self.sent_version, self.sent_key, self.sent_you = (
            snapshot["version"],
            view_key_of(snapshot, self.player_id),
            message["you"],
        )
        await self.send(text_data=encode(message))
        metrics.pushed("state")

    async def _removed(self, snapshot: dict[str, Any]) -> bool:
        """This socket's player was removed by the operators: told once, then closed (4403)."""
        if self.player_id is None or self.player_id in snapshot["seats"]:
            return False
        self._uncount()  # the row is gone: nothing left to count out
        await self._close_once(4403, "removed", REMOVED)
        return True

    async def room_closed(self) -> None:
        """The operators closed the room: told once, then closed (4410)."""
        self._uncount()  # deleted with the room
        await self._close_once(4410, "room_closed", ROOM_CLOSED)

    def _uncount(self) -> None:
        """The player's row was deleted (its presence rows with it): this socket no longer
        counts, here or in the database."""
        pk = self._give_up_count()
        if pk is not None:
            self.hub.process.forget(pk)

    async def _revoked(self, snapshot: dict[str, Any]) -> bool:
        """A device socket whose link was regenerated: told once, then closed (4403)."""
        if not self.device_token or not snapshot["base"]["stored"]:
            return False
        link = snapshot["links"].get(self.player_id or "") or ""
        if link.rstrip("/").rsplit("/", 1)[-1] == self.device_token:
            return False
        await self._close_once(4403, "link_revoked", LINK_REVOKED)
        return True

    async def _close_once(self, code: int, error: str, message: Any) -> None:
        """Say why, then close; whatever else arrives meanwhile is not answered."""
        if getattr(self, "closing", False):
            return
        self.closing = True
        await self.send_error(error, message)
        await self.close(code=code)

    async def send_error(
        self, code: str, message: Any, ref: Any = None, params: dict[str, Any] | None = None
    ) -> None:
        text = render_message(message, params or {}, getattr(self, "language", "en"))
        payload: dict[str, Any] = {"type": "error", "code": code, "message": text}
        if ref is not None:
            payload["ref"] = ref
        if params:
            payload["params"] = params
        # ASCII escapes: an answer can always be encoded, whatever it quotes.
        await self.send(text_data=json.dumps(payload))
