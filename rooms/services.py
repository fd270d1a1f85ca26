"""Everything that changes a room: each function saves first, then tells the room.

Every change runs in one transaction holding the room's row lock. A change players can
see calls ``bump``; when the locked block ends, the room's version goes up by exactly
one, every distinct view of the room is rendered once (``rooms.state``), and only after
the commit is that push sent (``rooms.hub``), so no socket ever hears of a change that
was rolled back and no socket reads the database to receive one.
"""

from __future__ import annotations

import random
import secrets
import time
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rooms.errors import RoomBusy, RoomError
from rooms.games import WordRules, game_names, get_game
from rooms.models import GameRecord, Player, Room
from rooms.slugs import is_valid_slug
from rooms.words import OWN_WORDS_MAX, PACK_LANGUAGES, WORD_MODES, parse_own_words

NAME_MAX_LENGTH = 24
# A browser pings every 25 s; one missed ping is forgiven before "away" shows.
PRESENCE_GRACE = timedelta(seconds=60)


def room_identity(pk: int, created_at: Any) -> str:
    """Which room a row is, for pushes between processes: its key and creation stamp (a
    room closed and created again under the same name, even with a reused key on SQLite,
    is another room)."""
    return f"{pk}.{int(created_at.timestamp() * 1_000_000)}"


def new_uid() -> str:
    return secrets.token_urlsafe(24)


def clean_name(raw: object) -> str:
    """A display name: NFC, no control or format characters, spaces folded, 1–24 chars."""
    if not isinstance(raw, str):
        raise RoomError("bad_name", _("Please type a name."))
    text = unicodedata.normalize("NFC", raw)
    # Drop control and invisible format characters (bidi overrides, zero-width) that
    # could make two names look alike or reorder the roster's text.
    text = "".join(
        ch for ch in text if unicodedata.category(ch) not in {"Cc", "Cf", "Co", "Cs"} or ch == "\u200d"
    )
    text = " ".join(text.split())
    if not text:
        raise RoomError("bad_name", _("Please type a name."))
    if len(text) > NAME_MAX_LENGTH:
        raise RoomError("bad_name", _("Names are at most %(limit)s characters."), limit=NAME_MAX_LENGTH)
    return text


@contextmanager
def locked_room(slug: str, *, skip_locked: bool = False) -> Iterator[Room]:
    """The room, its row locked until the block ends (serialises every change to it).

    ``skip_locked`` (the clock): raise ``RoomBusy`` instead of waiting for another lock.
    """
    with transaction.atomic():
        room = next(iter(Room.objects.raw(_room_for_update_sql(skip_locked), [slug])), None)
        if room is None:
            if skip_locked:
                raise RoomBusy(slug)
            raise RoomError("no_room", _("This room has no players yet: join it first."))
        yield room
        _finish(room)


def _room_for_update_sql(skip_locked: bool = False) -> str:
    # Every change of every room starts here: plain SQL spares the ORM's query building,
    # half of a move's database time when measured (SQLite locks the whole file instead).
    lock = "" if connection.vendor == "sqlite" else " FOR UPDATE"
    if lock and skip_locked:
        lock += " SKIP LOCKED"
    return f"SELECT * FROM {Room._meta.db_table} WHERE slug = %s{lock}"


def save_fields(instance: Any, fields: list[str]) -> None:
    """``instance.save(update_fields=fields)`` in plain SQL (a move saves its game this way).

    Values go through each field's own database preparation, as ``save`` does; an
    ``auto_now`` field among ``fields`` is stamped as ``save`` would.
    """
    meta = instance._meta
    columns, values = [], []
    for name in fields:
        field = meta.get_field(name)
        if getattr(field, "auto_now", False):
            setattr(instance, field.attname, timezone.now())
        columns.append(f"{connection.ops.quote_name(field.column)} = %s")
        values.append(field.get_db_prep_save(getattr(instance, field.attname), connection))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {meta.db_table} SET {', '.join(columns)} WHERE id = %s",
            [*values, instance.pk],
        )


def room_players(room: Room) -> list[Player]:
    """The room's players in joining order (plain SQL, for the same reason as above)."""
    table = Player._meta.db_table
    return list(
        Player.objects.raw(f"SELECT * FROM {table} WHERE room_id = %s ORDER BY joined_at, id", [room.pk])
    )


@contextmanager
def locked_room_by_pk(pk: int, *, skip_locked: bool = False) -> Iterator[Room]:
    with transaction.atomic():
        if skip_locked:
            room = Room.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
            if room is None:
                raise RoomBusy(pk)
        else:
            room = Room.objects.select_for_update().get(pk=pk)
        yield room
        _finish(room)


def bump(room: Room) -> None:
    """Record that players can see a change: pushed once when the locked block ends."""
    room._bumped = True  # type: ignore[attr-defined]


def remember(room: Room, *, players: list[Player] | None = None, record: GameRecord | None = None) -> None:
    """Hand the push what the change already loaded, so rendering need not read it again."""
    if players is not None:
        room._players = players  # type: ignore[attr-defined]
    if record is not None:
        room._record = record  # type: ignore[attr-defined]


def _finish(room: Room) -> None:
    """One version per transaction; every view rendered now, sent after the commit."""
    if not getattr(room, "_bumped", False):
        return
    from rooms.state import render_snapshot

    room._bumped = False  # type: ignore[attr-defined]
    room.version += 1
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Room._meta.db_table} SET version = %s, updated_at = %s WHERE id = %s",
            [room.version, timezone.now(), room.pk],
        )
    snapshot = render_snapshot(
        room, players=getattr(room, "_players", None), record=getattr(room, "_record", None)
    )
    publish_after_commit(snapshot)


def publish_after_commit(snapshot: dict[str, Any]) -> None:
    """Send ``snapshot`` to every process serving the room, once the transaction commits.

    Called from a pooled call of the event loop, the push is handed back to it (sent
    there, no thread hop); from anywhere else (the clock's thread, a test), it is sent
    from this thread.
    """
    from rooms import db, hub

    def send() -> None:
        pending = db.pending_pushes.get()
        if pending is not None:
            pending.append(snapshot)
        else:
            async_to_sync(hub.publish)(snapshot)

    transaction.on_commit(send)


def player_of(room: Room, uid: str | None) -> Player:
    if not uid:
        raise RoomError("not_joined", _("Join the room first."))
    try:
        return room.players.get(uid=uid)
    except Player.DoesNotExist:
        raise RoomError("not_joined", _("Join the room first.")) from None


def room_join(
    *, slug: str, uid: str, name: str, game: str | None = None, language: str = "en", seat: str = ""
) -> Player:
    """Take a place in the room, storing the room itself if this is its first player.

    ``seat``: a team of the room's game to sit in at once (its open role: operative,
    player), or ``"watch"`` to just watch; anything else leaves the newcomer unseated.
    """
    if not is_valid_slug(slug):
        raise RoomError("bad_slug", _("Room names are 3–40 lowercase letters, digits and hyphens."))
    name = clean_name(name)
    defaults: dict[str, Any] = {"language": language}
    if game in game_names():
        defaults["game"] = game
    with transaction.atomic():
        Room.objects.get_or_create(slug=slug, defaults=defaults)
    with locked_room(slug) as room:
        player = Player.objects.filter(room=room, uid=uid).first()
        created = player is None
        if player is None:
            if room.players.filter(bot=False).count() >= settings.MAX_PLAYERS_PER_ROOM:
                raise RoomError(
                    "room_full",
                    _("This room is full (%(limit)s people): open another room."),
                    limit=settings.MAX_PLAYERS_PER_ROOM,
                )
            player = Player.objects.create(room=room, uid=uid, name=name)
        if not created and player.name != name:
            player.name = name
            player.save(update_fields=["name"])
        seating = get_game(room.game).seating
        if seat == "watch":
            take_seat(room, player, "", Player.SPECTATOR)
        elif seat in seating.teams and not player.is_seated:
            try:
                take_seat(room, player, seat, seating.roles[-1])
            except RoomError:
                pass  # a game running with fixed rosters: the newcomer sits down for the next one
        bump(room)
    return player


def room_rename(*, slug: str, uid: str, name: object) -> None:
    name = clean_name(name)
    with locked_room(slug) as room:
        player = player_of(room, uid)
        player.name = name
        player.save(update_fields=["name"])
        bump(room)


def room_sit(*, slug: str, uid: str, team: object, role: object) -> None:
    """Take a seat (a team and a role the room's game offers) or become a spectator."""
    with locked_room(slug) as room:
        take_seat(room, player_of(room, uid), team, role)


def take_seat(room: Room, player: Player, team: object, role: object) -> None:
    """Seat ``player`` (the room locked by the caller): the checks of ``room_sit``."""
    game = get_game(room.game)
    seating = game.seating
    if role == Player.SPECTATOR:
        team = ""
    elif team not in seating.teams or role not in seating.roles:
        raise RoomError("bad_seat", _("There is no such seat in this game."))
    assert isinstance(team, str) and isinstance(role, str)
    # Leaving the seats is choosing to watch; taking one is choosing to play.
    watching = role == Player.SPECTATOR
    if (player.team, player.role, player.watching) == (team, role, watching):
        return
    if (
        role in seating.single_roles
        and room.players.filter(team=team, role=role).exclude(pk=player.pk).exists()
    ):
        raise RoomError("seat_taken", _("Someone already has that seat."))
    if (player.team, player.role) != (team, role):
        game.before_seat_change(room, player, team, role)
    player.team, player.role, player.watching = team, role, watching
    player.save(update_fields=["team", "role", "watching"])
    bump(room)


def room_shuffle(*, slug: str, uid: str, rng: random.Random | None = None) -> None:
    """Deal everyone who plays into two balanced teams (a new spymaster/lead each).

    Who plays: the seated players, and the newcomers here now who have not sat down yet
    nor chosen to watch (a fresh group arrives unseated and shuffles straight away).
    """
    rng = rng or random.Random()
    with locked_room(slug) as room:
        player_of(room, uid)
        game = get_game(room.game)
        if game.is_running(room):
            raise RoomError("game_running", _("Teams can be shuffled between games, not during one."))
        now = timezone.now()
        seated = [p for p in room.players.all() if p.is_seated or (not p.watching and is_connected(p, now))]
        if len(seated) < 2:
            raise RoomError(
                "too_few_players", _("Shuffling needs at least two players who are not watching.")
            )
        rng.shuffle(seated)
        teams = game.seating.teams
        lead = game.seating.single_roles[0] if game.seating.single_roles else None
        default_role = game.seating.roles[-1]
        for index, player in enumerate(seated):
            player.team = teams[index % len(teams)]
            player.role = lead if lead and index < len(teams) else default_role
        Player.objects.bulk_update(seated, ["team", "role"])
        bump(room)


def room_set_game(*, slug: str, uid: str, game: object) -> None:
    """Switch the room to another game between games; seats map over by team order."""
    if game not in game_names():
        raise RoomError("bad_game", _("There is no such game."))
    assert isinstance(game, str)
    with locked_room(slug) as room:
        player_of(room, uid)
        if room.game == game:
            return
        if get_game(room.game).is_running(room):
            raise RoomError("game_running", _("Finish or abandon the current game first."))
        old, new = get_game(room.game).seating, get_game(game).seating
        players = list(room.players.all())
        for player in players:
            if player.is_seated:
                player.team = new.teams[old.teams.index(player.team) % len(new.teams)]
                player.role = player.role if player.role in new.roles else new.roles[-1]
                if player.role in new.single_roles:
                    player.role = new.roles[-1]
        Player.objects.bulk_update(players, ["team", "role"])
        room.game = game
        room.save(update_fields=["game"])
        bump(room)


def is_connected(player: Player, now: Any = None) -> bool:
    now = now or timezone.now()
    return (
        player.connections > 0 and player.last_seen is not None and player.last_seen >= now - PRESENCE_GRACE
    )


def presence_open(*, slug: str, uid: str | None, device_token: str | None) -> dict[str, Any] | None:
    """A socket opens: which player it speaks for (``None``: a visitor), counted if by session.

    One statement: the count goes up and the player's ids come back. A device link (a
    second screen) does not count towards presence. ``flipped``: this is the player's
    first socket, so the room's connected marks may need a push.
    """
    if device_token:
        found = Player.objects.filter(room__slug=slug, device_token=device_token)
        row = found.values("pk", "public_id").first()
        return None if row is None else {**row, "flipped": False}
    if not uid:
        return None
    player, room = Player._meta.db_table, Room._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {player} SET connections = connections + 1, last_seen = %s "
            f"WHERE uid = %s AND room_id = (SELECT id FROM {room} WHERE slug = %s) "
            "RETURNING id, public_id, connections",
            [timezone.now(), uid, slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return {"pk": row[0], "public_id": row[1], "flipped": row[2] == 1}


def presence_close(*, pk: int) -> bool:
    """A counted socket closed; True when its player now shows away (the room needs a push)."""
    with transaction.atomic():
        Player.objects.filter(pk=pk).update(connections=_decrement(), last_seen=timezone.now())
        left = Player.objects.filter(pk=pk).values_list("connections", flat=True).first()
    return left == 0


def presence_touch(counts: dict[int, int] | list[int]) -> None:
    """Open sockets prove their players are here: seen now, and counted at least as many
    times as the process holds sockets for them (``counts``: player pk → sockets).

    Re-asserting the count, not only the time, heals a database outage: the sweep may
    have counted everyone out meanwhile, and a touch that only stamped ``last_seen``
    would leave every connected player shown away for good.
    """
    if isinstance(counts, list):
        counts = dict.fromkeys(counts, 1)
    if not counts:
        return
    now = timezone.now()
    by_count: dict[int, list[int]] = {}
    for pk, sockets in counts.items():
        by_count.setdefault(sockets, []).append(pk)
    with transaction.atomic():
        for sockets, pks in by_count.items():
            Player.objects.filter(pk__in=pks).update(
                connections=Greatest(F("connections"), Value(sockets)), last_seen=now
            )


def presence_refresh(*, slug: str, shown: dict[str, bool] | None = None) -> None:
    """Push the room if its players' connected marks differ from ``shown`` (the latest push's)."""
    try:
        with locked_room(slug) as room:
            players = list(room.players.all())
            now = timezone.now()
            if shown is None or any(shown.get(p.public_id) != is_connected(p, now) for p in players):
                remember(room, players=players)
                bump(room)
    except RoomError:
        pass  # the room is gone


# When the database was last seen answering the sweeper's process, and since when it has
# answered without a gap (monotonic seconds).
_sweeps: dict[str, float] = {}
SWEEP_GAP = 10.0  # a pause longer than this (the database was away) restarts the count


def presence_database_seen() -> float:
    """Record that the database answers now; how long it has answered without a gap.

    The sweep calls it; a clock that calls it on every pass (each pass reads the
    database) lets the sweep count a dead process's players out a grace period after
    their last touch instead of a grace period after the sweep first noticed them.
    """
    mono = time.monotonic()
    last = _sweeps.get("last")
    if last is None or mono - last > SWEEP_GAP:
        _sweeps["since"] = mono
    _sweeps["last"] = mono
    return mono - _sweeps["since"]


def presence_sweep(now: Any = None, *, up_for: float | None = None) -> int:
    """Heal counts left by a server that died: no touch for the grace period means no socket.

    Every live process touches its players' ``last_seen`` well within the grace period,
    so a player still counted but untouched has no open socket anywhere — provided the
    database let them touch: after a pause of the sweep (a database outage stops it and
    every touch alike), nobody is counted out until the database has been reachable
    for a whole grace period again, so a live process is never swept. ``up_for``: how
    long the database has been reachable (measured from the sweeps themselves if not
    given).
    """
    if up_for is None:
        up_for = presence_database_seen()
    if up_for < PRESENCE_GRACE.total_seconds():
        return 0
    now = now or timezone.now()
    stale = Player.objects.filter(connections__gt=0, last_seen__lt=now - PRESENCE_GRACE)
    rooms = set(stale.values_list("room__slug", flat=True))
    stale.update(connections=0)
    for slug in rooms:
        presence_refresh(slug=slug)
    return len(rooms)


def _decrement() -> Any:
    from django.db.models import Case, Value, When

    # Never below zero, even if a crash left the counter out of step.
    return Case(When(connections__gt=0, then=F("connections") - 1), default=Value(0))


def room_device_link(*, slug: str, uid: str | None, regenerate: bool) -> None:
    """Create the player's second-device link, or revoke it and issue a new one."""
    with locked_room(slug) as room:
        player = player_of(room, uid)
        if player.device_token and not regenerate:
            return
        player.device_token = secrets.token_urlsafe(32)
        player.save(update_fields=["device_token"])
        bump(room)


def room_set_language(*, slug: str, uid: str | None, language: object) -> None:
    """The language of the room's word packs (the interface follows each browser)."""
    if language not in PACK_LANGUAGES:
        raise RoomError("bad_language", _("There are no words in that language."))
    assert isinstance(language, str)
    with locked_room(slug) as room:
        player_of(room, uid)
        if room.language != language:
            room.language = language
            room.save(update_fields=["language"])
            bump(room)


def room_set_words(*, slug: str, uid: str | None, game: object, mode: object, text: object) -> None:
    """Store the room's own words for a game and whether they replace or join the pack."""
    if game not in game_names():
        raise RoomError("bad_game", _("There is no such game."))
    if mode not in WORD_MODES:
        raise RoomError("bad_words", _("Choose the pack, your own words, or both."))
    if not isinstance(text, str):
        raise RoomError("bad_words", _("Paste your words as text, one per line."))
    assert isinstance(game, str)
    rules = get_game(game).words
    try:
        words = parse_own_words(text, max_length=rules.max_length, spaces=rules.spaces)
    except ValueError as error:
        raise _words_error(str(error), rules) from None
    with locked_room(slug) as room:
        player_of(room, uid)
        words_settings = dict(room.settings.get("words", {}))
        if not words:
            # The saved list never goes back to browsers, so an empty box means "keep it"
            # (a change of mode alone), not "erase it".
            words = list(words_settings.get(game, {}).get("list", []))
        if mode == "own" and len(words) < rules.minimum:
            raise RoomError(
                "too_few_words",
                _("This game needs at least %(minimum)s different words of your own (you gave %(given)s)."),
                minimum=rules.minimum,
                given=len(words),
            )
        words_settings[game] = {"mode": mode if words else "pack", "list": words}
        room.settings = {**room.settings, "words": words_settings}
        room.save(update_fields=["settings"])
        bump(room)


def _words_error(reason: str, rules: WordRules) -> RoomError:
    kind, _sep, word = reason.partition(":")
    if kind == "too_long":
        return RoomError(
            "bad_words",
            _("“%(word)s” is too long: at most %(limit)s characters."),
            word=word,
            limit=rules.max_length,
        )
    if kind == "has_space":
        return RoomError(
            "bad_words", _("“%(word)s”: one word per card, without spaces or hyphens."), word=word
        )
    if kind == "bad_character":
        return RoomError("bad_words", _("“%(word)s” contains an invisible or control character."), word=word)
    return RoomError("bad_words", _("At most %(limit)s words."), limit=OWN_WORDS_MAX)


# ---- operators ---------------------------------------------------------------------------


def room_close(*, slug: str) -> bool:
    """Delete a room with its players and games; its open sockets are told and closed.

    The room's row is locked first, as every change does: deleting its players and
    games before holding it deadlocked with a move holding the room and writing its game.
    """
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(slug=slug).first()
        if room is None:
            return False
        closed = {"slug": slug, "room": room_identity(room.pk, room.created_at), "version": room.version,
                  "closed": True}  # fmt: skip
        room.delete()
        publish_after_commit(closed)
    return True


def player_remove(*, pk: int) -> bool:
    """Remove a player from their room; their sockets are told and closed, the room updated."""
    slug = Player.objects.filter(pk=pk).values_list("room__slug", flat=True).first()
    if slug is None:
        return False
    with locked_room(slug) as room:
        Player.objects.filter(pk=pk).delete()
        bump(room)
    return True


def purge_rooms(*, days: int, now: Any = None) -> int:
    """Delete rooms nobody has changed for ``days`` days and nobody is in now."""
    now = now or timezone.now()
    idle = Room.objects.filter(updated_at__lt=now - timedelta(days=days))
    present = Player.objects.filter(connections__gt=0, last_seen__gte=now - PRESENCE_GRACE)
    slugs = list(idle.exclude(players__in=present).values_list("slug", flat=True))
    for slug in slugs:
        room_close(slug=slug)
    return len(slugs)
