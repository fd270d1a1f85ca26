"""Where table talk meets the rest (issue 28): a team's line stays with the people who sat
in that team when it was said, across seat changes and reconnects; the games' talk rules
hold on the person, not the seat; a browser's and an address's lines are capped across
their sockets; the trim is exact; saying a line serialises with the operators' actions."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from rooms import chat, limits, operators
from rooms.errors import RoomError
from rooms.models import ChatMessage, Player, Room
from rooms.services import room_join, room_sit
from tests.conftest import Client, act, make_session, room_version
from tests.rooms.test_chat import chat_frame, drain, say

pytestmark = [pytest.mark.django_db(transaction=True)]


async def history(client: Client) -> list[str]:
    """The texts of the history the socket gets when it asks for it."""
    await client.send({"action": "chat_history"})
    while True:
        message = await chat_frame(client)
        if message["history"]:
            return [line["text"] for line in message["messages"]]


@pytest.mark.asyncio
async def test_cns4_a_team_line_stays_with_those_seated_in_the_team_when_it_was_said(
    channel_layer: str,
) -> None:
    from tests.codenames.table import STANDARD, open_table
    from tests.codenames.test_room_play import deal

    table = await open_table("seam-team-hop", STANDARD)
    await deal(table)
    for number in range(4):
        assert (await say(table["bo"], "team", f"zqblue-early-{number}"))["type"] == "chat"
    assert (await say(table["rui"], "team", "zqred-mine"))["type"] == "chat"
    # A red operative sits at blue mid-game: none of blue's earlier lines reach him.
    reply = await act(table["rui"], {"action": "sit", "team": "blue", "role": "operative"})
    assert reply["type"] == "state", reply
    assert await history(table["rui"]) == []
    # Blue's next line is his to read: he sits there now.
    assert (await say(table["bo"], "team", "zqblue-later"))["type"] == "chat"
    assert (await chat_frame(table["rui"]))["messages"][0]["text"] == "zqblue-later"
    # Back at red: red's line (said while he sat there) again, nothing of blue's.
    reply = await act(table["rui"], {"action": "sit", "team": "red", "role": "operative"})
    assert reply["type"] == "state", reply
    assert await history(table["rui"]) == ["zqred-mine"]
    # A reconnect at blue's table later still never brings the lines said before he came.
    reconnect = Client(table.slug, await sync_to_async(make_session)(table.seats["rui"].uid))
    await reconnect.connect()
    await act(reconnect, {"action": "sit", "team": "blue", "role": "operative"})
    assert await history(reconnect) == ["zqblue-later"]
    everything = "".join(await drain(table["rui"])) + "".join(await drain(reconnect))
    assert "zqblue-early" not in everything
    # Blue's own operative reads all of blue's lines, in order.
    assert await history(table["bo"]) == [*(f"zqblue-early-{n}" for n in range(4)), "zqblue-later"]
    await reconnect.close()
    await table.close()


@pytest.mark.asyncio
async def test_cn36_whoever_saw_the_key_stays_silent_from_any_seat(channel_layer: str) -> None:
    from tests.codenames.table import STANDARD, open_table
    from tests.codenames.test_room_play import deal, play_to_a_win

    table = await open_table("seam-key-hop", STANDARD)
    state = await deal(table)
    reply = await act(table["rosa"], {"action": "sit", "role": "spectator"})
    assert reply["type"] == "state", reply
    # Her screen says why she is silent (no composer to type into), others' say nothing.
    assert reply["you"]["quiet"] == "key_seen" and reply["you"]["role"] == "spectator"
    assert (await table["sam"].eventually(lambda s: s["version"] >= reply["version"]))["you"]["quiet"] is None
    assert (await table["rui"].eventually(lambda s: s["version"] >= reply["version"]))["you"]["quiet"] is None
    for channel in ("room", "team"):
        refused = await say(table["rosa"], channel, "the assassin is the card at row 2, column 3")
        assert refused["type"] == "error", refused
        assert refused["code"] == ("chat_not_now" if channel == "room" else "chat_no_team"), refused
    assert not await sync_to_async(ChatMessage.objects.exists)()
    # Someone who never saw the key talks from the spectators' seats.
    assert (await say(table["sam"], "room", "go red"))["type"] == "chat"
    # The spymaster comes back to end the game; over, everyone talks.
    assert (await act(table["rosa"], {"action": "sit", "team": "red", "role": "spymaster"}))[
        "type"
    ] == "state"
    await play_to_a_win(table, state)
    assert (await say(table["rosa"], "room", "good game"))["type"] == "chat"
    assert table["rosa"].last_state is not None and table["rosa"].last_state["you"]["quiet"] is None
    await table.close()


@pytest.mark.asyncio
async def test_dc46_an_encryptor_stays_silent_from_the_clues_until_the_code_is_revealed(
    channel_layer: str,
) -> None:
    from tests.decrypto.table import FOUR, encryptor_name, game_state, lock, open_table, submit_clues

    table = await open_table("seam-encryptor", FOUR)
    await act(table["amy"], {"action": "start_game"})
    state = await game_state(table.slug)
    white, black = encryptor_name(table, state, "white"), encryptor_name(table, state, "black")

    async def quiet(name: str) -> bool:
        reply = await say(table[name], "team", f"zq-{name}-{len(table[name].frames)}")
        refused = reply["type"] == "error" and reply["code"] == "chat_not_now"
        # The state says the same before anyone types: the page shows why, not a composer.
        version = await room_version(table.slug)
        shown = await table[name].eventually(lambda s: s["version"] >= version)
        assert shown["you"]["quiet"] == ("encryptor" if refused else None), (name, shown["you"])
        return refused

    await submit_clues(table, "white")
    assert await quiet(white) and await quiet(black)  # submitted, and still writing
    await submit_clues(table, "black")
    state = await game_state(table.slug)
    assert (state["phase"], state["guessing_for"]) == ("guess", "white")
    # White's code is being deciphered; black's waits its turn: both stay silent.
    assert await quiet(white) and await quiet(black)
    await lock(table, "white", state["turns"]["white"]["code"])
    state = await game_state(table.slug)
    assert state["guessing_for"] == "black"
    assert not await quiet(white)  # white's code is revealed
    assert await quiet(black)
    await lock(table, "black", state["turns"]["black"]["code"])
    assert not await quiet(black)
    await table.close()


# ---- allowances across sockets ----------------------------------------------------------


@pytest.fixture
def chat_limits(settings: Any) -> Iterator[Any]:
    settings.RATE_LIMITS_ENABLED = True
    settings.RATE_LIMITS_STORAGE = "memory://"
    settings.RATE_LIMITS = {
        **settings.RATE_LIMITS,
        "chat_lines_per_session": "5 per 30 seconds",
        "chat_lines_per_ip": "8 per 30 seconds",
    }
    limits._limiter = None
    yield settings
    limits._limiter = None


async def _sockets(slug: str, uid: str, count: int, ip: str) -> list[Client]:
    key = await sync_to_async(make_session)(uid)
    sockets = []
    for _ in range(count):
        client = Client(slug, key)
        client.comm.scope["client"] = (ip, 40000 + len(sockets))
        await client.connect()
        sockets.append(client)
    return sockets


@pytest.mark.asyncio
async def test_one_browser_with_many_sockets_says_no_more_than_with_one(chat_limits: Any) -> None:
    await sync_to_async(room_join)(slug="seam-flood", uid="flood-ada", name="Ada")
    await sync_to_async(room_join)(slug="seam-flood", uid="flood-bo", name="Bo")
    sockets = await _sockets("seam-flood", "flood-ada", 6, "10.7.0.1")
    replies = [await say(client, "room", f"flood {n}") for n, client in enumerate(sockets * 2)]
    said = [r for r in replies if r["type"] == "chat"]
    refused = [r for r in replies if r["type"] == "error"]
    assert len(said) == 5 and len(refused) == 7
    assert {r["code"] for r in refused} == {"chat_too_fast"}
    assert all(1 <= r["params"]["seconds"] <= 30 for r in refused)
    # Another browser behind the same address still talks, up to the address's allowance.
    others = await _sockets("seam-flood", "flood-bo", 2, "10.7.0.1")
    replies = [await say(client, "room", f"bo {n}") for n, client in enumerate(others * 3)]
    assert [r["type"] for r in replies].count("chat") == 3  # 8 for the address, 5 used
    assert await sync_to_async(ChatMessage.objects.count)() == 8
    for client in [*sockets, *others]:
        await client.close()


# ---- the trim and the room lock, under concurrency ----------------------------------------


def _threads(work: list[Any]) -> list[BaseException]:
    """Run each callable in its own thread (its own database connection); what they raised."""
    failures: list[BaseException] = []
    start = threading.Barrier(len(work))

    def run(call: Any) -> None:
        try:
            start.wait()
            call()
        except BaseException as error:  # noqa: BLE001 - every failure is the test's to see
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return failures


def test_the_trim_keeps_exactly_the_newest_lines_under_concurrency(monkeypatch: Any) -> None:
    monkeypatch.setattr(chat, "KEPT", 12)
    slugs = [f"seam-trim-{n}" for n in range(3)]
    for slug in slugs:
        for who in ("a", "b"):
            room_join(slug=slug, uid=f"{slug}-{who}", name=who.upper())

    def talker(slug: str, who: str) -> Any:
        def talk() -> None:
            for number in range(20):
                chat.chat_say(slug=slug, uid=f"{slug}-{who}", channel="room", text=f"{who}{number}")

        return talk

    work = [talker(slug, who) for slug in slugs for who in ("a", "b")]
    if connection.vendor == "sqlite":
        # One writer at a time on SQLite (the server's pool has one database thread).
        failures = []
        for call in work:
            call()
    else:
        failures = _threads(work)
    assert failures == []
    for slug in slugs:
        kept = list(ChatMessage.objects.filter(room__slug=slug).order_by("seq").values_list("seq", flat=True))
        assert kept == list(range(29, 41)), slug
        assert Room.objects.get(slug=slug).chat_seq == 40


def test_lines_serialise_with_admin_closes_and_removals() -> None:
    """20 rooms closed and 15 players removed while everyone talks: every line is said or
    refused with a reason (`not_joined`), never a server error or a deadlock."""
    if connection.vendor == "sqlite":
        pytest.skip("concurrent writers: PostgreSQL only (SQLite has one database thread)")
    rooms = [f"seam-close-{n}" for n in range(20)]
    removed = [f"seam-remove-{n}" for n in range(15)]
    for slug in [*rooms, *removed]:
        for who in ("a", "b", "c"):
            room_join(slug=slug, uid=f"{slug}-{who}", name=who.upper())
            if who != "c":
                room_sit(slug=slug, uid=f"{slug}-{who}", team="red", role="operative")
    refusals: list[str] = []
    lock = threading.Lock()

    def talker(slug: str, who: str) -> Any:
        def talk() -> None:
            for number in range(8):
                try:
                    chat.chat_say(
                        slug=slug,
                        uid=f"{slug}-{who}",
                        channel="team" if who != "c" else "room",
                        text=f"{number}",
                    )
                except RoomError as error:
                    with lock:
                        refusals.append(error.code)

        return talk

    targets = [Player.objects.get(uid=f"{slug}-a").pk for slug in removed]

    def closer() -> None:
        for slug in rooms:
            operators.room_close(slug=slug)

    def remover() -> None:
        for pk in targets:
            operators.player_remove(pk=pk)

    work = [talker(slug, who) for slug in [*rooms, *removed] for who in ("a", "c")]
    failures = _threads([closer, remover, *work])
    assert failures == [], [repr(f) for f in failures[:3]]
    assert set(refusals) <= {"not_joined"}
    assert not Room.objects.filter(slug__in=rooms).exists()
    assert not Player.objects.filter(pk__in=targets).exists()
    # A removed player's earlier lines stay, without their row.
    for line in ChatMessage.objects.filter(room__slug__in=removed, author_public_id__isnull=False):
        assert line.seq >= 1
