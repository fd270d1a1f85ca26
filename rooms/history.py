"""Every game kept: the move log's writer and readers, the room's finished games, and the
export from which a game's engine alone rebuilds it (docs/protocol.md, "Game records").

The log is written in the transaction of the change it records (``rooms.play``), one
row per step: the deal (step 0: the engine's first state and the seats), each applied
move as sent, and each passed deadline. Secrets live in it (the key, the keywords and
codes, a team's drafts and notes), so nothing here serves a step of a game that is
not over.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.utils.translation import gettext as _

from rooms.games import Game, game_names, get_game
from rooms.models import GameMove, GameRecord, Player, Room

# The export's format number: bumped when a field changes meaning.
EXPORT_FORMAT = 1


def seat_of(player: Player) -> dict[str, Any]:
    return {
        "player": player.public_id,
        "name": player.name,
        "team": player.team,
        "role": player.role,
        "bot": player.bot,
    }


def log_deal(
    room: Room, game: Game, record: GameRecord, state: Any, players: list[Player], now: float
) -> None:
    """Step 0: the engine's first state and who sat where (the caller holds the lock)."""
    seats = [seat_of(p) for p in players if p.is_seated]
    _write(room, game, record, GameMove.DEAL, None, {"state": game.dump(state), "seats": seats}, now)


def log_step(
    room: Room,
    game: Game,
    record: GameRecord,
    player: Player | None,
    action: dict[str, Any] | None,
    now: float,
) -> None:
    """The next step: ``player``'s move ``action``, or (no player) a passed deadline.

    The caller saves ``record.steps`` with the state this step made.
    """
    record.steps += 1
    kind = GameMove.DEADLINE if player is None else GameMove.MOVE
    _write(room, game, record, kind, player, action or {}, now)


def _write(
    room: Room,
    game: Game,
    record: GameRecord,
    kind: str,
    player: Player | None,
    action: dict[str, Any],
    now: float,
) -> None:
    # Plain SQL, its text built once: every move writes one row (the model's save costs
    # a third of a millisecond more, measured).
    values = [room.pk, game.name, record.number, record.steps, kind]
    if player is None:
        values += ["", "", "", "", False]
    else:
        values += [player.public_id, player.name, player.team, player.role, player.bot]
    # The locked block ends with exactly one version bump (rooms.changes).
    values += [json.dumps(action), now, room.version + 1]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(), values)


@cache
def _insert_sql() -> str:
    names = "room_id game number step kind player name team role bot action at version".split()
    columns = [GameMove._meta.get_field(name).column for name in names]
    quoted = ", ".join(connection.ops.quote_name(column) for column in columns)
    return f"INSERT INTO {GameMove._meta.db_table} ({quoted}) VALUES ({', '.join(['%s'] * len(columns))})"


# A step as the export gives it (docs/protocol.md, "Game records").
STEP_FIELDS = ("step", "kind", "player", "name", "team", "role", "bot", "action", "at", "version")


def steps_of(room: Room, game: str, number: int) -> list[dict[str, Any]]:
    """The game's steps in order, the deal first, each a dict of ``STEP_FIELDS``."""
    rows = GameMove.objects.filter(room=room, game=game, number=number).order_by("step")
    return list(rows.values(*STEP_FIELDS))


@dataclass
class Played:
    """One game of a room, by its place among all the room's games (``/games/<ordinal>/``)."""

    ordinal: int
    game: Game
    record: GameRecord

    @property
    def over(self) -> bool:
        return bool(self.record.finished)


def room_games(room: Room) -> list[Played]:
    """Every game of the room, of every kind, oldest first, numbered from 1.

    The room's games of one kind are numbered apart (a room may switch games), so a
    page names a game by its place among all of them.
    """
    found: list[tuple[datetime, int, Game, GameRecord]] = []
    for name in game_names():
        game = get_game(name)
        for record in game.record.objects.filter(room=room).order_by("number"):
            found.append((record.created_at, record.number, game, record))
    found.sort(key=lambda item: (item[0], item[1]))
    return [Played(i, game, record) for i, (_at, _n, game, record) in enumerate(found, start=1)]


def finished_game(room: Room, ordinal: int) -> Played | None:
    """The room's game at ``ordinal`` if it is over; ``None`` for a running or unknown one."""
    for played in room_games(room):
        if played.ordinal == ordinal:
            return played if played.over else None
    return None


def seats_of(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who played: the seats at the deal, then anyone else who moved, each once."""
    seats: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    for step in steps:
        if step["kind"] == GameMove.DEAL:
            candidates = step["action"].get("seats", [])
        elif step["kind"] == GameMove.MOVE:
            candidates = [{key: step[key] for key in ("player", "name", "team", "role", "bot")}]
        else:
            continue
        for seat in candidates:
            mark = (seat["player"], seat["team"], seat["role"])
            if mark not in seen:
                seen.add(mark)
                seats.append(seat)
    return seats


def export(room: Room, played: Played) -> dict[str, Any]:
    """A finished game as data: its deal, every step in order and its outcome."""
    game, record = played.game, played.record
    steps = steps_of(room, game.name, record.number)
    deal = next((s for s in steps if s["kind"] == GameMove.DEAL), None)
    outcome = game.outcome(game.load(record.state))
    return {
        "format": EXPORT_FORMAT,
        "game": game.name,
        "room": room.slug,
        "ordinal": played.ordinal,
        "number": record.number,
        "language": room.language,
        "started_at": record.created_at.isoformat(),
        "ended_at": record.updated_at.isoformat(),
        "seats": seats_of(steps),
        "deal": deal["action"]["state"] if deal is not None else None,
        "moves": [s for s in steps if s["kind"] != GameMove.DEAL],
        "outcome": None if outcome is None else game.outcome_json(outcome),
        "bot_notes": dict(record.bot_notes),
    }


def replay(room: Room, played: Played) -> dict[str, Any] | None:
    """A finished game step by step, everything revealed: the board the game's replay
    script draws throughout, and one frame per step worth showing (the deal first)."""
    data = export(room, played)
    if data["deal"] is None:
        return None
    game = played.game
    names = {seat["player"]: seat["name"] for seat in data["seats"]}
    states = list(game.states(data["deal"], data["moves"]))
    frames = [{"step": 0, "label": str(_("The cards are dealt.")), **game.history_frame(states[0])}]
    for move, before, after in zip(data["moves"], states, states[1:], strict=False):
        label = game.history_describe(move, before, after)
        if label is not None:
            frames.append({"step": move["step"], "label": str(label), **game.history_frame(after)})
    return {
        "game": game.name,
        "board": game.history_board(played.record, states[0], states[-1], names),
        "frames": frames,
    }


@dataclass
class Line:
    """One finished game in the room's history page."""

    played: Played
    summary: dict[str, Any]
    seats: list[dict[str, Any]]
    minutes: int
    kept: bool
    state: Any  # the engine's final state


def room_history(room: Room) -> tuple[list[Line], bool, list[tuple[Any, list[tuple[str, str]]]]]:
    """The room's finished games (newest first), whether one is being played, and each
    game's stats: wins per team and per name (people and bots apart), then its own."""
    games = room_games(room)
    moves: dict[tuple[str, int], list[dict[str, Any]]] = {}
    rows = GameMove.objects.filter(room=room).order_by("game", "number", "step")
    for row in rows.values("game", "number", *STEP_FIELDS):
        moves.setdefault((row["game"], row["number"]), []).append(row)
    lines: list[Line] = []
    finished: dict[str, list[Line]] = {}
    for played in games:
        if not played.over:
            continue
        game, record = played.game, played.record
        state = game.load(record.state)
        steps = moves.get((game.name, record.number), [])
        seats = [{**seat, "label": game.seat_name(seat["team"], seat["role"])} for seat in seats_of(steps)]
        minutes = max(0, round((record.updated_at - record.created_at).total_seconds() / 60))
        line = Line(played, game.history_summary(state), seats, minutes, bool(steps), state)
        lines.append(line)
        if game.outcome(state) is not None:
            finished.setdefault(game.name, []).append(line)
    stats = []
    for name, kept in finished.items():
        game = get_game(name)
        bots = {seat["player"] for line in kept for seat in line.seats if seat["bot"]}
        played_games = [(line.state, moves.get((name, line.played.record.number), [])) for line in kept]
        stats.append((game.title, _wins(game, kept) + game.history_stats(played_games, bots)))
    running = any(not played.over for played in games)
    return list(reversed(lines)), running, stats


def _wins(game: Game, kept: list[Line]) -> list[tuple[str, str]]:
    """Games played, wins per team, and wins per player name, people and bots apart."""
    teams: dict[str, int] = {}
    people: dict[str, int] = {}
    bots: dict[str, int] = {}
    for line in kept:
        winners = line.summary["winners"]
        for team in winners:
            teams[team] = teams.get(team, 0) + 1
        won = {(seat["name"], seat["bot"]) for seat in line.seats if seat["team"] in winners}
        for seat_name, bot in won:
            tally = bots if bot else people
            tally[seat_name] = tally.get(seat_name, 0) + 1
    rows = [(str(_("Games played")), str(len(kept)))]
    for team in game.seating.teams:
        rows.append((str(_("Wins: %(team)s") % {"team": game.seat_name(team)}), str(teams.get(team, 0))))
    for title, tally in ((_("Wins by person"), people), (_("Wins by bot"), bots)):
        if tally:
            ranked = sorted(tally.items(), key=lambda item: (-item[1], item[0]))
            rows.append((str(title), ", ".join(f"{who} {count}" for who, count in ranked)))
    return rows
