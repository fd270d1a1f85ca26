"""Decrypto through the real consumer: whole games, the variants, the end, a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from decrypto import engine, services
from rooms.models import Room
from rooms.state import room_state
from tests.decrypto.table import (
    FOUR,
    THREE,
    Secrets,
    Table,
    act,
    exposed,
    game_state,
    lock,
    open_table,
    page_bytes,
    play_round,
    room_version,
    saved_game,
    secrets_of,
    submit_clues,
    wait_all,
    write_pack,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _token_pack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(services, "WORDS_DIR", write_pack(tmp_path))


async def deal(table: Table, dealer: str = "amy", **extra: Any) -> dict[str, Any]:
    reply = await act(table[dealer], {"action": "start_game", **extra})
    assert reply["type"] == "state", reply
    return await game_state(table.slug)


async def scoreboard(slug: str) -> dict[str, Any]:
    return await sync_to_async(lambda: Room.objects.get(slug=slug).scoreboard)()


async def test_whole_standard_game_to_two_interceptions(channel_layer: str) -> None:
    """Two teams of two play three rounds; White intercepts twice and wins (DC-20)."""
    table = await open_table("dc-whole", FOUR)
    state = await deal(table)
    secrets = Secrets()
    secrets.record(1, state)
    assert state["rules"] == {"mode": "standard", "timer_seconds": 30, "max_rounds": 8}
    # Rotation follows the joining order (DC-5): ann then amy, bob then ben.
    assert [state["turns"][t]["encryptor"] for t in ("white", "black")] == [table.id("ann"), table.id("bob")]

    state = await play_round(table)  # round 1: both decipher, nobody intercepts (DC-11)
    secrets.record(1, state)
    assert (state["round"], [state["turns"][t]["encryptor"] for t in ("white", "black")]) == (
        2,
        [table.id("amy"), table.id("ben")],
    )
    state = await play_round(table, ok={"black": False}, intercepts={"white": True})
    secrets.record(1, state)
    assert state["teams"]["white"]["interceptions"] == 1
    assert state["teams"]["black"]["miscommunications"] == 1
    state = await play_round(table, intercepts={"white": True})
    assert state["phase"] == "over"
    assert state["result"] == {"winners": ["white"], "reason": "two_interceptions"}

    await wait_all(table, lambda p: p["phase"] == "over")
    end = table["sam"].last_state
    assert end is not None
    play = end["play"]
    assert play["outcome"] == {"winners": ["white"], "reason": "two_interceptions"}
    # DC-S1: at the end both screens are shown to everyone, spectators included.
    assert play["teams"]["white"]["keywords"] == state["teams"]["white"]["keywords"]
    assert play["teams"]["black"]["keywords"] == state["teams"]["black"]["keywords"]
    # DC-12 / DC-30: six reveals, each in the rulebook's order, and the sheets.
    assert [(r["round"], r["team"]) for r in play["history"]] == [
        (1, "white"),
        (1, "black"),
        (2, "white"),
        (2, "black"),
        (3, "white"),
        (3, "black"),
    ]
    assert list(play["history"][3])[4:7] == ["interception", "decipher", "code"]
    assert play["history"][3]["tokens"] == [
        {"team": "white", "kind": "interception"},
        {"team": "black", "kind": "miscommunication"},
    ]
    assert len(play["sheets"]["black"]["rows"]) == 3
    assert await scoreboard(table.slug) == {"decrypto": {"white": 1}}
    assert (await sync_to_async(saved_game)(table.slug)).finished

    # Nothing of a team's reached the other team or the spectator before the end.
    for name, team in (("bob", "white"), ("ben", "white"), ("ann", "black"), ("amy", "black")):
        assert secrets_of(team, exposed(table[name].frames, secrets)) == set(), name
    found = exposed(table["sam"].frames, secrets)
    assert found == set(), found
    await table.close()


async def test_next_game_deals_fresh_keywords_and_abandon_needs_confirm(channel_layer: str) -> None:
    table = await open_table("dc-next", FOUR)
    first = await deal(table)
    reply = await act(table["bob"], {"action": "start_game"})
    assert reply["type"] == "error" and reply["code"] == "confirm_abandon"
    reply = await act(table["bob"], {"action": "start_game", "confirm": True})
    assert reply["type"] == "state" and reply["play"]["number"] == 2
    second = await game_state(table.slug)
    first_words, second_words = (
        s["teams"]["white"]["keywords"] + s["teams"]["black"]["keywords"] for s in (first, second)
    )
    assert len(set(first_words)) == len(set(second_words)) == 8
    assert not set(first_words) & set(second_words), "DC-2: no keyword comes back while the pack lasts"
    # The abandoned game is closed, so the clock stops looking at it.
    abandoned = await sync_to_async(lambda: Room.objects.get(slug="dc-next").decrypto_games.get(number=1))()
    assert abandoned.finished and abandoned.deadline is None
    assert await scoreboard(table.slug) == {}
    await table.close()


async def test_seats_are_checked_when_dealing(channel_layer: str) -> None:
    table = await open_table("dc-seats-deal", [("ann", "white"), ("amy", "white"), ("bob", "black")])
    reply = await act(table["ann"], {"action": "start_game", "mode": "standard"})
    assert reply["type"] == "error" and reply["code"] == "bad_team_size"
    reply = await act(table["ann"], {"action": "start_game", "mode": "chess"})
    assert reply["type"] == "error" and reply["code"] == "bad_mode"
    await table.close()
    table = await open_table("dc-lone", [("ann", "white"), ("amy", "white"), ("sam", "")])
    reply = await act(table["ann"], {"action": "start_game"})
    assert reply["type"] == "error" and reply["code"] == "bad_team_size", reply
    reply = await act(table["sam"], {"action": "start_game"})
    assert reply["type"] == "error" and reply["code"] == "not_seated"
    await table.close()


async def test_dc40_interceptor_game_to_the_end_keeps_the_team_secret(channel_layer: str) -> None:
    """Three seated: the lone player intercepts (DC-40..DC-43), and never sees a keyword or code."""
    table = await open_table("dc-three", THREE)
    before = table["ivy"].last_state
    assert before is not None and before["play"] is None
    assert len([p for p in before["players"] if p["role"] == "player"]) == 3  # the lobby offers it
    state = await deal(table, dealer="ivy")
    secrets = Secrets()
    secrets.record(1, state)
    assert state["rules"]["mode"] == "interceptor"
    # The team of two sits at the room's black seats; the engine calls it "white".
    assert state["teams"]["white"]["order"] == [table.id("ann"), table.id("amy")]
    assert state["teams"]["black"]["order"] == [table.id("ivy")]
    assert state["teams"]["black"]["keywords"] == [] and state["turns"]["black"] is None
    ivy = await table["ivy"].eventually(lambda s: s["play"] is not None)
    assert ivy["play"]["seat"]["role"] == "interceptor"
    pages = [await page_bytes(table.slug, table.seats["ivy"].uid)]
    assert ivy["play"]["deadline"] is None and ivy["play"]["timer_seconds"] is None  # DC-44

    state = await play_round(table, ok={"white": False})  # DC-42: a misread is Ivy's token
    secrets.record(1, state)
    assert state["teams"]["black"]["interceptions"] == 1
    assert state["teams"]["white"]["miscommunications"] == 0
    assert state["turns"]["white"]["encryptor"] == table.id("amy")  # DC-41: alternating
    await submit_clues(table, "white")
    pages.append(await page_bytes(table.slug, table.seats["ivy"].uid))  # mid-round, clues shown
    state = await game_state(table.slug)
    code = state["turns"]["white"]["code"]
    await lock(table, "black", code)
    await lock(table, "white", code)
    state = await game_state(table.slug)
    assert state["result"] == {"winners": ["black"], "reason": "interceptor_won"}
    await wait_all(table, lambda p: p["phase"] == "over")
    assert await scoreboard(table.slug) == {"decrypto": {"interceptor": 1}}

    found = exposed(table["ivy"].frames + pages, secrets)
    assert found == set(), found
    assert all(
        f["play"]["encryptor"] is None for f in map(_json, table["ivy"].frames) if f.get("play") is not None
    )
    # Positive control: the team's own captures do show its keywords and codes.
    assert "keyword:white" in exposed(table["amy"].frames, secrets)
    assert "code:1:white" in exposed(table["ann"].frames, secrets)
    await table.close()


async def test_dc23_dc25_tie_goes_to_keyword_guessing_and_judging(channel_layer: str) -> None:
    """Both teams intercept twice in the same round (DC-23), equal points (DC-24): keywords (DC-25)."""
    table = await open_table("dc-tiebreak", FOUR)
    await deal(table)
    await play_round(table)
    await play_round(table, intercepts={"white": True, "black": True})
    state = await play_round(table, intercepts={"white": True, "black": True})
    assert state["phase"] == "tiebreak"
    stamp = {"round": state["round"], "phase": "tiebreak"}
    white_words, black_words = (state["teams"][t]["keywords"] for t in ("white", "black"))

    # White guesses two of Black's keywords; Black one, plus a near miss White may accept.
    white_guess = [black_words[0].upper(), black_words[1], "nope", ""]
    black_guess = [white_words[0], white_words[1] + "s", "nope", "nah"]
    reply = await act(table["ann"], {"action": "tiebreak_guess", **stamp, "words": white_guess})
    assert reply["play"]["tiebreak"]["guesses"]["white"] == white_guess
    bob = await table["bob"].eventually(
        lambda s: (s["play"]["tiebreak"] or {}).get("submitted", {}).get("white")
    )
    assert bob["play"]["tiebreak"]["guesses"]["white"] is None, "not before both teams sent theirs"
    reply = await act(table["ben"], {"action": "tiebreak_guess", **stamp, "words": black_guess})
    assert reply["play"]["phase"] == "judge"
    judge = {"round": state["round"], "phase": "judge"}
    amy = await table["amy"].eventually(lambda s: s["play"]["phase"] == "judge")
    # White judges Black's guesses of White's keywords: it sees which ones match.
    assert amy["play"]["tiebreak"]["matches"]["black"] == [True, False, False, False]
    assert amy["play"]["tiebreak"]["matches"]["white"] is None
    await act(table["amy"], {"action": "judge", **judge, "accept": [2]})
    reply = await act(table["bob"], {"action": "judge", **judge, "accept": []})
    play = reply["play"]
    assert play["phase"] == "over"
    assert play["tiebreak"]["scores"] == {"white": 2, "black": 2}
    assert play["outcome"] == {"winners": ["black", "white"], "reason": "shared_victory"}  # DC-26
    assert await scoreboard(table.slug) == {"decrypto": {"shared": 1}}
    await table.close()


async def test_restart_rebuilds_the_same_view_from_the_database(channel_layer: str) -> None:
    """Mid-round, with a timer running and drafts saved: reloading the row gives the same views."""
    table = await open_table("dc-restart", FOUR)
    await deal(table)
    await play_round(table)
    state = await game_state(table.slug)
    reply = await act(
        table["ben"], {"action": "save_draft", "round": 2, "phase": "clues", "clues": ["half", "", ""]}
    )
    assert reply["type"] == "state"
    await submit_clues(table, "white")
    await act(table["bob"], {"action": "set_note", "position": 2, "text": "Mexico?"})

    def views() -> dict[str, Any]:
        # A fresh read, as after a restart: the same snapshot path a new socket takes.
        room = Room.objects.get(slug="dc-restart")
        seen = {p.name: room_state(slug=room.slug, uid=p.uid)["play"] for p in room.players.all()}
        return seen | {"visitor": room_state(slug=room.slug, uid=None)["play"]}

    first, second = await sync_to_async(views)(), await sync_to_async(views)()
    assert first == second
    assert first["amy"]["deadline"] is not None and first["ben"]["encryptor"]["clues"] == ["half", "", ""]
    saved = await game_state(table.slug)
    assert engine.state_to_json(engine.state_from_json(saved)) == saved
    # What the sockets last received is exactly the view rebuilt from the database.
    version = await room_version(table.slug)
    for name in ("ann", "amy", "bob", "ben", "sam"):
        last = await table[name].eventually(lambda s: s["version"] >= version)
        assert _json_roundtrip(first[name]) == last["play"], name
    assert state["round"] == 2
    await table.close()


async def test_engine_lock_reaches_only_teams_guessing(channel_layer: str) -> None:
    """Round 1 (DC-11): only the Encryptor's own team guesses; its lock reveals at once."""
    table = await open_table("dc-round-one", FOUR)
    await deal(table)
    await submit_clues(table, "white")
    await submit_clues(table, "black")
    state = await game_state(table.slug)
    reply = await lock(table, "white", state["turns"]["white"]["code"])
    assert reply["play"]["guessing_for"] == "black"
    assert reply["play"]["history"][0]["interception"] is None
    await table.close()


def _json(text: str) -> dict[str, Any]:
    import json

    value: dict[str, Any] = json.loads(text)
    return value


def _json_roundtrip(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value))
