"""Bots at play: the server's clock gives each due bot one move, as a player would make it.

A bot decides from the view its seat receives (the same redaction as a browser's) and
acts through ``rooms.play.act``, under the room's lock, with every rule and check a
person's move meets. It waits a human moment (``BOT_THINK_SECONDS``) after the room's
last change; that moment is measured from the database, so a restart forgets nothing.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from bots import associations, codenames, decrypto
from rooms import changes, play
from rooms.errors import RoomBusy, RoomError
from rooms.games import get_game
from rooms.models import GameRecord, Player, Room

log = logging.getLogger(__name__)
# (room, bot) -> the room version at which the bot's move was refused. The same view would
# give the same move: the bot waits for the room to change rather than retry it each tick.
_refused: dict[tuple[str, str], int] = {}


def think_seconds() -> float:
    return float(getattr(settings, "BOT_THINK_SECONDS", 2.5))


def _rooms_with_bots(name: str) -> Any:
    # One query per game, each a plain join ("<game>_games": GameRecord's related name):
    # one OR across both record tables would join them against each other.
    return Room.objects.filter(game=name, players__bot=True, **{f"{name}_games__finished": False})


def due_rooms(now: float) -> list[str]:
    """The rooms with a bot in an unfinished game, quiet for the bots' think time."""
    quiet_since = play.as_datetime(now - think_seconds())
    due: list[str] = []
    for name in sorted(DECIDE):
        rooms = _rooms_with_bots(name).filter(updated_at__lte=quiet_since)
        due += rooms.values_list("slug", flat=True).distinct()
    return due


def next_due(now: float) -> float | None:
    """When the next bot of a room changed within its think time will be due (Unix s)."""
    from django.db.models import Min

    quiet_since = play.as_datetime(now - think_seconds())
    latest = [
        _rooms_with_bots(name).filter(updated_at__gt=quiet_since).aggregate(at=Min("updated_at"))["at"]
        for name in sorted(DECIDE)
    ]
    found = [at.timestamp() + think_seconds() for at in latest if at is not None]
    return min(found, default=None)


def step(now: float | None = None, due: list[str] | None = None, budget: float | None = None) -> int:
    """One move for every room whose bot is due; how many moves were made.

    ``due``: the rooms already found due (``due_rooms``). ``budget``: seconds after which
    the rest wait for the next pass (taken in random order, so none waits for ever), so
    a crowd of bots cannot hold up the clock's deadlines.
    """
    now = time.time() if now is None else now
    quiet_since = play.as_datetime(now - think_seconds())
    rooms = due_rooms(now) if due is None else list(due)
    if budget is not None:
        random.shuffle(rooms)
    stop = None if budget is None else time.monotonic() + budget
    moves = 0
    for slug in rooms:
        if stop is not None and time.monotonic() > stop:
            break
        moves += move(slug, quiet_since)
    return moves


def move(slug: str, quiet_since: Any) -> int:
    """The first bot of the room with something to do makes its move (1), else 0.

    The room is locked with ``SKIP LOCKED``: a room another clock (or a player's move)
    holds is skipped, and looked at again on the next pass.
    """
    try:
        return _move(slug, quiet_since)
    except RoomBusy:
        return 0


def _move(slug: str, quiet_since: Any) -> int:
    # Decide first, without the room's lock (a spymaster's clue takes 10-20 ms): the room
    # stays free for its players meanwhile.
    seen = Room.objects.filter(slug=slug).first()
    if seen is None or seen.updated_at > quiet_since:
        return 0  # another server's clock moved first: this bot thinks again
    game = get_game(seen.game)
    if game.name not in DECIDE:
        return 0
    record = play.current_record(seen, game)
    if record is None or record.finished:
        return 0
    state = game.load(record.state)
    players = changes.room_players(seen)
    chosen = _decide(seen, game, record, state, players)
    if chosen is None:
        return 0
    bot, message, note = chosen
    with changes.locked_room(slug, skip_locked=True) as room:
        if room.version != seen.version:
            return 0  # the room changed while the bot thought: it thinks again
        # Unchanged since it was read: the move applies to the record and state loaded.
        _act(room, players, bot, message, record, state, note)
    return 1


def _decide(
    room: Room, game: Any, record: GameRecord, state: Any, players: list[Player]
) -> tuple[Player, dict[str, Any], Note | None] | None:
    """The first of the room's bots with something to do, and what it does."""
    table = associations.table(game.name, room.language)
    for bot in (p for p in players if p.bot and p.is_seated):
        if _refused.get((room.slug, bot.public_id)) == room.version:
            continue  # refused at this very state: let the room's other bots move
        # Exactly what this seat's browser would be sent: the one redaction path.
        view = game.view(record, state, game.view_key(record, state, bot))
        decision = DECIDE[game.name](view, bot, players, table)
        if decision is not None:
            message, note = decision
            return bot, message, note
    return None


Note = tuple[str, str]  # (key in the record's bot_notes, text shown once the game is over)
Decision = tuple[dict[str, Any], Note | None]


def _codenames(
    view: dict[str, Any], bot: Player, players: list[Player], table: associations.Table
) -> Decision | None:
    # Seats are public (players[].team/role/bot). CN-34: the three-player game's operatives
    # all guess for the team on turn, whatever team they sit in.
    three = view["mode"] == "three"
    shared = any(not p.bot and p.role == "operative" and (three or p.team == bot.team) for p in players)
    decision = codenames.decide(view, bot.public_id, bot.team, bot.role, table, shared=shared)
    if decision is None:
        return None
    message, clue = decision
    # Keyed by the clue's place in the log: the clue log shows it there after the game.
    return message, None if clue is None else (str(len(view["log"])), clue.explain())


def _decrypto(
    view: dict[str, Any], bot: Player, players: list[Player], table: associations.Table
) -> Decision | None:
    # Who is a bot is public (players[].bot): it decides whether the bot locks its team's
    # guess or only drafts it for the people sharing the task.
    message = decrypto.decide(view, table, bots={p.public_id for p in players if p.bot})
    return None if message is None else (message, None)


# Each game's bot: its seat's view → the room message to send, and what to note about it.
DECIDE: dict[str, Callable[[dict[str, Any], Player, list[Player], associations.Table], Decision | None]] = {
    "codenames": _codenames,
    "decrypto": _decrypto,
}


def _act(
    room: Room,
    players: list[Player],
    bot: Player,
    message: dict[str, Any],
    record: GameRecord,
    state: Any,
    note: Note | None,
) -> None:
    try:
        play.act(room, players, bot, message, loaded=(record, state))
    except RoomError as error:
        # The bot misread its view: never stall the room; the next tick decides again.
        # The action's name only: the move itself may be a team's secret (a draft, a guess).
        log.warning(
            "room %s: bot %s refused (%s): %s", room.slug, bot.public_id, error.code, message.get("action")
        )
        if len(_refused) > 10_000:
            _refused.clear()  # a bound, not a cache: forgetting only costs one more try
        _refused[(room.slug, bot.public_id)] = room.version
        return
    if note is not None:
        # Saved with the move (only this column: the move saved the state through its own
        # copy of the record); shown to everyone once the game is over.
        record.bot_notes = {**record.bot_notes, note[0]: note[1]}
        record.save(update_fields=["bot_notes"])
