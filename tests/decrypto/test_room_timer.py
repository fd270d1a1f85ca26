"""DC-8: the server's clock submits the late Encryptor's draft, with or without a browser open."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from decrypto import services
from decrypto.models import DecryptoGame
from rooms.clock import sweep
from rooms.errors import RoomError
from rooms.models import Room
from tests.conftest import Client, make_session
from tests.decrypto.table import FOUR, Seat, play_as, saved_game, seat_room, write_pack

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _token_pack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(services, "WORDS_DIR", write_pack(tmp_path))


def _race_to_the_deadline(slug: str, settings: dict[str, Any] | None = None) -> dict[str, Seat]:
    """Deal; Black's Encryptor (bob) drafts one clue; White's (ann) submits: the timer starts."""
    seats = seat_room(slug, FOUR)
    if settings is not None:
        Room.objects.filter(slug=slug).update(settings=settings)
    play_as(slug, seats["amy"].uid, {"action": "start_game"})
    stamp = {"round": 1, "phase": "clues"}
    play_as(slug, seats["bob"].uid, {"action": "save_draft", **stamp, "clues": ["", "half done", ""]})
    play_as(slug, seats["ann"].uid, {"action": "submit_clues", **stamp, "clues": ["one", "two", "three"]})
    return seats


async def test_dc8_deadline_submits_the_late_draft_with_no_socket_open(channel_layer: str) -> None:
    await sync_to_async(_race_to_the_deadline)("dc-timer")
    game = await sync_to_async(saved_game)("dc-timer")
    due = game.state["deadline"]
    assert due is not None and game.deadline is not None
    assert abs(game.deadline.timestamp() - due) < 1e-3  # the column the clock queries
    version = await sync_to_async(lambda: Room.objects.get(slug="dc-timer").version)()

    assert await sync_to_async(sweep)(now=due - 1) == 0  # not yet
    assert (await sync_to_async(saved_game)("dc-timer")).state == game.state
    assert await sync_to_async(sweep)(now=due + 1) == 1

    after = await sync_to_async(saved_game)("dc-timer")
    state = after.state
    assert (state["phase"], state["guessing_for"]) == ("guess", "white")  # DC-9
    assert state["turns"]["black"] == {
        **game.state["turns"]["black"],
        "clues": ["", "half done", ""],
        "submitted": True,
    }
    assert state["deadline"] is None and after.deadline is None
    assert await sync_to_async(lambda: Room.objects.get(slug="dc-timer").version)() > version
    assert await sync_to_async(sweep)(now=due + 2) == 0  # applied once

    # A browser opened afterwards sees the clues as sent, the missing ones empty.
    client = Client("dc-timer", await sync_to_async(make_session)("uid-dc-timer-sam"))
    first = await client.connect()
    assert first["play"]["current"]["clues"] == ["one", "two", "three"]
    assert first["play"]["phase"] == "guess"
    await client.close()


async def test_dc8_a_connected_player_is_pushed_the_expiry(channel_layer: str) -> None:
    await sync_to_async(_race_to_the_deadline)("dc-timer-live")
    client = Client("dc-timer-live", await sync_to_async(make_session)("uid-dc-timer-live-ben"))
    before = await client.connect()
    deadline = before["play"]["deadline"]
    assert before["play"]["phase"] == "clues" and deadline is not None
    assert [(t["team"], t["task"]) for t in before["play"]["to_act"]] == [("black", "clues")]
    # As the server's clock does: from a thread of its own, outside any event loop.
    clock = threading.Thread(target=sweep, kwargs={"now": deadline + 0.5})
    clock.start()
    # The clock thread runs on the database pool; a loaded machine may take seconds.
    pushed = await client.state_where(lambda s: s["play"]["phase"] == "guess", timeout=20)
    clock.join(timeout=10)
    assert pushed["play"]["deadline"] is None
    await client.close()


async def test_dc8_timer_setting_off_or_out_of_range(channel_layer: str) -> None:
    await sync_to_async(_race_to_the_deadline)("dc-timer-off", {"decrypto": {"timer_seconds": None}})
    game = await sync_to_async(saved_game)("dc-timer-off")
    assert game.state["rules"]["timer_seconds"] is None
    assert game.state["deadline"] is None and game.deadline is None
    assert game.state["phase"] == "clues"

    await sync_to_async(_race_to_the_deadline)("dc-timer-slow", {"decrypto": {"timer_seconds": 120}})
    game = await sync_to_async(saved_game)("dc-timer-slow")
    assert game.state["deadline"] - game.created_at.timestamp() == pytest.approx(120, abs=5)

    with pytest.raises(RoomError) as refused:
        await sync_to_async(_race_to_the_deadline)("dc-timer-bad", {"decrypto": {"timer_seconds": 5}})
    assert refused.value.code == "bad_rules"
    assert not await sync_to_async(DecryptoGame.objects.filter(room__slug="dc-timer-bad").exists)()
