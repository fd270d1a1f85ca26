"""Bots in rooms: seats, whole games on the server's clock, secrecy and restarts."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from bots import play as bot_play
from bots import seats
from codenames.models import CodenamesGame
from decrypto.models import DecryptoGame
from rooms import changes, play, services
from rooms.errors import RoomError
from rooms.models import Player, Room

pytestmark = pytest.mark.django_db(transaction=True)
LANGUAGES = ["en", "it", "pt-br", "ca", "sv"]
# Seats per mode (the room deals the mode its seats make, as for people).
MODES = {
    "standard": [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")],
    "coop": [("red", "spymaster"), ("red", "operative")],
    "three": [("red", "spymaster"), ("blue", "spymaster"), ("red", "operative")],
}


def _room(slug: str, language: str, bots: list[tuple[str, str]]) -> None:
    services.room_join(slug=slug, uid="host", name="Host", game="codenames", language=language, seat="red")
    for team, role in bots:
        if (team, role) == ("red", "operative"):
            continue  # the host holds it until the deal
        seats.add_bot(slug=slug, uid="host", team=team, role=role)


def _deal_and_leave(slug: str, bots: list[tuple[str, str]]) -> None:
    with changes.locked_room(slug) as room:
        host = Player.objects.get(room=room, uid="host")
        play.act(room, changes.room_players(room), host, {"action": "start_game"})
    # The host steps out to watch; a bot takes the operative's seat if the mode has one.
    services.room_sit(slug=slug, uid="host", team="", role="spectator")
    if ("red", "operative") in bots:
        seats.add_bot(slug=slug, uid="host", team="red", role="operative")


def _run(slug: str, record: type[Any] = CodenamesGame, limit: int = 600) -> Any:
    """Every bot move until none is left to make; the room's game record then."""
    later = time.time() + 3600  # every bot's think time has passed
    for _ in range(limit):
        if bot_play.step(later) == 0:
            break
    return record.objects.get(room__slug=slug)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mode", list(MODES))
def test_a_bot_game_runs_to_the_end(mode: str, language: str, caplog: Any) -> None:
    slug = f"bots-{mode}-{language}"
    _room(slug, language, MODES[mode])
    _deal_and_leave(slug, MODES[mode])
    with caplog.at_level(logging.WARNING, logger="bots.play"):
        record = _run(slug)
    assert record.finished, record.state["phase"]
    assert record.state["rules"]["mode"] == mode
    assert not [r for r in caplog.records if "refused" in r.getMessage()]
    clues = record.state["log"]
    assert clues and set(record.bot_notes) == {str(i) for i in range(len(clues))}
    assert all("→" in note for note in record.bot_notes.values())


def test_bots_see_only_their_seats_view_and_explain_only_after_the_game(monkeypatch: Any) -> None:
    seen: list[tuple[str, dict[str, Any]]] = []
    decide = bot_play.codenames.decide

    def spy(view: dict[str, Any], me: str, team: str, role: str, table: Any, **options: Any) -> Any:
        seen.append((role, view))
        return decide(view, me, team, role, table, **options)

    monkeypatch.setattr(bot_play.codenames, "decide", spy)
    bots = MODES["standard"]
    _room("bots-secrecy", "en", bots)
    _deal_and_leave("bots-secrecy", bots)
    _run("bots-secrecy")
    operative_views = [view for role, view in seen if role == "operative" and view["phase"] != "over"]
    assert operative_views
    for view in operative_views:
        # CN-S1: an operative bot never receives the identity of a card still in play.
        assert all(card["identity"] is None for card in view["cards"] if not card["covered"])
        assert view["explanations"] == {}
    spymaster_views = [view for role, view in seen if role == "spymaster"]
    assert any(card["identity"] for view in spymaster_views for card in view["cards"])
    game, record = play.current_record(Room.objects.get(slug="bots-secrecy")), None
    record = game
    assert record is not None and record.finished
    from codenames.game import GAME

    over = GAME.view(record, GAME.load(record.state), "table")
    assert over["explanations"] == record.bot_notes != {}


def test_a_bot_waits_its_think_time_and_a_restart_forgets_nothing() -> None:
    bots = MODES["standard"]
    _room("bots-think", "en", bots)
    _deal_and_leave("bots-think", bots)
    room = Room.objects.get(slug="bots-think")
    changed = room.updated_at.timestamp()
    # Mid-think: nothing yet. Nothing lives in memory: the "restart" is the next call.
    assert bot_play.step(changed + 0.1) == 0
    assert bot_play.step(changed + bot_play.think_seconds() + 0.1) == 1
    record = CodenamesGame.objects.get(room=room)
    assert len(record.state["log"]) == 1  # the first spymaster bot gave its clue


def test_bot_seats_follow_the_seat_rules() -> None:
    services.room_join(slug="bots-seats", uid="ada", name="Ada", game="codenames", seat="red")
    seats.add_bot(slug="bots-seats", uid="ada", team="red", role="spymaster")
    with pytest.raises(RoomError) as taken:
        seats.add_bot(slug="bots-seats", uid="ada", team="red", role="spymaster")
    assert taken.value.code == "seat_taken"
    with pytest.raises(RoomError) as nowhere:
        seats.add_bot(slug="bots-seats", uid="ada", team="green", role="operative")
    assert nowhere.value.code == "bad_seat"
    with pytest.raises(RoomError) as stranger:
        seats.add_bot(slug="bots-seats", uid="nobody", team="blue", role="operative")
    assert stranger.value.code == "not_joined"
    bot = Player.objects.get(bot=True)
    assert (bot.team, bot.role, bot.name) == ("red", "spymaster", "Bot 1")
    assert Player.objects.filter(room__slug="bots-seats").count() == 2
    seats.remove_bot(slug="bots-seats", uid="ada", bot=bot.public_id)
    assert not Player.objects.filter(bot=True).exists()
    with pytest.raises(RoomError) as gone:
        seats.remove_bot(slug="bots-seats", uid="ada", bot=bot.public_id)
    assert gone.value.code == "no_such_bot"


def _operative_moves(monkeypatch: Any) -> list[tuple[str, str, int | None]]:
    """Every bot operative's move as it reaches the room: (bot, action, card)."""
    moves: list[tuple[str, str, int | None]] = []
    act = play.act

    def recording(
        room: Room, players: list[Player], player: Player, message: dict[str, Any], **kw: Any
    ) -> Any:
        if player.bot and player.role == "operative":
            moves.append((player.public_id, message["action"], message.get("position")))
        return act(room, players, player, message, **kw)

    monkeypatch.setattr(play, "act", recording)
    return moves


def _think_per_card(moves: list[tuple[str, str, int | None]]) -> float:
    """The bots' think time per covered card: one per bot move (BOT_THINK_SECONDS each)."""
    cards = sum(1 for _bot, action, _card in moves if action == "confirm")
    touches = sum(1 for _bot, action, _card in moves if action in ("propose", "confirm"))
    return touches / cards * bot_play.think_seconds()


@pytest.mark.parametrize("mode", ["standard", "three"])
def test_cn16_a_bot_operative_alone_confirms_without_the_propose_pause(mode: str, monkeypatch: Any) -> None:
    moves = _operative_moves(monkeypatch)
    _room(f"bots-alone-{mode}", "en", MODES[mode])
    _deal_and_leave(f"bots-alone-{mode}", MODES[mode])
    assert _run(f"bots-alone-{mode}").finished
    assert moves and not [m for m in moves if m[1] == "propose"]
    per_card = _think_per_card(moves)
    print(
        f"\n{mode}, no person guessing: {per_card:.1f} s of think time per card,"
        f" {3 * per_card:.1f} s per 3 cards"
    )
    assert per_card == bot_play.think_seconds()


def test_cn16_a_bot_operative_proposes_first_when_a_person_guesses_with_it(monkeypatch: Any) -> None:
    moves = _operative_moves(monkeypatch)
    slug = "bots-shared"
    services.room_join(slug=slug, uid="ada", name="Ada", game="codenames", language="en", seat="red")
    for team, role in MODES["standard"]:
        seats.add_bot(slug=slug, uid="ada", team=team, role=role)
    with changes.locked_room(slug) as room:
        ada = Player.objects.get(room=room, uid="ada")
        play.act(room, changes.room_players(room), ada, {"action": "start_game"})
    # Ada never touches a card: her bot teammate still plays, one proposal before each card.
    assert _run(slug).finished
    red_bot = Player.objects.get(room__slug=slug, bot=True, team="red", role="operative").public_id
    red = [(action, card) for bot, action, card in moves if bot == red_bot]
    blue = [m for m in moves if m[0] != red_bot]
    confirmed = [i for i, (action, _card) in enumerate(red) if action == "confirm"]
    assert confirmed and all(i > 0 and red[i - 1] == ("propose", red[i][1]) for i in confirmed)
    assert blue and not [m for m in blue if m[1] == "propose"]  # blue's bot guesses alone
    print(
        f"\nwith a person guessing: {_think_per_card([m for m in moves if m[0] == red_bot]):.1f} s"
        f" of think time per card; alone: {_think_per_card(blue):.1f} s"
    )


DECRYPTO_MODES = {
    "standard": ["white", "white", "black", "black"],
    "interceptor": ["white", "white", "black"],
}


def _decrypto_room(slug: str, language: str, teams: list[str]) -> None:
    """A Decrypto room whose every seat is a bot, dealt by one of them (a person watches)."""
    services.room_join(slug=slug, uid="host", name="Host", game="decrypto", language=language, seat="watch")
    for team in teams:
        seats.add_bot(slug=slug, uid="host", team=team, role="player")
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        dealer = next(p for p in players if p.bot)
        play.act(room, players, dealer, {"action": "start_game"})


def _run_decrypto(slug: str) -> DecryptoGame:
    return _run(slug, DecryptoGame)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mode", list(DECRYPTO_MODES))
def test_a_decrypto_bot_game_runs_to_the_end(mode: str, language: str, caplog: Any) -> None:
    slug = f"dc-bots-{mode}-{language}"
    _decrypto_room(slug, language, DECRYPTO_MODES[mode])
    with caplog.at_level(logging.WARNING, logger="bots.play"):
        record = _run_decrypto(slug)
    assert record.finished, record.state["phase"]
    assert record.state["rules"]["mode"] == mode
    assert not [r for r in caplog.records if "refused" in r.getMessage()]
    history = record.state["history"]
    assert history and all(all(clue for clue in row["clues"]) for row in history)


def test_decrypto_bots_see_only_their_seats_view(monkeypatch: Any) -> None:
    seen: list[dict[str, Any]] = []
    decide = bot_play.decrypto.decide

    def spy(view: dict[str, Any], table: Any, *, bots: Any) -> Any:
        seen.append(view)
        return decide(view, table, bots=bots)

    monkeypatch.setattr(bot_play.decrypto, "decide", spy)
    _decrypto_room("dc-bots-secrecy", "en", DECRYPTO_MODES["standard"])
    record = _run_decrypto("dc-bots-secrecy")
    assert record.finished and seen
    for view in seen:
        seat = view["seat"]
        other = "black" if seat["team"] == "white" else "white"
        assert view["outcome"] is None  # a finished game asks nothing of a bot
        assert view["teams"][other]["keywords"] is None and view["teams"][other]["notes"] is None
        assert view["teams"][seat["team"]]["keywords"]
        # The code reaches its Encryptor only (DC-S1).
        assert (view["encryptor"] is not None) == seat["is_encryptor"]
        if view["current"] is not None and view["current"]["team"] != seat["team"]:
            assert "code" not in view["current"]


def _as_ada(slug: str, message: dict[str, Any]) -> None:
    with changes.locked_room(slug) as room:
        players = changes.room_players(room)
        play.act(room, players, next(p for p in players if p.uid == "ada"), message)


def test_a_decrypto_bot_locks_what_it_alone_guesses_and_only_suggests_what_a_person_shares() -> None:
    slug = "dc-bots-mixed"
    services.room_join(slug=slug, uid="ada", name="Ada", game="decrypto", language="en", seat="white")
    for team in ("white", "black", "black"):
        seats.add_bot(slug=slug, uid="ada", team=team, role="player")
    _as_ada(slug, {"action": "start_game"})
    # Round 1: Ada joined first, so she encrypts (DC-5); the bots wait for her clues.
    _run_decrypto(slug)
    state = DecryptoGame.objects.get(room__slug=slug).state
    assert state["phase"] == "clues" and state["turns"]["black"]["submitted"]
    assert not state["turns"]["white"]["submitted"]
    _as_ada(
        slug, {"action": "submit_clues", "round": 1, "phase": "clues", "clues": ["alpha", "bravo", "delta"]}
    )
    # Her bot teammate alone deciphers her code, and locks it; round 2: the bot encrypts,
    # Ada alone deciphers, and the bots wait for her.
    _run_decrypto(slug)
    state = DecryptoGame.objects.get(room__slug=slug).state
    assert state["round"] == 2 and state["phase"] == "guess" and state["guessing_for"] == "white"
    assert state["locked"]["white"] is None and state["locked"]["black"] is not None
    _as_ada(
        slug,
        {"action": "lock_guess", "round": 2, "phase": "guess", "guessing_for": "white", "code": [1, 2, 3]},
    )
    # Black's code: Ada and her bot share the interception: the bot suggests a guess beside
    # the team's draft, which stays Ada's to write and lock (issue 29).
    _run_decrypto(slug)
    state = DecryptoGame.objects.get(room__slug=slug).state
    assert state["guessing_for"] == "black" and state["locked"]["white"] is None
    assert state["guesses"]["white"] == [None, None, None]
    [(bot, code)] = state["suggestions"]["white"]
    assert bot in state["bots"] and all(digit in (1, 2, 3, 4) for digit in code) and len(set(code)) == 3


def _ada_and_three_bots(slug: str) -> None:
    """Ada and a bot against two bots; Ada joined first, so she encrypts in round 1 (DC-5)."""
    services.room_join(slug=slug, uid="ada", name="Ada", game="decrypto", language="en", seat="white")
    for team in ("white", "black", "black"):
        seats.add_bot(slug=slug, uid="ada", team=team, role="player")
    _as_ada(slug, {"action": "start_game"})


def test_dc8_bot_submission_starts_no_timer() -> None:
    slug = "dc8-bot-first"
    _ada_and_three_bots(slug)
    _run_decrypto(slug)  # Black's bot Encryptor submits within its think time
    record = DecryptoGame.objects.get(room__slug=slug)
    assert record.state["turns"]["black"]["submitted"] and not record.state["turns"]["white"]["submitted"]
    assert record.state["deadline"] is None and record.deadline is None  # Ada is not rushed
    assert sorted(record.state["bots"]) == sorted(
        p.public_id for p in Player.objects.filter(room__slug=slug, bot=True)
    )
    _as_ada(
        slug, {"action": "submit_clues", "round": 1, "phase": "clues", "clues": ["alpha", "bravo", "delta"]}
    )
    assert DecryptoGame.objects.get(room__slug=slug).state["phase"] == "guess"


def test_dc8_a_persons_submission_starts_the_bot_teams_timer() -> None:
    slug = "dc8-person-first"
    _ada_and_three_bots(slug)
    before = time.time()
    _as_ada(
        slug, {"action": "submit_clues", "round": 1, "phase": "clues", "clues": ["alpha", "bravo", "delta"]}
    )
    record = DecryptoGame.objects.get(room__slug=slug)
    due = record.state["deadline"]
    assert due is not None and record.deadline is not None
    assert before + 30 <= due <= time.time() + 30  # the room's default timer (DC-8)
    _run_decrypto(slug)  # the bot beats its deadline
    assert DecryptoGame.objects.get(room__slug=slug).state["phase"] == "guess"


def test_bots_play_on_the_servers_clock_across_a_restart(redis_url: str) -> None:
    """No page open: a real server's clock makes the bots' moves in both games, and after a
    restart (mid-think: nothing held in memory) the next server carries on."""
    from tests.conftest import DaphneServer

    bots = MODES["standard"]
    _room("bots-clock", "en", bots)
    _deal_and_leave("bots-clock", bots)
    _decrypto_room("dc-bots-clock", "en", DECRYPTO_MODES["standard"])

    def moves() -> tuple[int, int]:
        record = CodenamesGame.objects.get(room__slug="bots-clock")
        codenames = len(record.state["log"]) * 100 + sum(by is not None for by in record.state["covered_by"])
        state = DecryptoGame.objects.get(room__slug="dc-bots-clock").state
        turns = [t for t in state["turns"].values() if t is not None]
        decrypto = state["round"] * 100 + len(state["history"]) * 10 + sum(t["submitted"] for t in turns)
        return codenames, decrypto + sum(code is not None for code in state["locked"].values())

    env = {"GAME_CLOCK": "1", "BOT_THINK_SECONDS": "0.2"}
    for _restart in range(2):
        before = moves()
        server = DaphneServer(redis_url, extra_env=env).start()
        try:
            for _ in range(200):  # the clock ticks every second: poll up to ~20 s
                now = moves()
                if now[0] > before[0] and now[1] > before[1]:
                    break
                time.sleep(0.1)
        finally:
            server.stop()
        after = moves()
        assert after[0] > before[0], "no Codenames bot moved on this server's clock"
        assert after[1] > before[1], "no Decrypto bot moved on this server's clock"


def test_a_bot_decides_outside_the_rooms_lock_and_acts_only_on_what_it_saw(monkeypatch: Any) -> None:
    """A bot's thinking (10-20 ms for a clue) never holds the room's lock, and a room that
    changed while it thought is not moved on from a stale view."""
    from django.db import connection

    bots = MODES["standard"]
    _room("bots-think", "en", bots)
    _deal_and_leave("bots-think", bots)
    decide = bot_play.codenames.decide
    in_transaction: list[bool] = []

    def thinking(view: dict[str, Any], me: str, team: str, role: str, table: Any, **options: Any) -> Any:
        in_transaction.append(connection.in_atomic_block)
        return decide(view, me, team, role, table, **options)

    monkeypatch.setattr(bot_play.codenames, "decide", thinking)
    later = time.time() + 3600
    before = Room.objects.get(slug="bots-think").version
    assert bot_play.step(later) == 1  # the spymaster bot's clue
    assert in_transaction and not any(in_transaction)
    assert Room.objects.get(slug="bots-think").version == before + 1

    # While the next bot thinks, a person changes the room: the bot's move is dropped.
    def interrupted(view: dict[str, Any], me: str, team: str, role: str, table: Any, **options: Any) -> Any:
        services.room_rename(slug="bots-think", uid="host", name="Host Again")
        return decide(view, me, team, role, table, **options)

    monkeypatch.setattr(bot_play.codenames, "decide", interrupted)
    state_before = CodenamesGame.objects.get(room__slug="bots-think").state
    assert bot_play.step(later) == 0
    assert CodenamesGame.objects.get(room__slug="bots-think").state == state_before
    monkeypatch.setattr(bot_play.codenames, "decide", decide)
    assert bot_play.step(later) == 1  # and it thinks again on the next pass
