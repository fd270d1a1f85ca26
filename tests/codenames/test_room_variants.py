"""Co-operative and three-player Codenames in rooms, and the house rules (CN-24..CN-34)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from rooms.models import Room
from tests.codenames.table import act, game_state, open_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

COOP = [("rosa", "red", "spymaster"), ("rui", "red", "operative")]
THREE = [("rosa", "red", "spymaster"), ("bea", "blue", "spymaster"), ("solo", "blue", "operative")]


def own(state: dict, team: str) -> list[int]:
    return [i for i, who in enumerate(state["key"]) if who == team and state["covered_by"][i] is None]


async def test_cn30_two_players_get_a_cooperative_game_their_team_starts(channel_layer: str) -> None:
    table = await open_table("coop-start", COOP)
    reply = await act(table["rui"], {"action": "start_game"})
    assert reply["play"]["mode"] == "coop"
    state = await game_state("coop-start")
    assert state["team"] == state["starting_team"] == "red"
    assert state["key"].count("red") == 9
    await table.close()


async def test_cn31_cn33_cooperative_game_to_a_scored_win(channel_layer: str) -> None:
    table = await open_table("coop-win", COOP)
    await act(table["rui"], {"action": "start_game"})
    state = await game_state("coop-win")
    await act(table["rosa"], {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 4})
    for position in own(state, "red")[:4]:
        turn = (await game_state("coop-win"))["turn"]
        reply = await act(table["rui"], {"action": "confirm", "turn": turn, "position": position})
        assert reply["type"] == "state", reply
    state = await game_state("coop-win")
    await act(table["rui"], {"action": "end_turn", "turn": state["turn"]})
    state = await game_state("coop-win")
    assert state["phase"] == "opponent"
    # CN-31: the app never picks for them; the spymaster does.
    reply = await act(
        table["rui"], {"action": "opponent_cover", "turn": state["turn"], "position": own(state, "blue")[0]}
    )
    assert reply["type"] == "error"
    reply = await act(
        table["rosa"], {"action": "opponent_cover", "turn": state["turn"], "position": own(state, "blue")[0]}
    )
    assert reply["type"] == "state" and reply["play"]["phase"] == "clue"
    state = await game_state("coop-win")
    await act(table["rosa"], {"action": "give_clue", "turn": state["turn"], "word": "qzy", "number": 5})
    for position in own(state, "red"):
        turn = (await game_state("coop-win"))["turn"]
        reply = await act(table["rui"], {"action": "confirm", "turn": turn, "position": position})
    play = reply["play"]
    assert play["phase"] == "over" and play["winner"] == "red"
    assert play["score"] == 7 and play["rating"] == "Mission impossible."
    room = await sync_to_async(Room.objects.get)(slug="coop-win")
    assert room.scoreboard["codenames"]["coop_best"] == 7
    await table.close()


async def test_cn34_the_lone_operative_guesses_for_the_team_on_turn(channel_layer: str) -> None:
    table = await open_table("three-players", THREE)
    reply = await act(table["solo"], {"action": "start_game"})
    assert reply["play"]["mode"] == "three"
    for _ in range(2):
        state = await game_state("three-players")
        team = state["team"]
        spymaster = "rosa" if team == "red" else "bea"
        await act(
            table[spymaster], {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 1}
        )
        state = await game_state("three-players")
        reply = await act(
            table["solo"], {"action": "confirm", "turn": state["turn"], "position": own(state, team)[0]}
        )
        assert reply["type"] == "state", reply
        state = await game_state("three-players")
        await act(table["solo"], {"action": "end_turn", "turn": state["turn"]})
        assert (await game_state("three-players"))["team"] != team
    await table.close()


async def test_cn25_cn26_house_rules_apply_from_the_next_deal(channel_layer: str) -> None:
    table = await open_table(
        "house-rules", [*COOP, ("bea", "blue", "spymaster"), ("bo", "blue", "operative")]
    )
    reply = await act(
        table["rui"],
        {"action": "house_rules", "multi_word_clues": True, "timer": True, "clue_seconds": 60,
         "guess_seconds": 45, "notes": "Acronyms are fine.\nNo rhymes."},
    )  # fmt: skip
    assert reply["settings"]["codenames"]["notes"] == "Acronyms are fine.\nNo rhymes."
    await act(table["rui"], {"action": "start_game"})
    state = await game_state("house-rules")
    assert state["rules"]["multi_word_clues"] is True and state["rules"]["guess_seconds"] == 45
    spymaster = "rosa" if state["team"] == "red" else "bea"
    reply = await act(
        table[spymaster], {"action": "give_clue", "turn": state["turn"], "word": "new york", "number": 1}
    )
    assert reply["type"] == "state" and reply["play"]["clue"]["word"] == "new york"
    await table.close()


@pytest.mark.parametrize(
    "options",
    [
        {"timer": "yes"},
        {"clue_seconds": 5},
        {"guess_seconds": 301},
        {"guess_seconds": True},
        {"notes": "x" * 501},
        {"colour": "red"},
    ],
)
async def test_cn24_bad_house_rules_are_refused(channel_layer: str, options: dict) -> None:
    table = await open_table("house-bad", COOP)
    reply = await act(table["rui"], {"action": "house_rules", **options})
    assert reply["type"] == "error" and reply["code"] == "bad_rules"
    room = await sync_to_async(Room.objects.get)(slug="house-bad")
    assert room.settings == {}
    await table.close()


async def test_spectators_cannot_change_house_rules(channel_layer: str) -> None:
    table = await open_table("house-watch", [*COOP, ("sam", "", "spectator")])
    reply = await act(table["sam"], {"action": "house_rules", "timer": True})
    assert reply["type"] == "error" and reply["code"] == "not_seated"
    await table.close()
