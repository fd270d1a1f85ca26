"""What each browser may see of a room: rendered once per distinct view, for every push.

A *snapshot* is the room at one version, as plain JSON: the part everyone sees
(``base``), each distinct game view once (``views``: the game's own redaction function
decides them, e.g. Codenames' spymaster and table views), which view each player gets
(``seats``; visitors get ``visitor``), and each player's own device link (``links``).
A socket's ``state`` message is ``base`` + its seat's view + its own ``you``; the
page's first render and every push come from the same snapshot.
"""

from __future__ import annotations

import time
from typing import Any

from django.urls import reverse
from django.utils import timezone

from rooms.games import game_names, get_game, offers_bots
from rooms.models import GameRecord, Player, Room, is_connected, room_identity
from rooms.records import current_record

NO_GAME = "none"


def _seating(game_name: str) -> dict[str, Any]:
    seating = get_game(game_name).seating
    return {
        "teams": list(seating.teams),
        "roles": list(seating.roles),
        "single_roles": list(seating.single_roles),
        # Whether an empty seat can be given to a bot (an app that brings bots says so).
        "bots": offers_bots(game_name),
        # The fewest words of a room's own list this game can deal from (set_words).
        "words_minimum": get_game(game_name).words.minimum,
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


def render_snapshot(
    room: Room, *, players: list[Player] | None = None, record: GameRecord | None = None, state: Any = None
) -> dict[str, Any]:
    """Every view of ``room`` as it is now (inside the change's transaction); ``state``:
    ``record``'s engine state when the change already parsed it."""
    players = list(room.players.all()) if players is None else players
    game = get_game(room.game)
    # The change's own record (and its parsed state) when it is this game's; else read.
    loaded_here = record is not None and isinstance(record, game.record)
    if not loaded_here:
        record = current_record(room, game)
    now = timezone.now()
    base = {
        "version": room.version,
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
                "watching": p.watching,
                "bot": p.bot,
                "connected": is_connected(p, now),
            }
            for p in players
        ],
        "language": room.language,
        "settings": _public_settings(room.settings),
        "scoreboard": room.scoreboard,
        # The game's facts for the lobby: the mode a deal would use, the timers' ranges.
        **game.room_facts(room.settings, players),
    }
    views: dict[str, Any] = {}
    if record is None:
        seats = {p.public_id: NO_GAME for p in players}
        visitor = NO_GAME
        views[NO_GAME] = None
    else:
        if state is None or not loaded_here:
            state = game.load(record.state)
        seats = {p.public_id: game.view_key(record, state, p) for p in players}
        visitor = game.view_key(record, state, None)
        for key in {*seats.values(), visitor}:
            views[key] = game.view(record, state, key)
    links = {
        p.public_id: reverse("device", args=[room.slug, p.device_token]) if p.device_token else None
        for p in players
    }
    # Who the running game keeps silent (CN-36, DC-46): each sees only their own, in ``you``.
    quiet = {} if record is None or record.finished else game.quiet(record, state, players)
    return {
        "slug": room.slug,
        # Which room this is: a room closed and created again under the same name is
        # another room (rooms.bus and rooms.hub never take one's pushes for the other).
        "room": room_identity(room.pk, room.created_at),
        "version": room.version,
        # The number of the room's last line of talk: a process that delivered fewer
        # reads the rest from the database (rooms.hub). Never sent to a socket.
        "chat_seq": room.chat_seq,
        "base": base,
        "views": views,
        "seats": seats,
        "visitor": visitor,
        "links": links,
        "quiet": quiet,
    }


def empty_snapshot(slug: str) -> dict[str, Any]:
    """A room nobody has joined yet (nothing stored)."""
    default_game = game_names()[0]
    base = {
        "version": 0,
        "slug": slug,
        "stored": False,
        "game": default_game,
        "games": game_names(),
        "seating": _seating(default_game),
        "players": [],
        "language": "en",
        "settings": {},
        "scoreboard": {},
        **get_game(default_game).room_facts({}, []),
    }
    return {
        "slug": slug,
        "room": None,
        "version": 0,
        "chat_seq": 0,
        "base": base,
        "views": {NO_GAME: None},
        "seats": {},
        "visitor": NO_GAME,
        "links": {},
        "quiet": {},
    }


def load_snapshot(slug: str) -> dict[str, Any]:
    """The room's snapshot read from the database (a socket's first, or a page)."""
    room = Room.objects.filter(slug=slug).first()
    return empty_snapshot(slug) if room is None else render_snapshot(room)


def view_key_of(snapshot: dict[str, Any], player_id: str | None) -> str:
    if player_id is None:
        return str(snapshot["visitor"])
    return str(snapshot["seats"].get(player_id, snapshot["visitor"]))


def you_of(snapshot: dict[str, Any], player_id: str | None, *, device: bool) -> dict[str, Any] | None:
    """The viewer's own seat; their device link is theirs alone to see."""
    if player_id is None:
        return None
    me = next((p for p in snapshot["base"]["players"] if p["id"] == player_id), None)
    if me is None:
        return None
    return {
        "id": me["id"],
        "name": me["name"],
        "team": me["team"],
        "role": me["role"],
        "device": device,
        "device_link": snapshot["links"].get(player_id),
        # Why the game keeps this person silent now (docs/protocol.md, "Table talk"), or None.
        "quiet": snapshot.get("quiet", {}).get(player_id),
    }


def view_of(snapshot: dict[str, Any], key: str) -> dict[str, Any]:
    """What every socket of view ``key`` holds at this version, ``you`` and ``now`` aside."""
    return {**snapshot["base"], "play": snapshot["views"].get(key)}


def state_message(snapshot: dict[str, Any], player_id: str | None, *, device: bool) -> dict[str, Any]:
    """A whole ``state`` message for one socket."""
    return {
        "type": "state",
        "now": time.time(),
        # This process keeps move ids (docs/protocol.md, "id"); a release before them sends
        # no such key, and a client talking to one sends no id (a rolling upgrade's mix).
        "move_ids": True,
        **view_of(snapshot, view_key_of(snapshot, player_id)),
        "you": you_of(snapshot, player_id, device=device),
    }


def room_state(*, slug: str, uid: str | None, device_token: str | None = None) -> dict[str, Any]:
    """The room as the holder of ``uid`` (or of a device link) may see it, read now.

    ``uid`` (the browser's session identity) never leaves the server.
    """
    snapshot = load_snapshot(slug)
    player_id = None
    if device_token:
        player_id = (
            Player.objects.filter(room__slug=slug, device_token=device_token)
            .values_list("public_id", flat=True)
            .first()
        )
    elif uid:
        player_id = (
            Player.objects.filter(room__slug=slug, uid=uid).values_list("public_id", flat=True).first()
        )
    return state_message(snapshot, player_id, device=bool(device_token))
