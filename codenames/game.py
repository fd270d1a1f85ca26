"""Codenames as a room's game: seats, the engine behind ``rooms.play``, and its views."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from codenames import engine, history, services
from codenames.engine.actions import ACTION_NAMES
from codenames.engine.clues import fold
from codenames.models import CodenamesGame as Record
from rooms import play
from rooms.errors import RoomError
from rooms.games import Seating, WordRules
from rooms.models import GameRecord, Player, Room

SPYMASTER_VIEW, TABLE_VIEW = "spymaster", "table"


class Codenames(play.EngineGame):
    name = "codenames"
    title = _("Codenames")
    home_template = "codenames/home_card.html"
    seating = Seating(
        teams=("red", "blue"),
        roles=("spymaster", "operative"),
        single_roles=("spymaster",),
    )
    # Own words are card words: single words short enough for a phone's card.
    words = WordRules(minimum=25, max_length=20, spaces=False)
    engine = engine
    rules = services
    record = Record
    actions = frozenset(ACTION_NAMES)
    room_actions = {"rotate_spymasters": services.rotate_spymasters}
    # The room page loads these for this game only (static paths, hashed in production).
    script = "js/codenames.js"
    stylesheet = "css/codenames.css"
    table_stylesheet = "css/codenames-table.css"

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        game = services.current_game(room)
        if game is None or game.finished:
            return
        if role == "operative" and player.public_id in game.key_seen_by:
            raise RoomError(
                "key_seen",
                _("You have seen the key in this game: you can be an operative again in the next one."),
            )
        if role == "spymaster" and player.public_id not in game.key_seen_by:
            game.key_seen_by = [*game.key_seen_by, player.public_id]
            game.save(update_fields=["key_seen_by"])

    def apply(
        self, state: engine.State, record: GameRecord, player: Player, message: dict[str, Any], now: float
    ) -> engine.State:
        return services.apply(state, player, message, now)

    quiet_messages = {
        "key_seen": _("Spymasters say nothing while the game runs: your clue is your only word.")
    }

    def quiet(self, record: GameRecord, state: engine.State, players: list[Player]) -> dict[str, str]:
        """CN-36's table talk: while a game runs a spymaster's only word is the clue.

        Held on the person, not the seat: whoever saw the key in this game (``key_seen_by``:
        the spymasters dealt in and whoever sat as one since) stays silent until it ends,
        whatever seat they hop to — a spectator's seat is no way round it.
        """
        seen = set(getattr(record, "key_seen_by", []))
        return {p.public_id: "key_seen" for p in players if p.role == "spymaster" or p.public_id in seen}

    def room_facts(self, settings: dict[str, Any], players: list[Player]) -> dict[str, Any]:
        """What the lobby shows, decided here rather than re-derived in the browser."""
        mode, ready = services.seats_ready(players)
        low, high = services.TIMER_RANGE
        timers = {
            name: {"min": low, "max": high, "step": services.TIMER_STEP, "default": seconds}
            for name, seconds in services.DEFAULT_SECONDS.items()
        }
        return {"deal": {"mode": mode.value, "ready": ready}, "timers": timers}

    replay_script = "js/codenames/replay.js"

    def history_board(
        self, record: GameRecord, deal: Any, final: Any, names: dict[str, str]
    ) -> dict[str, Any]:
        return history.board(record, deal)

    def history_frame(self, state: Any) -> dict[str, Any]:
        return history.frame(state)

    def history_describe(self, move: dict[str, Any], before: Any, after: Any) -> str | None:
        return history.describe(move, before, after)

    def seat_name(self, team: str, role: str | None = None) -> str:
        return history.seat_name(team, role)

    def history_summary(self, state: Any) -> dict[str, Any]:
        return history.summary(state)

    def history_stats(
        self, games: list[tuple[Any, list[dict[str, Any]]]], bots: set[str]
    ) -> list[tuple[str, str]]:
        return history.stats(games)

    def outcome_json(self, outcome: engine.Outcome) -> dict[str, Any]:
        """The export's outcome (docs/protocol.md, "Game records")."""
        winner = None if outcome.winner is None else outcome.winner.value
        return {"winner": winner, "reason": outcome.reason, "score": outcome.score, "rating": outcome.rating}

    def view_key(self, record: GameRecord, state: engine.State, player: Player | None) -> str:
        """Two views (CN-S1): spymasters see the key; operatives, spectators and visitors do not."""
        return SPYMASTER_VIEW if player is not None and player.role == "spymaster" else TABLE_VIEW

    def view(self, record: GameRecord, state: engine.State, key: str) -> dict[str, Any]:
        """The one redaction path: the engine's ``view_for`` decides what the seat sees."""
        payload = engine.view_for(state, sees_key=key == SPYMASTER_VIEW)
        payload["number"] = record.number
        # A bot clue's intended words are the key's secret until the game is over (CN-S2).
        payload["explanations"] = dict(record.bot_notes) if state.over else {}
        if key == SPYMASTER_VIEW and not state.over:
            # CN-10's comparison form of each card (Python's casefold), for the clue form.
            payload["folded_words"] = [fold(word) for word in state.words]
        return payload


GAME = Codenames()
