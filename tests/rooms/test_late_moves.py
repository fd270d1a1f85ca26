"""A move held by a dead network lands late or never: its ``at`` (the tap's time by the
server's clock) older than MOVE_MAX_AGE_SECONDS is refused with ``too_late`` and changes
nothing; a fresh one, or one without ``at``, plays as ever."""

from __future__ import annotations

import time
from typing import Any

import pytest

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


@pytest.mark.parametrize("at", ["soon", True, None, [1], 1e400])
async def test_an_at_that_is_not_a_time_is_a_bad_message(channel_layer: str, at: Any) -> None:
    table, state, spymaster = await _clue_phase("bad-at")
    before = await room_version(table.slug)
    message = {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2, "at": at}
    if at is None:
        message["at"] = "null"  # JSON null means "no at": a string stands in for a non-time
    reply = await act(table[spymaster], message)
    assert reply["type"] == "error" and reply["code"] == "bad_message", reply
    assert await room_version(table.slug) == before
    await table.close()


async def test_ping_and_sync_are_answered_whatever_their_at(channel_layer: str) -> None:
    table, _state, _spymaster = await _clue_phase("old-ping")
    rui = table["rui"]
    await rui.send({"action": "ping", "version": rui.last_state["version"], "at": _ms(600)})
    assert (await rui.receive())["type"] == "pong"
    await rui.send({"action": "sync", "at": _ms(600)})
    assert (await rui.receive_type("state"))["version"] == await room_version(table.slug)
    await table.close()
