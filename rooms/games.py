"""The contract between rooms and the games played in them.

A room knows nothing of Codenames or Decrypto rules: it asks the game registered
under the room's ``game`` name which seats exist, what a seat change means while a
game runs, what each player may see, and how to apply a move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from rooms.models import GameRecord, Player, Room


@dataclass(frozen=True)
class Seating:
    """The seats of a game: its teams, and the roles a team member may take."""

    teams: tuple[str, ...]
    roles: tuple[str, ...]
    # Roles held by at most one player per team (a Codenames spymaster).
    single_roles: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class WordRules:
    """What a room's own word list must look like for a game."""

    minimum: int
    max_length: int
    spaces: bool


class EngineState(Protocol):
    """What the rooms read of any engine's state: its rules' mode (scored per mode)."""

    @property
    def rules(self) -> Any: ...


class Engine(Protocol):
    """A game's pure rules engine, as ``rooms.play.EngineGame`` drives it (a module).

    No Django, no clock, no global random: time comes in as ``now``. Every refusal is
    one exception type with a stable ``code``, ``message`` and ``params``.
    """

    def state_from_json(self, data: dict[str, Any]) -> Any: ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def expire(self, state: Any, *, now: float) -> Any:
        """The state after a passed deadline, or ``state`` itself when nothing is due."""

    def deadline(self, state: Any) -> float | None: ...

    def outcome(self, state: Any) -> Any | None:
        """``None`` while the game runs; what the room scores once it is over."""


class RoomRules(Protocol):
    """A game's own room rules (``<game>/services.py``): dealing from seats, house rules
    and the room's tally."""

    def deal(
        self, room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any], now: float
    ) -> tuple[Any, dict[str, Any]]: ...

    def set_house_rules(self, room: Room, options: dict[str, Any]) -> None: ...

    def score(self, board: dict[str, Any], mode: Any, outcome: Any) -> dict[str, Any]: ...


class Game(Protocol):
    """A game a room can play: its seats, and a small engine protocol over opaque states.

    ``rooms.play`` drives every game through these methods, so a new game is an engine
    plus one object like this, registered in its app's ``ready()``.
    """

    name: str
    title: Any
    seating: Seating
    words: WordRules
    # The model that stores this game's records (a ``rooms.models.GameRecord``).
    record: type[GameRecord]
    # The room actions handled by ``apply`` (the engine's moves).
    actions: frozenset[str]
    # Other room actions of this game, ``name -> handler(room, players, player)``; each
    # changes the room and is followed by a push.
    room_actions: dict[str, Callable[[Room, list[Player], Player], None]]
    # The game's browser module and stylesheet (static paths): the room page loads them
    # for this game only. The module exports ``render``, ``title``, ``houseRulesSummary``
    # and ``howtoSection`` (docs/protocol.md).
    script: str
    stylesheet: str
    # The table view's own rules (a TV: large, never scrolling), loaded only there: a
    # phone never downloads them.
    table_stylesheet: str

    def is_running(self, room: Room) -> bool:
        """Whether the room's current game of this kind is under way (seats are then fixed)."""

    def chat_muted(self, room: Room, player: Player) -> Any | None:
        """Why ``player`` may not talk now by the game's rules (a text for people), or None."""

    def quiet(self, record: GameRecord, state: Any, players: list[Player]) -> dict[str, str]:
        """Who of ``players`` the running game keeps silent now: public id -> a reason code
        (``quiet_messages`` says it to people). Shown to each in their own ``you.quiet``."""

    def expire_due(self, now: float, due: list[tuple[int, int]] | None = None) -> int:
        """Apply every passed deadline of this game's records (the clock); how many.

        ``due``: the (record, room) pairs already found due (``rooms.play.due_deadlines``)."""

    def before_seat_change(self, room: Room, player: Player, team: str, role: str) -> None:
        """Raise RoomError when the running game forbids this change; else record what it must."""

    def deal(
        self, room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any], now: float
    ) -> tuple[Any, dict[str, Any]]:
        """A new game's state and the record's extra fields; ``recent``: earlier states."""

    def set_house_rules(self, room: Room, options: dict[str, Any]) -> None:
        """Check and store ``options`` in ``room.settings`` (the caller saves); raise RoomError."""

    def load(self, data: dict[str, Any]) -> Any: ...

    def dump(self, state: Any) -> dict[str, Any]: ...

    def apply(
        self, state: Any, record: GameRecord, player: Player, message: dict[str, Any], now: float
    ) -> Any:
        """The state after ``player``'s move ``message``; raise RoomError if refused."""

    def expire(self, state: Any, now: float) -> Any:
        """The state after a passed deadline, or ``state`` itself when nothing is due."""

    def deadline(self, state: Any) -> float | None: ...

    def outcome(self, state: Any) -> Any | None: ...

    def score(self, board: dict[str, Any], state: Any, outcome: Any) -> dict[str, Any]:
        """The room's tally for this game with a finished game counted in."""

    def room_facts(self, settings: dict[str, Any], players: list[Player]) -> dict[str, Any]:
        """Facts the room's base state carries for the lobby (docs/protocol.md): ``deal``
        (the mode a deal without one would use, and whether the seats allow it) and
        ``timers`` (each house-rule timer's range and default)."""

    def view_key(self, record: GameRecord, state: Any, player: Player | None) -> str:
        """Which view of the game ``player`` gets (``None``: a visitor); equal keys, equal views."""

    def view(self, record: GameRecord, state: Any, key: str) -> dict[str, Any]:
        """The game as the seats of ``key`` may see it: the only path game state takes out."""

    # Every game kept (rooms/history.py, docs/protocol.md "Game records"). The replay
    # page's script (a static path) exports ``render(board, frame, root)``; "" shows the
    # steps in words alone.
    replay_script: str

    def states(self, deal: dict[str, Any], moves: list[dict[str, Any]]) -> Iterable[Any]:
        """The deal's state, then the state after each logged step (the engine alone)."""

    def outcome_json(self, outcome: Any) -> dict[str, Any]:
        """A finished game's outcome as the export names it."""

    def history_board(
        self, record: GameRecord, deal: Any, final: Any, names: dict[str, str]
    ) -> dict[str, Any]:
        """What a replay shows throughout (everything revealed: the game is over)."""

    def history_frame(self, state: Any) -> dict[str, Any]:
        """One moment of a replay, for ``replay_script``."""

    def history_describe(self, move: dict[str, Any], before: Any, after: Any) -> str | None:
        """A step in words, or None for a step the replay passes over."""

    def seat_name(self, team: str, role: str | None = None) -> str:
        """A team's name for people (a seat's, with its role when the game has several)."""

    def history_summary(self, state: Any) -> dict[str, Any]:
        """The history line of a finished game: ``variant``, ``result``, ``winners``, ``length``."""

    def history_stats(
        self, games: list[tuple[Any, list[dict[str, Any]]]], bots: set[str]
    ) -> list[tuple[str, str]]:
        """The game's own figures over the room's finished games (final state, moves)."""

    # The home page's card: what the game is and who can play it (a template of the
    # game's app; the pages name no game).
    home_template: str

    def howto_template(self, language: str) -> str:
        """The rules page fragment in ``language`` (one of settings.LANGUAGES)."""


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    return _REGISTRY[name]


def game_names() -> list[str]:
    return list(_REGISTRY)


# Games whose empty seats an AI teammate can take: filled by the app that brings the bots
# (bots/apps.py), so rooms/ needs to know nothing of how a bot plays.
_BOT_GAMES: set[str] = set()


def offer_bots(name: str) -> None:
    _BOT_GAMES.add(name)


def offers_bots(name: str) -> bool:
    return name in _BOT_GAMES
