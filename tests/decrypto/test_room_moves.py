"""Decrypto moves through the consumer: double taps, stale screens, wrong roles, seat changes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from decrypto import services
from decrypto.models import DecryptoGame
from tests.decrypto.table import (
    FOUR,
    Table,
    act,
    clue_set,
    game_state,
    guess_stamp,
    open_table,
    room_version,
    stamp,
    submit_clues,
    write_pack,
    wrong,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _token_pack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(services, "WORDS_DIR", write_pack(tmp_path))


async def dealt(slug: str) -> tuple[Table, dict[str, Any]]:
    """Four players and a spectator; ann (White) and bob (Black) encrypt in round 1."""
    table = await open_table(slug, FOUR)
    reply = await act(table["amy"], {"action": "start_game"})
    assert reply["type"] == "state", reply
    return table, await game_state(slug)


async def refused(table: Table, who: str, message: dict[str, Any], code: str) -> None:
    """``message`` gets error ``code`` and changes neither the game nor the room's version."""
    before_state, before_version = await game_state(table.slug), await room_version(table.slug)
    reply = await act(table[who], message)
    assert reply["type"] == "error" and reply["code"] == code, (who, code, reply)
    assert await game_state(table.slug) == before_state, code
    assert await room_version(table.slug) == before_version, code


async def test_double_lock_applies_once(channel_layer: str) -> None:
    """The same lock sent twice (a double tap): one reveal, the second is refused."""
    table, state = await dealt("dc-double")
    await submit_clues(table, "white")
    await submit_clues(table, "black")
    state = await game_state(table.slug)
    message = {"action": "lock_guess", **guess_stamp(state), "code": state["turns"]["white"]["code"]}
    amy = table["amy"]
    await amy.send({**message, "ref": "one"})
    await amy.send({**message, "ref": "two"})
    error = await amy.receive_type("error")
    # The first lock revealed White's code and moved on to Black's: the copy is stale.
    assert error["code"] == "stale" and error["ref"] == "two"
    saved = await game_state(table.slug)
    assert [(r["round"], r["team"]) for r in saved["history"]] == [(1, "white")]
    assert saved["guessing_for"] == "black"
    await table.close()


async def test_double_submit_of_clues_applies_once(channel_layer: str) -> None:
    table, state = await dealt("dc-double-clues")
    message = {"action": "submit_clues", **stamp(state), "clues": clue_set(state, "white")}
    ann = table["ann"]
    await ann.send(message)
    await ann.send(message)
    error = await ann.receive_type("error")
    assert error["code"] == "already_submitted"
    saved = await game_state(table.slug)
    assert saved["turns"]["white"]["submitted"] and saved["turns"]["white"]["clues"] == message["clues"]
    await table.close()


def _clues(words: list[str]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda s: {"action": "submit_clues", **stamp(s), "clues": words}


CLUE_PHASE_MOVES: list[tuple[str, Callable[[dict[str, Any]], dict[str, Any]], str]] = [
    ("amy", _clues(["a", "b", "c"]), "not_encryptor"),  # DC-5: only the Encryptor writes
    ("sam", _clues(["a", "b", "c"]), "not_in_game"),  # a spectator
    (
        "ann",
        lambda s: {"action": "submit_clues", "round": 2, "phase": "clues", "clues": ["a", "b", "c"]},
        "stale",
    ),
    ("ann", _clues(["a", " ", "c"]), "clue_empty"),  # DC-17
    ("ann", lambda s: _clues(["a", s["teams"]["white"]["keywords"][2].upper(), "c"])(s), "clue_is_keyword"),
    ("ann", _clues(["a", "same", "Same"]), "clue_repeated"),
    ("ann", _clues(["a", "b"]), "clue_count"),
    ("ann", _clues(["a", "b", "x" * 61]), "clue_too_long"),  # DC-16
    ("ann", lambda s: {"action": "submit_clues", **stamp(s), "clues": "abc"}, "bad_action"),
    ("ann", lambda s: {"action": "submit_clues", **stamp(s)}, "bad_action"),
    ("ann", lambda s: {"action": "submit_clues", "type": "judge", **stamp(s), "clues": []}, "bad_action"),
    (
        "amy",
        lambda s: {**stamp(s), "guessing_for": "white", "action": "lock_guess", "code": [1, 2, 3]},
        "stale",
    ),
    ("ann", lambda s: {"action": "set_note", "position": 5, "text": "x"}, "bad_position"),
    ("ann", lambda s: {"action": "set_note", "position": 1, "text": "x" * 201}, "note_too_long"),
    ("ann", lambda s: {"action": "set_order", "order": ["someone"]}, "bad_order"),
    ("ann", lambda s: {"action": "fly"}, "unknown_action"),
    ("ann", lambda s: {"action": "start_game"}, "confirm_abandon"),
    ("ann", lambda s: {"action": "start_game", "confirm": "yes"}, "bad_action"),
    ("ann", lambda s: {"action": "start_game", "mode": 3}, "bad_mode"),
]


async def test_wrong_moves_in_the_clue_phase_change_nothing(channel_layer: str) -> None:
    table, state = await dealt("dc-bad-clues")
    for who, build, code in CLUE_PHASE_MOVES:
        await refused(table, who, build(state), code)
    await table.close()


async def test_wrong_moves_in_the_guess_phase_change_nothing(channel_layer: str) -> None:
    table, state = await dealt("dc-bad-guess")
    await submit_clues(table, "white")
    await submit_clues(table, "black")
    state = await game_state(table.slug)
    code = state["turns"]["white"]["code"]
    lock = {"action": "lock_guess", **guess_stamp(state), "code": code}
    # DC-10: White's Encryptor takes no part in guessing; DC-11: no interception in round 1.
    await refused(table, "ann", lock, "encryptor_cannot_guess")
    await refused(table, "ann", {**lock, "action": "edit_guess"}, "encryptor_cannot_guess")
    await refused(table, "bob", lock, "no_interception_in_round_one")
    await refused(table, "sam", lock, "not_in_game")
    await refused(table, "amy", {**lock, "guessing_for": "black"}, "stale")
    await refused(table, "amy", {**lock, "round": 2}, "stale")
    await refused(table, "amy", {**lock, "code": [1, 2, None]}, "bad_action")
    await refused(table, "amy", {**lock, "code": [1, 2, 5]}, "bad_code")
    await refused(table, "amy", {**lock, "code": [1, 2]}, "bad_code")
    await refused(table, "ann", {"action": "submit_clues", **stamp(state), "clues": ["a", "b", "c"]}, "stale")
    # A draft is the team's only (DC-S2) and any member but the Encryptor may change it.
    reply = await act(table["amy"], {**lock, "action": "edit_guess", "code": [4, None, wrong(code)[2]]})
    assert reply["play"]["current"]["guess"]["draft"] == [4, None, wrong(code)[2]]
    await table.close()


async def test_roster_player_may_watch_but_not_change_team(channel_layer: str) -> None:
    """Rosters are fixed at the deal: a player who saw their keywords stays in their team."""
    table, _ = await dealt("dc-seat-lock")
    reply = await act(table["amy"], {"action": "sit", "team": "black", "role": "player"})
    assert reply["type"] == "error" and reply["code"] == "team_locked"
    reply = await act(table["amy"], {"action": "sit", "team": "", "role": "spectator"})
    assert reply["type"] == "state" and reply["you"]["role"] == "spectator"
    # Still on White's roster: still White's screen, nothing of Black's.
    assert reply["play"]["seat"]["team"] == "white" and reply["play"]["teams"]["black"]["keywords"] is None
    reply = await act(table["amy"], {"action": "sit", "team": "black", "role": "player"})
    assert reply["type"] == "error" and reply["code"] == "team_locked"
    reply = await act(table["amy"], {"action": "sit", "team": "white", "role": "player"})
    assert reply["type"] == "state" and reply["you"]["team"] == "white"
    reply = await act(table["sam"], {"action": "sit", "team": "black", "role": "player"})
    assert reply["type"] == "error" and reply["code"] == "rosters_fixed"
    reply = await act(table["sam"], {"action": "shuffle"})
    assert reply["type"] == "error" and reply["code"] == "game_running"
    await table.close()


async def test_seats_are_free_once_the_game_is_over(channel_layer: str) -> None:
    table, _ = await dealt("dc-seat-free")
    await act(table["amy"], {"action": "start_game", "confirm": True})
    reply = await act(table["sam"], {"action": "sit", "team": "black", "role": "player"})
    assert reply["type"] == "error" and reply["code"] == "rosters_fixed"  # the new game's rosters
    await sync_to_async(
        lambda: DecryptoGame.objects.filter(room__slug="dc-seat-free").update(finished=True)
    )()
    reply = await act(table["sam"], {"action": "sit", "team": "black", "role": "player"})
    assert reply["type"] == "state" and reply["you"]["team"] == "black"
    reply = await act(table["amy"], {"action": "sit", "team": "black", "role": "player"})
    assert reply["type"] == "state" and reply["you"]["team"] == "black"
    await table.close()


async def test_dc5_team_changes_its_rotation_order(channel_layer: str) -> None:
    table, state = await dealt("dc-order")
    order = state["teams"]["black"]["order"]
    reply = await act(table["ben"], {"action": "set_order", "order": order[::-1]})
    assert reply["play"]["teams"]["black"]["players"] == order[::-1]
    await table.close()
