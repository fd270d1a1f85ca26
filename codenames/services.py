"""Codenames' own room rules: which variant the seats allow, dealing, house rules.

Applying moves, deadlines, saving and scoring go through the one game path of
``rooms.play``; this module holds only what is Codenames' own. The callers hold the
room's row lock; every move carries the engine's turn counter, so a double tap or a
stale screen is refused, never applied twice.
"""

from __future__ import annotations

import dataclasses
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from codenames import engine
from codenames.messages import ENGINE_MESSAGES
from codenames.models import CodenamesGame
from rooms.errors import RoomError, engine_errors
from rooms.models import Player, Room
from rooms.records import latest_record
from rooms.words import fresh_words, load_pack, room_word_list

WORDS_DIR = str(Path(__file__).resolve().parent / "words")
BOARD_SIZE = 25


def rule_errors() -> AbstractContextManager[None]:
    return engine_errors(engine.RuleError, ENGINE_MESSAGES)


def current_game(room: Room) -> CodenamesGame | None:
    return latest_record(room, CodenamesGame)


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


def seats_ready(players: list[Player]) -> tuple[engine.Mode, bool]:
    """The mode a deal without one would use now, and whether the seats allow it."""
    seated = [p for p in players if p.is_seated]
    mode = infer_mode(seated)
    try:
        check_seats(seated, mode)
    except RoomError:
        return mode, False
    return mode, True


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


def deal(room: Room, players: list[Player], *, mode: str | None, seed: int, recent: list[Any],
         now: float) -> tuple[engine.State, dict[str, Any]]:  # fmt: skip
    """A new game (CN-3..CN-5, CN-19) in the mode asked for or the one the seats allow."""
    seated = [p for p in players if p.is_seated]
    try:
        chosen = engine.Mode(mode) if mode else infer_mode(seated)
    except ValueError:
        raise RoomError("bad_mode", _("There is no such game mode.")) from None
    coop_team = check_seats(seated, chosen)
    pack = room_word_list(
        room.settings.get("words", {}).get("codenames", {}), load_pack(WORDS_DIR, room.language)
    )
    words = fresh_words(pack, [state["words"] for state in recent], BOARD_SIZE)
    with rule_errors():
        rules = room_rules(room, chosen)
        if coop_team is not None:
            rules = dataclasses.replace(rules, coop_team=coop_team)
        state = engine.new_game(words=words, seed=seed, rules=rules, now=now)
    return state, {"key_seen_by": [p.public_id for p in seated if p.role == "spymaster"]}


def actor_for(player: Player, state: engine.State) -> engine.Actor:
    if player.role == "spymaster":
        return engine.Actor(player.public_id, engine.Team(player.team), engine.Role.SPYMASTER)
    if player.role == "operative":
        team = None if state.rules.mode is engine.Mode.THREE else engine.Team(player.team)
        return engine.Actor(player.public_id, team, engine.Role.OPERATIVE)
    raise RoomError("not_seated", _("Take a seat to play."))


def apply(state: engine.State, player: Player, message: dict[str, Any], now: float) -> engine.State:
    with rule_errors():
        action = engine.action_from_json(message)
        return engine.apply(state, actor_for(player, state), action, now=now)


def score(board: dict[str, Any], mode: engine.Mode, result: engine.Outcome) -> dict[str, Any]:
    """The room's tally: games won per team; co-operative games played and the best score."""
    if mode is engine.Mode.COOP:
        board["coop_played"] = board.get("coop_played", 0) + 1
        if result.score is not None:
            board["coop_best"] = max(board.get("coop_best", 0), result.score)
    elif result.winner is not None:
        board[result.winner.value] = board.get(result.winner.value, 0) + 1
    return board


TIMER_RANGE = (30, 300)
TIMER_STEP = 10
DEFAULT_SECONDS = {"clue_seconds": 120, "guess_seconds": 90}
NOTES_MAX = 500


def set_house_rules(room: Room, options: dict[str, Any]) -> None:
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
            raise RoomError(
                "bad_rules",
                ngettext_lazy(
                    "House notes are at most %(limit)s character.",
                    "House notes are at most %(limit)s characters.",
                    NOTES_MAX,
                ),
                limit=NOTES_MAX,
            )
        # Keep line breaks; drop other control characters that could garble the panel.
        current["notes"] = "".join(ch for ch in notes if ch in "\n\t" or ch.isprintable()).strip()
    for name, seconds in DEFAULT_SECONDS.items():
        current.setdefault(name, seconds)
    room.settings = {**room.settings, "codenames": current}


def rotate_spymasters(room: Room, players: list[Player], player: Player) -> None:
    """CN-19: between games, each team's next operative (in joining order) leads."""
    game = current_game(room)
    if game is not None and not game.finished:
        raise RoomError("game_running", _("Spymasters rotate between games."))
    changed: list[Player] = []
    for team in ("red", "blue"):
        members = [p for p in players if p.team == team and p.is_seated]
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
