"""Table talk through the real consumer (in-memory layer and Redis): a team's line reaches
its team's sockets and no byte of anyone else's; the room's line reaches everyone; the
games' rules (CN-36, DC-46) and the limits; history on connect and on asking."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from rooms import chat
from rooms.models import ChatMessage
from tests.conftest import Client, act, make_session
from tests.decrypto.table import FOUR, Table, game_state, open_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WHISPER = "zqwhisper-white"


async def drain(client: Client) -> list[str]:
    """Read the socket until it is quiet; every frame it got so far."""
    while not await client.nothing_pending():
        await client.receive()
    return client.frames


async def chat_frame(client: Client) -> dict[str, Any]:
    while True:
        message = await client.receive()
        if message["type"] == "chat":
            return message


async def onlookers(slug: str) -> dict[str, Client]:
    """A visitor (no session) and the table view (a TV), sockets of the room."""
    visitor = Client(slug)
    table = Client(slug, await sync_to_async(make_session)(), path=f"/ws/r/{slug}/table/")
    for client in (visitor, table):
        await client.connect()
    return {"visitor": visitor, "table": table}


async def say(client: Client, channel: str, text: str) -> dict[str, Any]:
    """Send a line; the sender's own copy of it (or the error)."""
    await client.send({"action": "say", "channel": channel, "text": text, "ref": 1})
    while True:
        message = await client.receive()
        if message["type"] == "error" or (
            message["type"] == "chat" and message["messages"][-1]["text"] == text
        ):
            return message


async def _decrypto_table(slug: str) -> tuple[Table, dict[str, Client]]:
    table = await open_table(slug, FOUR)
    return table, await onlookers(slug)


async def test_dc45_dcs4_a_team_line_reaches_only_that_teams_sockets(channel_layer: str) -> None:
    table, others = await _decrypto_table("chat-team")
    mine = await say(table["ann"], "team", WHISPER)
    assert mine["type"] == "chat", mine
    line = mine["messages"][0]
    assert (line["channel"], line["team"], line["name"], line["text"]) == ("team", "white", "ann", WHISPER)
    assert line["author"] == table.id("ann")
    # Every White socket gets it; nobody else, in any byte.
    assert (await chat_frame(table["amy"]))["messages"][0]["text"] == WHISPER
    for name in ("bob", "ben", "sam"):
        assert WHISPER not in "".join(await drain(table[name])), name
    for name, client in others.items():
        assert WHISPER not in "".join(await drain(client)), name
    # Nor in a page any of them loads, nor in the history they ask for.
    for name in ("bob", "sam"):
        await table[name].send({"action": "chat_history"})
        history = await chat_frame(table[name])
        assert history["history"] is True and WHISPER not in json.dumps(history)
    await table.close()
    for client in others.values():
        await client.close()


async def test_cn35_dc45_a_room_line_reaches_everyone_in_the_room(channel_layer: str) -> None:
    table, others = await _decrypto_table("chat-room")
    await say(table["bob"], "room", "good luck all")
    everyone = [table[name] for name in ("ann", "amy", "ben", "sam")] + list(others.values())
    for client in everyone:
        line = (await chat_frame(client))["messages"][0]
        assert (line["channel"], line["team"], line["text"]) == ("room", None, "good luck all")
    await table.close()
    for client in others.values():
        await client.close()


async def test_dc46_the_encryptor_says_nothing_until_the_code_is_revealed(channel_layer: str) -> None:
    table, others = await _decrypto_table("chat-encryptor")
    await act(table["amy"], {"action": "start_game"})
    await table["amy"].eventually(lambda s: s["play"] is not None)
    state = await game_state(table.slug)
    encryptor = table.name_of(state["turns"]["white"]["encryptor"])
    teammate = next(n for n in ("ann", "amy") if n != encryptor)
    refused = await say(table[encryptor], "team", "think of the beach")
    assert refused["type"] == "error" and refused["code"] == "chat_not_now", refused
    assert "Encryptor" in refused["message"]
    refused = await say(table[encryptor], "room", "hello")
    assert refused["code"] == "chat_not_now"
    # Their teammate talks freely, and nothing was stored for the refused lines.
    assert (await say(table[teammate], "team", "no idea yet"))["type"] == "chat"
    texts = await sync_to_async(lambda: list(ChatMessage.objects.values_list("text", flat=True)))()
    assert texts == ["no idea yet"]
    await table.close()
    for client in others.values():
        await client.close()


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"channel": "room", "text": "   "}, "chat_empty"),
        ({"channel": "room", "text": 42}, "chat_empty"),
        ({"channel": "room", "text": "x" * 281}, "chat_too_long"),
        ({"channel": "everyone", "text": "hi"}, "bad_channel"),
        ({"channel": "team", "text": "hi"}, "chat_no_team"),  # sam watches: no team
        ({"channel": "room", "text": "evil\u202eoh"}, "bad_text"),
        ({"channel": "room", "text": "nul\u0000"}, "bad_text"),
    ],
)
async def test_a_bad_line_gets_an_error_and_stores_nothing(
    channel_layer: str, message: dict[str, Any], code: str
) -> None:
    table = await open_table("chat-bad", FOUR)
    reply = await act(table["sam"], {"action": "say", **message})
    assert reply["type"] == "error" and reply["code"] == code, reply
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    assert (await say(table["sam"], "room", "still here"))["type"] == "chat"  # the socket stays open
    await table.close()


async def test_a_visitor_and_the_table_view_cannot_talk(channel_layer: str) -> None:
    await open_table("chat-visitors", FOUR[:2])
    others = await onlookers("chat-visitors")
    reply = await act(others["visitor"], {"action": "say", "channel": "room", "text": "hi"})
    assert reply["code"] == "not_joined"
    reply = await act(others["table"], {"action": "say", "channel": "room", "text": "hi"})
    assert reply["code"] == "table_view"
    assert await sync_to_async(ChatMessage.objects.count)() == 0


async def test_talking_fast_is_refused_with_a_wait(channel_layer: str) -> None:
    table = await open_table("chat-fast", FOUR[:2])
    for number in range(chat.BURST):
        assert (await say(table["ann"], "room", f"line {number}"))["type"] == "chat"
    reply = await say(table["ann"], "room", "one too many")
    assert reply["type"] == "error" and reply["code"] == "chat_too_fast" and reply["params"]["seconds"] >= 1
    await table.close()


async def test_history_on_connect_has_the_seats_channels_and_no_other(channel_layer: str) -> None:
    table = await open_table("chat-history", FOUR)
    await say(table["ann"], "team", WHISPER)
    await say(table["bob"], "team", "zqblack-only")
    await say(table["sam"], "room", "hello room")
    await table.close()
    # Reloading: a new socket of each gets the lines it may read, oldest first.
    seen = {}
    for name in ("amy", "ben", "sam"):
        client = Client(table.slug, await sync_to_async(make_session)(table.seats[name].uid))
        await client.connect()
        seen[name] = [line["text"] for line in (await chat_frame(client))["messages"]]
        await client.close()
    assert seen == {
        "amy": [WHISPER, "hello room"],
        "ben": ["zqblack-only", "hello room"],
        "sam": ["hello room"],
    }


async def test_a_room_keeps_exactly_its_last_lines(channel_layer: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(chat, "KEPT", 10)
    monkeypatch.setattr(chat, "BURST", 100)
    table = await open_table("chat-kept", FOUR[:1])
    for number in range(30):
        assert (await say(table["ann"], "room", f"line {number}"))["type"] == "chat"
        kept = await sync_to_async(lambda: list(ChatMessage.objects.values_list("seq", flat=True)))()
        # Exactly the newest ten at every step, numbered without a gap.
        assert kept == list(range(max(1, number - 8), number + 2))
    texts = await sync_to_async(lambda: list(ChatMessage.objects.values_list("text", flat=True)))()
    assert texts == [f"line {n}" for n in range(20, 30)]
    await table.close()


async def test_cn35_cn36_cns4_a_spymaster_reads_says_nothing_while_the_game_runs_talks_after(
    channel_layer: str,
) -> None:
    from tests.codenames.table import STANDARD
    from tests.codenames.table import open_table as open_codenames

    table = await open_codenames("chat-spymaster", STANDARD)
    assert (await say(table["rosa"], "room", "ready when you are"))["type"] == "chat"  # the lobby
    from tests.codenames.test_room_play import deal, play_to_a_win

    state = await deal(table)
    for channel in ("room", "team"):
        refused = await say(table["rosa"], channel, "think red")
        assert refused["type"] == "error" and refused["code"] == "chat_not_now", refused
    # Operatives talk, and their spymaster reads the team's channel.
    assert (await say(table["rui"], "team", "zqred-hunch"))["type"] == "chat"
    assert (await chat_frame(table["rosa"]))["messages"][0]["text"] == "zqred-hunch"
    assert "zqred-hunch" not in "".join(await drain(table["bo"]))
    # The game over, the spymaster talks again.
    await play_to_a_win(table, state)
    assert (await say(table["rosa"], "room", "good game"))["type"] == "chat"
    await table.close()
