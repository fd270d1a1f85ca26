"""A move held by a dead network lands late or never: its ``at`` (the tap's time by the
server's clock) older than MOVE_MAX_AGE_SECONDS is refused with ``too_late`` and changes
nothing; a fresh one, or one without ``at``, plays as ever."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest

from rooms.frames import MAX_AGE_SHOWN, MAX_AT_MS
from tests.codenames.table import STANDARD, act, game_state, open_table, room_version

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _ms(seconds_ago: float) -> int:
    return round((time.time() - seconds_ago) * 1000)


async def _clue_phase(slug: str) -> tuple[Any, dict[str, Any], str]:
    table = await open_table(slug, STANDARD)
    await act(table["rui"], {"action": "start_game"})
    await table["rui"].eventually(lambda s: s["play"] is not None)
    state = await game_state(slug)
    spymaster = "rosa" if state["team"] == "red" else "bea"
    return table, state, spymaster


async def test_a_move_older_than_the_limit_is_refused_and_changes_nothing(
    channel_layer: str, settings: Any
) -> None:
    settings.MOVE_MAX_AGE_SECONDS = 6
    table, state, spymaster = await _clue_phase("late-move")
    before = await room_version(table.slug)
    clue = {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2}
    reply = await act(table[spymaster], {**clue, "at": _ms(63)})
    assert reply["type"] == "error" and reply["code"] == "too_late", reply
    assert reply["params"] == {"seconds": 63, "limit": 6}
    assert "63" in reply["message"]
    assert await room_version(table.slug) == before
    assert await game_state(table.slug) == state
    # The socket stays open, and the same move made now plays.
    reply = await act(table[spymaster], {**clue, "at": _ms(0.2)})
    assert reply["type"] == "state", reply
    assert "qzx" in str(await game_state(table.slug))
    await table.close()


async def test_a_move_without_at_is_never_refused_for_its_age(channel_layer: str) -> None:
    table, state, spymaster = await _clue_phase("no-at")
    reply = await act(
        table[spymaster], {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2}
    )
    assert reply["type"] == "state", reply
    await table.close()


# Each as the JSON text a client could send: Python's json reads 1e400 as inf, NaN as nan.
NOT_TIMES = {
    "400 digits": "1" + "0" * 399,
    "1e400": "1e400",
    "-1e400": "-1e400",
    "NaN": "NaN",
    "null": "null",
    "a string": '"1764115190000"',
    "a bool": "true",
    "a list": "[1]",
    "negative": "-1",
    "past the latest Date": str(MAX_AT_MS + 1),
}


async def test_an_at_that_is_not_a_time_is_a_bad_message(channel_layer: str, caplog: Any) -> None:
    table, state, spymaster = await _clue_phase("bad-at")
    client = table[spymaster]
    before = await room_version(table.slug)
    clue = {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2}
    with caplog.at_level(logging.WARNING):
        for name, at in NOT_TIMES.items():
            ref = f"at-{name}"
            await client.send_text(json.dumps({**clue, "ref": ref})[:-1] + f', "at": {at}}}')
            reply = await client.receive_type("error")
            assert (reply["code"], reply["ref"]) == ("bad_message", ref), (name, reply)
            assert "'at'" in reply["message"], reply
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert await room_version(table.slug) == before
    assert await game_state(table.slug) == state
    # Still open, and the same move with a good `at` plays.
    reply = await act(client, {**clue, "at": _ms(0)})
    assert reply["type"] == "state", reply
    await table.close()


async def test_a_tiny_at_is_too_late_with_its_age_capped(channel_layer: str) -> None:
    table, state, spymaster = await _clue_phase("tiny-at")
    before = await room_version(table.slug)
    clue = {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2}
    for at in (0, 1, 0.5, _ms(2 * MAX_AGE_SHOWN)):
        reply = await act(table[spymaster], {**clue, "at": at})
        assert reply["code"] == "too_late", reply
        assert reply["params"]["seconds"] == MAX_AGE_SHOWN == 3600, reply
        assert "3600" in reply["message"]
    assert await room_version(table.slug) == before
    await table.close()


async def test_an_at_ahead_of_the_server_clock_plays_up_to_the_latest_date(channel_layer: str) -> None:
    table, state, spymaster = await _clue_phase("future-at")
    reply = await act(
        table[spymaster],
        {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2, "at": _ms(-86400)},
    )
    assert reply["type"] == "state", reply
    state = await game_state(table.slug)
    operative = "rui" if state["team"] == "red" else "bo"
    reply = await act(table[operative], {"action": "end_turn", "turn": state["turn"], "at": MAX_AT_MS})
    # Accepted past the age check: the engine answers (one guess is owed first, CN-12).
    assert reply.get("code") == "must_guess", reply
    await table.close()


async def test_ping_and_sync_are_answered_whatever_their_at(channel_layer: str) -> None:
    table, _state, _spymaster = await _clue_phase("old-ping")
    rui = table["rui"]
    await rui.send({"action": "ping", "version": rui.last_state["version"], "at": _ms(600)})
    assert (await rui.receive())["type"] == "pong"
    await rui.send({"action": "sync", "at": _ms(600)})
    assert (await rui.receive_type("state"))["version"] == await room_version(table.slug)
    # Not even read: a malformed `at` on them is no error either.
    await rui.send_text(f'{{"action": "ping", "version": {rui.last_state["version"]}, "at": null}}')
    assert (await rui.receive())["type"] == "pong"
    await rui.send_text('{"action": "sync", "at": 1e400}')
    assert (await rui.receive())["type"] == "state"
    await table.close()
