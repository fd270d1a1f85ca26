"""Decrypto in a room: load → engine.apply → save → notify, under the room's row lock.

The callers (the room consumer, the clock) hold the room's row lock, so actions on one
game are applied one at a time; every timed action also carries the round and phase its
screen showed, so a double tap or a stale screen is refused, never applied twice.

Seats → rosters. A room seat is a team (``white``/``black``) with the role ``player``;
spectators do not play. Rotation order (DC-5) is the order in which players joined the
room. Four to eight seated players play the standard game (2–4 per team, sizes differing
by one at most: the engine checks it). Exactly three seated players play the Interceptor
variant (DC-40): the room team holding two players becomes the engine's ``white`` (the
team with keywords and codes), the lone player the engine's ``black`` (the Interceptor),
whichever room colour they sit at. ``DecryptoGame.seat_teams`` remembers the room seats.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _

from decrypto import engine
from decrypto.messages import ENGINE_MESSAGES
from decrypto.models import DecryptoGame
from rooms.errors import RoomError
from rooms.models import Player, Room
from rooms.services import as_datetime, bump, close_abandoned, save_game, sweep_deadlines
from rooms.words import fresh_words, load_pack, room_word_list

WORDS_DIR = str(Path(__file__).resolve().parent / "words")
TEAMS = ("white", "black")
DEFAULT_TIMER = 30  # DC-8


def current_game(room: Room, *, lock: bool = False) -> DecryptoGame | None:
    games = room.decrypto_games.order_by("-number")
    if lock:
        games = games.select_for_update()
    return games.first()


def _room_error(error: engine.RuleError) -> RoomError:
    return RoomError(error.code, ENGINE_MESSAGES.get(error.code, error.message), **error.params)


def room_rules(room: Room, mode: engine.Mode) -> engine.Rules:
    """The engine's rules from the room's setting ``{"decrypto": {"timer_seconds": …}}`` (DC-8).

    Missing: 30 s. ``None``: no timer. Otherwise 15–120 s (the engine checks the range).
    """
    options = room.settings.get("decrypto", {}) if isinstance(room.settings, dict) else {}
    timer = options.get("timer_seconds", DEFAULT_TIMER) if isinstance(options, dict) else DEFAULT_TIMER
    if timer is not None and (isinstance(timer, bool) or not isinstance(timer, int)):
        raise RoomError("bad_rules", _("The timer must be off or a whole number of seconds from 15 to 120."))
    return engine.Rules(mode=mode, timer_seconds=timer)


def seated_players(room: Room) -> list[Player]:
    """Players in a team seat, in joining order (the rotation order, DC-5)."""
    return [p for p in room.players.all() if p.is_seated and p.team in TEAMS]


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


def _keywords_of(state: dict[str, Any]) -> list[str]:
    teams = state.get("teams", {})
    return [word for team in TEAMS for word in teams.get(team, {}).get("keywords", [])]


def game_start(
    *, room: Room, player: Player, mode: str | None, confirm: bool, seed: int | None = None
) -> DecryptoGame:
    """Deal a new game (DC-1..DC-6, DC-40); abandoning a running one needs ``confirm``."""
    try:
        requested = engine.Mode(mode) if mode else None
    except ValueError:
        raise RoomError("bad_mode", _("There is no such game mode.")) from None
    game = current_game(room, lock=True)
    if game is not None and not game.finished:
        if not confirm:
            raise RoomError(
                "confirm_abandon", _("A game is running: confirm to abandon it and deal a new one.")
            )
    players = seated_players(room)
    chosen = requested or infer_mode(players)
    white, black = rosters(players, chosen)
    rules = room_rules(room, chosen)
    pack = room_word_list(
        room.settings.get("words", {}).get("decrypto", {}), load_pack(WORDS_DIR, room.language)
    )
    # DC-2: keywords are not reused across the room's games until the pack runs out.
    recent = [_keywords_of(g.state) for g in room.decrypto_games.order_by("-number")]
    words = fresh_words(pack, recent, 4 if chosen is engine.Mode.INTERCEPTOR else 8)
    seed = secrets.randbits(128) if seed is None else seed
    try:
        state = engine.new_game(
            words=words, seed=seed, white=white, black=black, rules=rules, now=time.time()
        )
    except engine.RuleError as error:
        raise _room_error(error) from None
    close_abandoned(game)
    created = DecryptoGame.objects.create(
        room=room,
        number=(game.number + 1) if game else 1,
        seed=str(seed),
        state=engine.state_to_json(state),
        seat_teams={p.public_id: p.team for p in players},
        deadline=as_datetime(engine.deadline(state)),
    )
    bump(room)
    return created


def game_act(*, room: Room, player: Player, action: dict[str, Any]) -> None:
    """Apply the engine action ``{"type": …, …}`` for ``player``; RoomError if refused."""
    game = current_game(room, lock=True)
    if game is None:
        raise RoomError("no_game", _("No game has been dealt yet."))
    state = engine.state_from_json(game.state)
    now = time.time()
    expired = engine.expire(state, now=now)
    if expired is not state:
        # Save the passed deadline even if the move is refused (the caller commits it),
        # so the refused player's screen shows why: the clues were already sent (DC-8).
        _save(room, game, expired)
        state = expired
    try:
        parsed = engine.action_from_json(action)
        new_state = engine.apply(state, player.public_id, parsed, now=now)
    except engine.RuleError as error:
        raise _room_error(error) from None
    _save(room, game, new_state)


def _save(room: Room, game: DecryptoGame, state: engine.State) -> None:
    result = engine.outcome(state)
    save_game(
        room,
        game,
        state=engine.state_to_json(state),
        deadline=engine.deadline(state),
        over=result is not None,
        on_finish=lambda: _score(room, state.rules.mode, result) if result is not None else None,
    )


def _score(room: Room, mode: engine.Mode, result: engine.Outcome) -> None:
    """The room's tally: standard wins by team colour, shared victories, Interceptor games apart."""
    board = dict(room.scoreboard.get("decrypto", {}))
    if mode is engine.Mode.INTERCEPTOR:
        key = "interceptor" if engine.Team.BLACK in result.winners else "team_of_two"
    elif len(result.winners) == 2:
        key = "shared"  # DC-26
    else:
        key = next(iter(result.winners)).value
    board[key] = board.get(key, 0) + 1
    room.scoreboard = {**room.scoreboard, "decrypto": board}
    room.save(update_fields=["scoreboard"])


def expire_due(now: float) -> int:
    """Apply every passed deadline (DC-8), whoever is connected; the count applied."""
    return sweep_deadlines(DecryptoGame, now, _expire)


def _expire(room: Room, game: DecryptoGame, now: float) -> float | None:
    state = engine.state_from_json(game.state)
    new_state = engine.expire(state, now=now)
    if new_state is state:
        return engine.deadline(state) or 0.0
    _save(room, game, new_state)
    return None


TIMER_RANGE = (15, 120)


def set_house_rules(*, room: Room, options: dict[str, Any]) -> None:
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
    room.save(update_fields=["settings"])
    bump(room)
