"""Decrypto as a room's game: seats, the engine behind ``rooms.play``, and its views."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from decrypto import engine, history, services
from decrypto.engine.actions import ACTION_NAMES
from decrypto.models import DecryptoGame as Record
from rooms import play
from rooms.errors import RoomError
from rooms.games import Seating, WordRules
from rooms.models import GameRecord, Player, Room

TABLE_VIEW = "table"


class Decrypto(play.EngineGame):
    name = "decrypto"
    title = _("Decrypto")
    home_template = "decrypto/home_card.html"
    seating = Seating(teams=("white", "black"), roles=("player",))
    # Own keywords may be short phrases (DC-16 allows phrases for clues, and a group's
    # inside jokes make good keywords).
    words = WordRules(minimum=8, max_length=30, spaces=True)
    engine = engine
    rules = services
    record = Record
    actions = frozenset(ACTION_NAMES)
    room_actions: dict[str, Any] = {}
    # The room page loads these for this game only (static paths, hashed in production).
    script = "js/decrypto.js"
    stylesheet = "css/decrypto.css"
    table_stylesheet = "css/decrypto-table.css"

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        """Rosters are fixed when a game is dealt.

        A roster player has seen their team's keywords (DC-S1): they may step out to
        watch and come back to their own team, never sit with the other team. Anyone
        else may not join a team while the game runs: the engine has no seat for them.
        """
        game = services.current_game(room)
        if game is None or game.finished or role == Player.SPECTATOR:
            return
        home = game.seat_teams.get(player.public_id)
        if home is None:
            raise RoomError(
                "rosters_fixed",
                _("The teams were fixed when this game was dealt: join them for the next one."),
            )
        if team != home:
            raise RoomError(
                "team_locked", _("You have seen your team's keywords: you can change teams in the next game.")
            )

    quiet_messages = {"encryptor": _("You are the Encryptor: say nothing until your code is revealed.")}

    def quiet(self, record: GameRecord, state: engine.State, players: list[Player]) -> dict[str, str]:
        """DC-46: a round's Encryptor says nothing, in any channel, from the moment the
        round gives them their code until that code is revealed: while writing the clues,
        once they are submitted, while the other team's code is decoded first, and while
        their own team deciphers theirs (the rulebook: no part in the discussion, no
        reaction)."""
        if state.phase not in (engine.Phase.CLUES, engine.Phase.GUESS):
            return {}
        revealed = {reveal.team for reveal in state.history if reveal.round == state.round}
        coding = {
            turn.encryptor
            for team in engine.Team
            if (turn := state.turns[team]) is not None and team not in revealed
        }
        return {p.public_id: "encryptor" for p in players if p.public_id in coding}

    def apply(
        self, state: engine.State, record: GameRecord, player: Player, message: dict[str, Any], now: float
    ) -> engine.State:
        return services.apply(state, player, message, now)

    def room_facts(self, settings: dict[str, Any], players: list[Player]) -> dict[str, Any]:
        """What the lobby shows, decided here rather than re-derived in the browser."""
        mode, ready = services.seats_ready(players)
        low, high = services.TIMER_RANGE
        timer = {"min": low, "max": high, "step": services.TIMER_STEP, "default": services.DEFAULT_TIMER}
        return {"deal": {"mode": mode.value, "ready": ready}, "timers": {"timer_seconds": timer}}

    replay_script = "js/decrypto/replay.js"

    def history_board(
        self, record: GameRecord, deal: Any, final: Any, names: dict[str, str]
    ) -> dict[str, Any]:
        return history.board(record, deal, final, names)

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
        return history.stats(games, bots)

    def outcome_json(self, outcome: engine.Outcome) -> dict[str, Any]:
        """The export's outcome (docs/protocol.md, "Game records"): no winner is a draw."""
        return {"winners": sorted(team.value for team in outcome.winners), "reason": outcome.reason}

    def view_key(self, record: GameRecord, state: engine.State, player: Player | None) -> str:
        """A roster player's own view (it names their seat and tasks); one view for all others.

        The game's roster, not the room seat, says who the player is: a roster player who
        stepped out to watch still sees their own team's screen, and nothing more.
        """
        if player is not None and player.public_id in record.seat_teams:  # type: ignore[attr-defined]
            return f"player:{player.public_id}"
        return TABLE_VIEW

    def view(self, record: GameRecord, state: engine.State, key: str) -> dict[str, Any]:
        """The one redaction path: the engine's ``view_for`` decides what the player sees."""
        player = key.removeprefix("player:") if key.startswith("player:") else None
        payload = engine.view_for(state, player=player)
        payload["number"] = record.number
        return payload


GAME = Decrypto()
