"""A game is a plug-in: Tally (tests/tinygame/), added by one INSTALLED_APPS line, is
dealt, played, redacted per seat and scored through real sockets like the real games."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from rooms.games import game_names, get_game
from rooms.services import room_join, room_sit
from tests.conftest import Client, act, make_session

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = {"nia": "north", "sol": "south"}


def _seat(slug: str) -> dict[str, str]:
    uids = {}
    for name, team in SEATS.items():
        uids[name] = f"uid-{slug}-{name}"
        room_join(slug=slug, uid=uids[name], name=name, game="tally")
        room_sit(slug=slug, uid=uids[name], team=team, role="player")
    return uids


@pytest.mark.asyncio
async def test_a_game_app_plays_through_a_real_socket(channel_layer: str) -> None:
    assert "tally" in game_names()
    uids = await sync_to_async(_seat)("tally-room")
    players = {
        name: Client("tally-room", await sync_to_async(make_session)(uid)) for name, uid in uids.items()
    }
    visitor = Client("tally-room")
    for client in [*players.values(), visitor]:
        first = await client.connect()
        assert first["game"] == "tally" and first["seating"]["teams"] == ["north", "south"]

    dealt = await act(players["nia"], {"action": "start_game"})
    assert dealt["type"] == "state" and dealt["play"]["turn"] == "north"
    words = dealt["play"]["words"]
    assert list(words) == ["north"]  # a team sees its own word only
    refused = await act(players["sol"], {"action": "tally", "move": 0})
    assert refused["type"] == "error" and refused["code"] == "not_your_turn"
    stale = await act(players["nia"], {"action": "tally", "move": 5})
    assert stale["code"] == "stale"

    move = 0
    for _ in range(3):
        for name in ("nia", "sol"):
            state = await act(players[name], {"action": "tally", "move": move})
            move += 1
            if state["play"]["winner"]:
                break
        if state["play"]["winner"]:
            break
    assert state["play"]["winner"] == "north" and state["scoreboard"] == {"tally": {"north": 1}}
    over = await visitor.eventually(lambda s: s["play"] is not None and s["play"]["winner"] == "north")
    assert set(over["play"]["words"]) == {"north", "south"}  # revealed at the end

    # While it ran, no frame gave a team's word to another seat or to the visitor.
    south_word = (await players["sol"].eventually(lambda s: s["play"] is not None))["play"]["words"]["south"]
    for frames, hidden in (
        (players["nia"].frames, [south_word]),
        (visitor.frames, [words["north"], south_word]),
    ):
        for raw in frames:
            doc = json.loads(raw)
            play = doc.get("play")
            if isinstance(play, dict) and not play.get("winner"):
                assert not any(word in raw for word in hidden), raw
    for client in [*players.values(), visitor]:
        await client.close()


def test_a_game_app_brings_its_pages() -> None:
    """The home page card and the rules pages come from the game's own templates."""
    home = HttpClient().get("/").content.decode()
    assert "Tally three times before the other team does." in home
    for language in ("en", "it", "pt-br", "ca", "sv"):
        page = HttpClient(HTTP_ACCEPT_LANGUAGE=language).get("/how-to-play/tally/").content.decode()
        assert f"({language}) The first team to tally" in page
    assert get_game("tally").script == "js/tinygame.js"


def test_a_game_app_is_kept_replayed_and_exported_through_its_engines_step() -> None:
    """Every game kept (issue 22) holds for a plug-in: the one game path logs its moves,
    its finished game is listed, exported and replayed by its engine's ``step``."""
    from rooms import changes, play
    from tests.tinygame import engine
    from tests.tinygame.models import TallyRecord

    uids = _seat("tally-kept")

    def as_(name: str, message: dict[str, object]) -> None:
        with changes.locked_room("tally-kept") as room:
            players = changes.room_players(room)
            play.act(room, players, next(p for p in players if p.uid == uids[name]), message)

    as_("nia", {"action": "start_game"})
    running = HttpClient().get("/r/tally-kept/games/1.json")
    assert running.status_code == 404
    for move in range(5):
        as_("nia" if move % 2 == 0 else "sol", {"action": "tally", "move": move})
    record = TallyRecord.objects.get(room__slug="tally-kept")
    assert record.finished and record.steps == 5
    client = HttpClient()
    assert "#1" in client.get("/r/tally-kept/games/").content.decode()
    data = client.get("/r/tally-kept/games/1.json").json()
    assert engine.state_to_json(_replayed(engine, data["deal"], data["moves"])) == record.state
    page = client.get("/r/tally-kept/games/1/").content.decode()
    # No replay script of its own: the steps in words (the actions' names) still step.
    assert page.count('class="replay-goto"') == 6 and "tally" in page


def _replayed(engine: object, deal: dict[str, object], moves: list[dict[str, object]]) -> object:
    state = engine.state_from_json(deal)  # type: ignore[attr-defined]
    for move in moves:
        state = engine.step(state, move)  # type: ignore[attr-defined]
    return state
