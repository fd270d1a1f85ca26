"""Codenames in a room: load → engine.apply → save → notify, under the room's row lock.

The callers (the room consumer, the clock) hold the room's row lock, so actions on one
game are applied one at a time; every action also carries the engine's turn counter, so
a double tap or a stale screen is refused, never applied twice.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _

from codenames import engine
from codenames.messages import ENGINE_MESSAGES
from codenames.models import CodenamesGame
from rooms.errors import RoomError
from rooms.models import Player, Room
from rooms.services import as_datetime, bump, close_abandoned, save_game, sweep_deadlines
from rooms.words import fresh_words, load_pack, room_word_list

WORDS_DIR = str(Path(__file__).resolve().parent / "words")
BOARD_SIZE = 25


@contextmanager
def rule_errors() -> Iterator[None]:
    """The engine's refusals as room errors, in words the players' language will carry."""
    try:
        yield
    except engine.RuleError as error:
        raise RoomError(error.code, ENGINE_MESSAGES.get(error.code, error.message), **error.params) from None


def current_game(room: Room, *, lock: bool = False) -> CodenamesGame | None:
    games = room.codenames_games.order_by("-number")
    if lock:
        games = games.select_for_update()
    return games.first()


def room_rules(room: Room, mode: engine.Mode) -> engine.Rules:
    """The engine's rules from the room's house rules (CN-25..CN-28)."""
    options = room.settings.get("codenames", {})
    return engine.Rules(
        mode=mode,
        multi_word_clues=bool(options.get("multi_word_clues", False)),
        clue_seconds=options.get("clue_seconds") if options.get("timer") else None,
        guess_seconds=options.get("guess_seconds") if options.get("timer") else None,
        coop_team=engine.Team(options.get("coop_team", "red")),
    )


def _seated(room: Room) -> list[Player]:
    return [p for p in room.players.all() if p.is_seated]


def infer_mode(players: list[Player]) -> engine.Mode:
    """Which variant the seats allow: standard, co-operative (CN-30) or three (CN-34)."""
    spymasters = [p for p in players if p.role == "spymaster"]
    operatives = [p for p in players if p.role == "operative"]
    teams_with_players = {p.team for p in players}
    if len(spymasters) == 2 and len(operatives) == 1:
        return engine.Mode.THREE
    if len(spymasters) == 1 and operatives and teams_with_players == {spymasters[0].team}:
        return engine.Mode.COOP
    return engine.Mode.STANDARD


def check_seats(players: list[Player], mode: engine.Mode) -> engine.Team | None:
    """Raise unless the seats fit ``mode``; the co-operative team, if any."""
    by_team = {team: [p for p in players if p.team == team] for team in ("red", "blue")}
    spymasters = {team: [p for p in members if p.role == "spymaster"] for team, members in by_team.items()}
    operatives = {team: [p for p in members if p.role == "operative"] for team, members in by_team.items()}
    if mode is engine.Mode.STANDARD:
        for team in by_team:
            if len(spymasters[team]) != 1 or not operatives[team]:
                raise RoomError(
                    "seats_incomplete",
                    _("Each team needs a spymaster and at least one operative."),
                    team=team,
                )
        return None
    if mode is engine.Mode.THREE:
        if any(len(spymasters[t]) != 1 for t in by_team) or sum(len(o) for o in operatives.values()) != 1:
            raise RoomError("seats_incomplete", _("Three players: one spymaster per team and one operative."))
        return None
    playing = [team for team, members in by_team.items() if members]
    if len(playing) != 1 or len(spymasters[playing[0]]) != 1 or not operatives[playing[0]]:
        raise RoomError(
            "seats_incomplete",
            _("Co-operative: one team with a spymaster and operatives, the other team empty."),
        )
    return engine.Team(playing[0])


def game_start(
    *, room: Room, player: Player, mode: str | None, confirm: bool, seed: int | None = None
) -> None:
    """Deal a new game (CN-3..CN-5, CN-19); abandoning a running one needs ``confirm``."""
    game = current_game(room, lock=True)
    if game is not None and not game.finished and not confirm:
        raise RoomError("confirm_abandon", _("A game is running: confirm to abandon it and deal a new one."))
    players = _seated(room)
    try:
        chosen = engine.Mode(mode) if mode else infer_mode(players)
    except ValueError:
        raise RoomError("bad_mode", _("There is no such game mode.")) from None
    coop_team = check_seats(players, chosen)
    pack = room_word_list(
        room.settings.get("words", {}).get("codenames", {}), load_pack(WORDS_DIR, room.language)
    )
    recent = [g.state["words"] for g in room.codenames_games.order_by("-number")]
    words = fresh_words(pack, recent, BOARD_SIZE)
    seed = secrets.randbits(128) if seed is None else seed
    with rule_errors():
        rules = room_rules(room, chosen)
        if coop_team is not None:
            rules = dataclasses.replace(rules, coop_team=coop_team)
        state = engine.new_game(words=words, seed=seed, rules=rules, now=time.time())
    close_abandoned(game)
    CodenamesGame.objects.create(
        room=room,
        number=(game.number + 1) if game else 1,
        seed=str(seed),
        state=engine.state_to_json(state),
        key_seen_by=[p.public_id for p in players if p.role == "spymaster"],
        deadline=as_datetime(engine.deadline(state)),
    )
    bump(room)


def actor_for(player: Player, state: engine.State) -> engine.Actor:
    if player.role == "spymaster":
        return engine.Actor(player.public_id, engine.Team(player.team), engine.Role.SPYMASTER)
    if player.role == "operative":
        team = None if state.rules.mode is engine.Mode.THREE else engine.Team(player.team)
        return engine.Actor(player.public_id, team, engine.Role.OPERATIVE)
    raise RoomError("not_seated", _("Take a seat to play."))


def game_act(*, room: Room, player: Player, message: dict[str, Any]) -> None:
    game = current_game(room, lock=True)
    if game is None:
        raise RoomError("no_game", _("No game has been dealt yet."))
    state = engine.state_from_json(game.state)
    now = time.time()
    expired = engine.expire(state, now=now)
    if expired is not state:
        # Save the passed deadline even if the move is refused (the caller commits it),
        # so the refused player's screen shows why: the turn has already ended.
        _save(room, game, expired)
        state = expired
    with rule_errors():
        action = engine.action_from_json(message)
        new_state = engine.apply(state, actor_for(player, state), action, now=now)
    _save(room, game, new_state)


def _save(room: Room, game: CodenamesGame, state: engine.State) -> None:
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
    board = dict(room.scoreboard.get("codenames", {}))
    if mode is engine.Mode.COOP:
        board["coop_played"] = board.get("coop_played", 0) + 1
        if result.score is not None:
            board["coop_best"] = max(board.get("coop_best", 0), result.score)
    elif result.winner is not None:
        board[result.winner.value] = board.get(result.winner.value, 0) + 1
    room.scoreboard = {**room.scoreboard, "codenames": board}
    room.save(update_fields=["scoreboard"])


TIMER_RANGE = (30, 300)
NOTES_MAX = 500


def set_house_rules(*, room: Room, options: dict[str, Any]) -> None:
    """Record the room's house rules (CN-25..CN-29); they apply from the next deal."""
    unknown = set(options) - {"multi_word_clues", "timer", "clue_seconds", "guess_seconds", "notes"}
    if unknown:
        raise RoomError("bad_rules", _("Unknown house rule."), names=sorted(str(n)[:40] for n in unknown))
    current = dict(room.settings.get("codenames", {}))
    for name in ("multi_word_clues", "timer"):
        if name in options:
            if not isinstance(options[name], bool):
                raise RoomError("bad_rules", _("'%(name)s' must be true or false."), name=name)
            current[name] = options[name]
    for name in ("clue_seconds", "guess_seconds"):
        if name in options:
            value = options[name]
            low, high = TIMER_RANGE
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RoomError(
                    "bad_rules", _("Timers run from %(low)s to %(high)s seconds."), low=low, high=high
                )
            current[name] = value
    if "notes" in options:
        notes = options["notes"]
        if not isinstance(notes, str) or len(notes) > NOTES_MAX:
            raise RoomError("bad_rules", _("House notes are at most %(limit)s characters."), limit=NOTES_MAX)
        # Keep line breaks; drop other control characters that could garble the panel.
        current["notes"] = "".join(ch for ch in notes if ch in "\n\t" or ch.isprintable()).strip()
    current.setdefault("clue_seconds", 120)
    current.setdefault("guess_seconds", 90)
    room.settings = {**room.settings, "codenames": current}
    room.save(update_fields=["settings"])
    bump(room)


def rotate_spymasters(*, room: Room) -> None:
    """CN-19: between games, each team's next operative (in joining order) leads."""
    game = current_game(room)
    if game is not None and not game.finished:
        raise RoomError("game_running", _("Spymasters rotate between games."))
    changed: list[Player] = []
    for team in ("red", "blue"):
        members = [p for p in room.players.all() if p.team == team and p.is_seated]
        leader = next((p for p in members if p.role == "spymaster"), None)
        operatives = [p for p in members if p.role == "operative"]
        if leader is None or not operatives:
            continue
        after = [p for p in operatives if p.joined_at > leader.joined_at] or operatives
        successor = after[0]
        leader.role, successor.role = "operative", "spymaster"
        changed += [leader, successor]
    if not changed:
        raise RoomError("nothing_to_rotate", _("No team has both a spymaster and an operative."))
    Player.objects.bulk_update(changed, ["role"])
    bump(room)


def expire_due(now: float) -> int:
    """Apply every passed deadline (CN-24), whoever is connected; the count applied."""
    return sweep_deadlines(CodenamesGame, now, _expire)


def _expire(room: Room, game: CodenamesGame, now: float) -> float | None:
    state = engine.state_from_json(game.state)
    new_state = engine.expire(state, now=now)
    if new_state is state:
        return engine.deadline(state) or 0.0
    _save(room, game, new_state)
    return None
