"""Decrypto's own room rules: rosters from seats, dealing, the timer setting, scoring.

Applying moves, deadlines, saving and scoring go through the one game path of
``rooms.play``; this module holds only what is Decrypto's own. The callers hold the
room's row lock; every timed action also carries the round and phase its screen showed,
so a double tap or a stale screen is refused, never applied twice.

Seats → rosters. A room seat is a team (``white``/``black``) with the role ``player``;
spectators do not play. Rotation order (DC-5) is the order in which players joined the
room. Four to eight seated players play the standard game (2–4 per team, sizes differing
by one at most: the engine checks it). Exactly three seated players play the Interceptor
variant (DC-40): the room team holding two players becomes the engine's ``white`` (the
team with keywords and codes), the lone player the engine's ``black`` (the Interceptor),
whichever room colour they sit at. ``DecryptoGame.seat_teams`` remembers the room seats.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _

from decrypto import engine
from decrypto.engine.start import check_players
from decrypto.messages import ENGINE_MESSAGES
from decrypto.models import DecryptoGame
from rooms.errors import RoomError, engine_errors
from rooms.models import Player, Room
from rooms.records import latest_record
from rooms.words import fresh_words, load_pack, room_word_list

WORDS_DIR = str(Path(__file__).resolve().parent / "words")
TEAMS = ("white", "black")
DEFAULT_TIMER = 30  # DC-8


def current_game(room: Room) -> DecryptoGame | None:
    return latest_record(room, DecryptoGame)


def rule_errors() -> AbstractContextManager[None]:
    return engine_errors(engine.RuleError, ENGINE_MESSAGES)


def room_rules(room: Room, mode: engine.Mode) -> engine.Rules:
    """The engine's rules from the room's setting ``{"decrypto": {"timer_seconds": …}}`` (DC-8).

    Missing: 30 s. ``None``: no timer. Otherwise 15–120 s (the engine checks the range).
    """
    options = room.settings.get("decrypto", {}) if isinstance(room.settings, dict) else {}
    timer = options.get("timer_seconds", DEFAULT_TIMER) if isinstance(options, dict) else DEFAULT_TIMER
    if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int)):
        raise RoomError("bad_rules", _("The timer must be off or a whole number of seconds from 15 to 120."))
    return engine.Rules(mode=mode, timer_seconds=timer)


def infer_mode(players: list[Player]) -> engine.Mode:
    """Three seated players play the Interceptor variant (DC-40); any other count the standard game."""
    return engine.Mode.INTERCEPTOR if len(players) == 3 else engine.Mode.STANDARD


def rosters(players: list[Player], mode: engine.Mode) -> tuple[list[str], list[str]]:
    """The engine's ``white`` and ``black`` player ids for ``mode`` (see the module docstring)."""
    by_team = {team: [p.public_id for p in players if p.team == team] for team in TEAMS}
    if mode is engine.Mode.STANDARD:
        return by_team["white"], by_team["black"]
    pair = [ids for ids in by_team.values() if len(ids) == 2]
    lone = [ids for ids in by_team.values() if len(ids) == 1]
    if not (pair and lone):
        raise RoomError(
            "seats_incomplete",
            _("The Interceptor variant needs exactly three players: two in one team, one in the other."),
        )
    return pair[0], lone[0]


def seats_ready(players: list[Player]) -> tuple[engine.Mode, bool]:
    """The mode a deal without one would use now, and whether the seats allow it."""
    seated = [p for p in players if p.is_seated and p.team in TEAMS]
    mode = infer_mode(seated)
    try:
        white, black = rosters(seated, mode)
        check_players(mode, tuple(white), tuple(black))
    except (RoomError, engine.RuleError):
        return mode, False
    return mode, True


def _keywords_of(state: dict[str, Any]) -> list[str]:
    teams = state.get("teams", {})
    return [word for team in TEAMS for word in teams.get(team, {}).get("keywords", [])]


def deal(room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any],
         now: float) -> tuple[engine.State, dict[str, Any]]:  # fmt: skip
    """A new game (DC-1..DC-6, DC-40) in the mode asked for or the one the seats allow."""
    try:
        requested = engine.Mode(mode) if mode else None
    except ValueError:
        raise RoomError("bad_mode", _("There is no such game mode.")) from None
    seated = [p for p in players if p.is_seated and p.team in TEAMS]
    chosen = requested or infer_mode(seated)
    white, black = rosters(seated, chosen)
    rules = room_rules(room, chosen)
    pack = room_word_list(
        room.settings.get("words", {}).get("decrypto", {}), load_pack(WORDS_DIR, room.language)
    )
    # DC-2: keywords are not reused across the room's games until the pack runs out.
    words = fresh_words(
        pack, [_keywords_of(state) for state in recent], 4 if chosen is engine.Mode.INTERCEPTOR else 8
    )
    bots = [p.public_id for p in seated if p.bot]  # DC-8: a bot's submit starts no timer
    with rule_errors():
        state = engine.new_game(
            words=words, seed=seed, white=white, black=black, rules=rules, now=now, bots=bots
        )
    return state, {"seat_teams": {p.public_id: p.team for p in seated}}


def apply(state: engine.State, player: Player, message: dict[str, Any], now: float) -> engine.State:
    """Apply the move ``{"action": …, …}`` for ``player``; RoomError if refused."""
    with rule_errors():
        return engine.apply(state, player.public_id, engine.action_from_json(message), now=now)


def score(board: dict[str, Any], mode: engine.Mode, result: engine.Outcome) -> dict[str, Any]:
    """The room's tally: standard wins by team colour, shared victories, Interceptor games apart."""
    if mode is engine.Mode.INTERCEPTOR:
        key = "interceptor" if engine.Team.BLACK in result.winners else "team_of_two"
    elif len(result.winners) == 2:
        key = "shared"  # DC-26
    else:
        key = next(iter(result.winners)).value
    board[key] = board.get(key, 0) + 1
    return board


TIMER_RANGE = (15, 120)
TIMER_STEP = 5


def set_house_rules(room: Room, options: dict[str, Any]) -> None:
    """DC-8's room setting: the late Encryptor's timer, on (15–120 s) or off."""
    unknown = set(options) - {"timer", "timer_seconds"}
    if unknown:
        raise RoomError("bad_rules", _("Unknown house rule."), names=sorted(str(n)[:40] for n in unknown))
    current = dict(room.settings.get("decrypto", {}))
    timer = options.get("timer", current.get("timer_seconds", DEFAULT_TIMER) is not None)
    seconds = options.get("timer_seconds", current.get("timer_seconds") or DEFAULT_TIMER)
    low, high = TIMER_RANGE
    if not isinstance(timer, bool):
        raise RoomError("bad_rules", _("'%(name)s' must be true or false."), name="timer")
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
        raise RoomError(
            "bad_rules", _("The timer runs from %(low)s to %(high)s seconds."), low=low, high=high
        )
    current["timer_seconds"] = seconds if timer else None
    room.settings = {**room.settings, "decrypto": current}
