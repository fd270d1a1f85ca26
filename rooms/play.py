"""The one game path for every game: load → engine → save → push, under the room's lock.

A game plugs in through the small protocol of ``rooms.games.Game`` (deal, apply,
expire, outcome, score, views); everything a room does with a game — dealing,
applying a move, a deadline passing, a game ending and being scored — happens here,
once, for all of them.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from rooms.changes import bump, locked_room_by_pk, remember, save_fields
from rooms.errors import RoomBusy, RoomError
from rooms.games import Engine, Game, RoomRules, get_game
from rooms.history import log_deal, log_step
from rooms.models import GameRecord, Player, Room
from rooms.records import current_record, is_running, latest_record


def as_datetime(timestamp: float | None) -> datetime | None:
    """An engine's time (Unix seconds) as a database timestamp."""
    return None if timestamp is None else datetime.fromtimestamp(timestamp, tz=UTC)


def act(
    room: Room,
    players: list[Player],
    player: Player,
    message: dict[str, Any],
    loaded: tuple[GameRecord, Any] | None = None,
) -> None:
    """Apply one room message of the game (the room is locked by the caller).

    ``loaded``: the current record and its parsed state, when the caller read them at the
    room's present version (a bot that decided from them): a move then reads neither again.
    """
    game = get_game(room.game)
    action = message["action"]
    fields = {key: value for key, value in message.items() if key != "ref"}
    if action == "start_game":
        _start(room, game, players, player, fields)
    elif action == "house_rules":
        if not player.is_seated:
            raise RoomError("not_seated", _("Take a seat to change the house rules."))
        game.set_house_rules(room, {k: v for k, v in fields.items() if k != "action"})
        room.save(update_fields=["settings"])
        bump(room)
    elif action in game.room_actions:
        game.room_actions[action](room, players, player)
        bump(room)
    elif action in game.actions:
        _move(room, game, player, fields, loaded)
    else:
        raise RoomError("unknown_action", _("Unknown action: %(action)s"), action=str(action)[:40])


def _flag(message: dict[str, Any], name: str) -> bool:
    value = message.get(name, False)
    if not isinstance(value, bool):
        raise RoomError("bad_action", _("'%(name)s' must be true or false."), name=name)
    return value


def _start(room: Room, game: Game, players: list[Player], player: Player, fields: dict[str, Any]) -> None:
    """Deal a new game; abandoning a running one needs ``confirm``."""
    mode = fields.get("mode")
    if mode is not None and not isinstance(mode, str):
        raise RoomError("bad_mode", _("There is no such game mode."))
    if not player.is_seated:
        raise RoomError("not_seated", _("Take a seat to deal a game."))
    confirm = _flag(fields, "confirm")
    last = current_record(room, game)
    if last is not None and not last.finished and not confirm:
        raise RoomError("confirm_abandon", _("A game is running: confirm to abandon it and deal a new one."))
    recent = [record.state for record in game.record.objects.filter(room=room).order_by("-number")]
    seed = secrets.randbits(128)
    now = time.time()
    state, extra = game.deal(room, players, mode=mode, seed=seed, recent=recent, now=now)
    if last is not None and not last.finished:
        # Abandoned: closed without a winner, off the clock.
        last.finished, last.deadline = True, None
        last.save(update_fields=["finished", "deadline", "updated_at"])
    record = game.record.objects.create(
        room=room,
        number=(last.number + 1) if last else 1,
        seed=str(seed),
        state=game.dump(state),
        deadline=as_datetime(game.deadline(state)),
        **extra,
    )
    log_deal(room, game, record, state, players, now)
    remember(room, record=record, state=state)
    bump(room)


def _move(
    room: Room, game: Game, player: Player, fields: dict[str, Any], loaded: tuple[GameRecord, Any] | None
) -> None:
    if loaded is not None:
        record, state = loaded
    else:
        found = current_record(room, game)
        if found is None:
            raise RoomError("no_game", _("No game has been dealt yet."))
        record, state = found, game.load(found.state)
    now = time.time()
    expired = game.expire(state, now)
    if expired is not state:
        # Save the passed deadline even if the move is refused (the caller commits it),
        # so the refused player's screen shows why: the turn has already moved on.
        save(room, game, record, expired, now=now)
        state = expired
    after = game.apply(state, record, player, fields, now)
    save(room, game, record, after, now=now, player=player, action=fields)


def save(
    room: Room,
    game: Game,
    record: GameRecord,
    state: Any,
    *,
    now: float,
    player: Player | None = None,
    action: dict[str, Any] | None = None,
) -> None:
    """Store an engine's new state and its step in the move log (``player``'s ``action``,
    or without a player a passed deadline); the first time it is over, score it in the room."""
    log_step(room, game, record, player, action, now)
    record.state = game.dump(state)
    record.deadline = as_datetime(game.deadline(state))
    fields = ["state", "deadline", "steps", "updated_at"]
    result = game.outcome(state)
    if result is not None and not record.finished:
        record.finished = True
        fields.append("finished")
        board = game.score(dict(room.scoreboard.get(game.name, {})), state, result)
        room.scoreboard = {**room.scoreboard, game.name: board}
        room.save(update_fields=["scoreboard"])
    save_fields(record, fields)
    remember(room, record=record, state=state)  # the push renders it, no reparse
    bump(room)


def due_deadlines(game: Game, now: float) -> list[tuple[int, int]]:
    """(record, room) of every unfinished game of ``game`` whose deadline has passed."""
    model = game.record
    return list(
        model.objects.filter(finished=False, deadline__lte=as_datetime(now)).values_list("pk", "room_id")
    )


def next_deadline(game: Game, now: float) -> float | None:
    """The earliest deadline of ``game`` still to come, as Unix seconds."""
    from django.db.models import Min

    found = game.record.objects.filter(finished=False, deadline__gt=as_datetime(now)).aggregate(
        at=Min("deadline")
    )["at"]
    return None if found is None else float(found.timestamp())


def expire_due(game: Game, now: float, due: list[tuple[int, int]] | None = None) -> int:
    """Apply every passed deadline of ``game``, whoever is connected; the count applied.

    ``due``: the deadlines already found (``due_deadlines``). Each game is re-read under
    its room's lock, taken with ``SKIP LOCKED``: a room another clock or a move holds is
    left to it (a move applies a passed deadline first), so clocks never queue.
    """
    model = game.record
    applied = 0
    for record_id, room_id in due_deadlines(game, now) if due is None else due:
        try:
            with locked_room_by_pk(room_id, skip_locked=True) as room:
                record = model.objects.get(pk=record_id)
                if record.finished or record.deadline is None or record.deadline > as_datetime(now):
                    continue  # another process, or an action, got there first
                state = game.load(record.state)
                expired = game.expire(state, now)
                if expired is not state:
                    save(room, game, record, expired, now=now)
                    applied += 1
                    continue
                # Nothing the clock can do (a Codenames clue's time only shows, CN-24):
                # keep a future deadline, drop a past one so the sweep stops selecting it.
                left = game.deadline(state)
                model.objects.filter(pk=record.pk).update(
                    deadline=as_datetime(left) if left is not None and left > now else None
                )
        except RoomBusy:
            continue
    return applied


class EngineGame:
    """The parts of a ``rooms.games.Game`` that only forward to its engine and its own
    room-rules module (``<game>/services.py``); a game adds its seats, views and moves."""

    engine: Engine  # the pure rules engine (a module)
    rules: RoomRules  # the game's room rules (its services module)

    def room_facts(self, settings: dict[str, Any], players: list[Player]) -> dict[str, Any]:
        return {}

    def howto_template(self, language: str) -> str:
        # <game>/templates/howto/<game>/<language>.html, in the game's own app.
        return f"howto/{getattr(self, 'name', '')}/{language}.html"

    def is_running(self, room: Room) -> bool:
        return is_running(room)

    # A quiet reason's words for people (``quiet``'s codes), the answer to a refused line.
    quiet_messages: dict[str, Any] = {}

    def quiet(self, record: GameRecord, state: Any, players: list[Player]) -> dict[str, str]:
        return {}

    def chat_muted(self, room: Room, player: Player) -> Any | None:
        """Why ``player`` may not talk now by the game's rules (a text), or None: free.

        The same rule the state shows (``quiet``), read from the running record."""
        record = latest_record(room, self.record)  # type: ignore[attr-defined]
        if record is None or record.finished:
            return None
        reason = self.quiet(record, self.load(record.state), [player]).get(player.public_id)
        return None if reason is None else self.quiet_messages.get(reason, reason)

    def deal(
        self, room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any], now: float
    ) -> tuple[Any, dict[str, Any]]:
        return self.rules.deal(room, players, mode=mode, seed=seed, recent=recent, now=now)

    def set_house_rules(self, room: Room, options: dict[str, Any]) -> None:
        self.rules.set_house_rules(room, options)

    def load(self, data: dict[str, Any]) -> Any:
        return self.engine.state_from_json(data)

    def dump(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = self.engine.state_to_json(state)
        return data

    def expire(self, state: Any, now: float) -> Any:
        return self.engine.expire(state, now=now)

    def deadline(self, state: Any) -> float | None:
        left: float | None = self.engine.deadline(state)
        return left

    def outcome(self, state: Any) -> Any | None:
        return self.engine.outcome(state)

    def score(self, board: dict[str, Any], state: Any, outcome: Any) -> dict[str, Any]:
        tally: dict[str, Any] = self.rules.score(board, state.rules.mode, outcome)
        return tally

    # Every game kept: without a game's own replay parts, its replay tells the steps'
    # action names alone and its history line the outcome as the engine gives it.
    replay_script = ""

    def states(self, deal: dict[str, Any], moves: list[dict[str, Any]]) -> Iterable[Any]:
        # The engine's ``step``: one logged step (a move as sent, or a passed deadline).
        step = self.engine.step  # type: ignore[attr-defined]
        state = self.engine.state_from_json(deal)
        yield state
        for move in moves:
            state = step(state, move)
            yield state

    def outcome_json(self, outcome: Any) -> dict[str, Any]:
        return dataclasses.asdict(outcome) if dataclasses.is_dataclass(outcome) else {"result": outcome}

    def history_board(
        self, record: GameRecord, deal: Any, final: Any, names: dict[str, str]
    ) -> dict[str, Any]:
        return {}

    def history_frame(self, state: Any) -> dict[str, Any]:
        return {}

    def history_describe(self, move: dict[str, Any], before: Any, after: Any) -> str | None:
        return str(move["action"].get("action", move["kind"]))

    def seat_name(self, team: str, role: str | None = None) -> str:
        seating = getattr(self, "seating", None)  # each game class declares its seats
        return seating.labels.get(team, team) if seating is not None else team

    def history_summary(self, state: Any) -> dict[str, Any]:
        result = self.outcome(state)
        return {"variant": "", "result": "" if result is None else str(result), "winners": [], "length": ""}

    def history_stats(
        self, games: list[tuple[Any, list[dict[str, Any]]]], bots: set[str]
    ) -> list[tuple[str, str]]:
        return []

    def act(self, room: Room, player: Player, message: dict[str, Any]) -> None:
        """A move through the one game path (the caller holds the room's lock)."""
        act(room, list(room.players.all()), player, message)

    def expire_due(self, now: float, due: list[tuple[int, int]] | None = None) -> int:
        return expire_due(self, now, due)  # type: ignore[arg-type]
