"""The lobby: joining a room, names, seats, the room's game, language and own words.

Each function changes the room under its lock (``rooms.changes``), saves first, then
tells the room.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from rooms.changes import bump, locked_room
from rooms.errors import RoomError
from rooms.games import WordRules, game_names, get_game
from rooms.models import Player, Room, is_connected
from rooms.slugs import is_valid_slug
from rooms.words import OWN_WORDS_MAX, PACK_LANGUAGES, WORD_MODES, parse_own_words

NAME_MAX_LENGTH = 24


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
        raise RoomError(
            "bad_name",
            ngettext_lazy(
                "Names are at most %(limit)s character.",
                "Names are at most %(limit)s characters.",
                NAME_MAX_LENGTH,
            ),
            limit=NAME_MAX_LENGTH,
        )
    return text


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
    # A room plays the game its link asked for, else the first game the site offers.
    defaults: dict[str, Any] = {
        "language": language,
        "game": game if game in game_names() else game_names()[0],
    }
    with transaction.atomic():
        Room.objects.get_or_create(slug=slug, defaults=defaults)
    with locked_room(slug) as room:
        player = Player.objects.filter(room=room, uid=uid).first()
        created = player is None
        if player is None:
            if room.players.filter(bot=False).count() >= settings.MAX_PLAYERS_PER_ROOM:
                raise RoomError(
                    "room_full",
                    ngettext_lazy(
                        "This room is full (%(limit)s person): open another room.",
                        "This room is full (%(limit)s people): open another room.",
                        settings.MAX_PLAYERS_PER_ROOM,
                    ),
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
            ngettext_lazy(
                "“%(word)s” is too long: at most %(limit)s character.",
                "“%(word)s” is too long: at most %(limit)s characters.",
                rules.max_length,
            ),
            word=word,
            limit=rules.max_length,
        )
    if kind == "has_space":
        return RoomError(
            "bad_words", _("“%(word)s”: one word per card, without spaces or hyphens."), word=word
        )
    if kind == "bad_character":
        return RoomError("bad_words", _("“%(word)s” contains an invisible or control character."), word=word)
    return RoomError(
        "bad_words",
        ngettext_lazy("At most %(limit)s word.", "At most %(limit)s words.", OWN_WORDS_MAX),
        limit=OWN_WORDS_MAX,
    )
