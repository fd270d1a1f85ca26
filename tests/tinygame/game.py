"""Tally as a room's game: everything a game brings, in its own app (tests/tinygame/)."""

from __future__ import annotations

from typing import Any

from rooms import play
from rooms.errors import RoomError
from rooms.games import Seating, WordRules
from rooms.models import GameRecord, Player, Room
from tests.tinygame import engine
from tests.tinygame.models import TallyRecord

TABLE_VIEW = "table"


class _Rules:
    """The game's room rules (deal, house rules, score)."""

    @staticmethod
    def deal(
        room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any], now: float
    ) -> tuple[engine.State, dict[str, Any]]:
        for team in engine.TEAMS:
            if not any(p.team == team for p in players):
                raise RoomError("seats_incomplete", "Each team needs a player.", team=team)
        return engine.new_game(seed=seed), {}

    @staticmethod
    def set_house_rules(room: Room, options: dict[str, Any]) -> None:
        raise RoomError("bad_house_rules", "Tally has no house rules.")

    @staticmethod
    def score(board: dict[str, Any], mode: str, winner: str) -> dict[str, Any]:
        return {**board, winner: board.get(winner, 0) + 1}


class TallyGame(play.EngineGame):
    name = "tally"
    title = "Tally"
    home_template = "tinygame/home_card.html"
    script = "js/tinygame.js"
    stylesheet = "css/tinygame.css"
    table_stylesheet = "css/tinygame-table.css"
    seating = Seating(teams=engine.TEAMS, roles=("player",))
    words = WordRules(minimum=2, max_length=20, spaces=False)
    engine = engine
    rules = _Rules
    record = TallyRecord
    actions = frozenset({"tally"})
    room_actions: dict[str, Any] = {}

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        if self.is_running(room):
            raise RoomError("rosters_fixed", "Teams are fixed while a game runs.")

    def apply(
        self, state: engine.State, record: GameRecord, player: Player, message: dict[str, Any], now: float
    ) -> engine.State:
        try:
            return engine.apply(state, player.team, message)
        except engine.RuleError as error:
            raise RoomError(error.code, error.message) from None

    def view_key(self, record: GameRecord, state: engine.State, player: Player | None) -> str:
        return player.team if player is not None and player.team in engine.TEAMS else TABLE_VIEW

    def view(self, record: GameRecord, state: engine.State, key: str) -> dict[str, Any]:
        payload = engine.view_for(state, key if key in engine.TEAMS else None)
        payload["number"] = record.number
        return payload


GAME = TallyGame()
