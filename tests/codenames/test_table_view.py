"""The table view (a TV) is a visitor's view whoever opens it (CN-S1: the table is a spectator).

A host seated as a spymaster opens the table view from their own browser: its page and
its socket must carry no card identity, whatever session or device link that browser
holds. Every byte of the pages and of every frame is read through a whole game.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from rooms.models import Player
from rooms.services import room_device_link
from tests.codenames.table import STANDARD, Table, act, key_leaks, open_table, room_version
from tests.codenames.test_room_play import deal, play_to_a_win
from tests.conftest import Client, make_session

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# Each seat kind that may open the table view, by the browser it is opened from.
KINDS = ("spymaster", "operative", "spectator", "device", "visitor")
SEAT_OF_KIND = {"spymaster": "rosa", "operative": "rui", "spectator": "sam"}


def _http(cookie: str | None) -> HttpClient:
    client = HttpClient()
    if cookie:
        client.cookies["sessionid"] = cookie
    return client


async def table_pages(
    table: Table, sessions: dict[str, str | None], device_link: str
) -> dict[str, list[str]]:
    """The table page as each kind of browser gets it, by its own URL and by ``?table=1``."""

    def fetch() -> dict[str, list[str]]:
        pages: dict[str, list[str]] = {}
        for kind, cookie in sessions.items():
            client = _http(cookie)
            direct = client.get(f"/r/{table.slug}/table/")
            assert direct.status_code == 200
            via_room = client.get(f"/r/{table.slug}/?table=1", follow=True)
            assert via_room.redirect_chain == [(f"/r/{table.slug}/table/", 302)]
            pages[kind] = [direct.content.decode(), via_room.content.decode()]
        # The device link's own browser: its link with ?table=1 leads to the same view.
        via_device = _http(None).get(f"{device_link}?table=1", follow=True)
        assert via_device.redirect_chain == [(f"/r/{table.slug}/table/", 302)]
        pages["device"].append(via_device.content.decode())
        return pages

    return await sync_to_async(fetch)()


def _states(frames: list[str]) -> list[dict[str, Any]]:
    return [doc for doc in map(json.loads, frames) if doc.get("type") == "state"]


async def test_cn_s1_table_view_from_every_seat_carries_no_identity(channel_layer: str) -> None:
    table = await open_table("cn-tv", STANDARD)
    uids = {name: seat.uid for name, seat in table.seats.items()}
    await sync_to_async(room_device_link)(slug=table.slug, uid=uids["rosa"], regenerate=False)
    token = await sync_to_async(
        lambda: Player.objects.get(room__slug="cn-tv", uid=uids["rosa"]).device_token
    )()
    device_link = f"/r/{table.slug}/device/{token}/"
    sessions: dict[str, str | None] = {
        kind: await sync_to_async(make_session)(uids[name]) for kind, name in SEAT_OF_KIND.items()
    }
    sessions["device"] = None  # a device link's browser holds no session, only its link
    sessions["visitor"] = None
    connections = await sync_to_async(lambda: dict(Player.objects.values_list("name", "connections")))()

    tvs = {kind: Client(table.slug, sessions[kind], path=f"/ws/r/{table.slug}/table/") for kind in KINDS}
    for tv in tvs.values():
        first = await tv.connect()
        assert first["you"] is None
    # A table socket counts nobody present, whoever's session it carries.
    assert (
        await sync_to_async(lambda: dict(Player.objects.values_list("name", "connections")))() == connections
    )

    pages = await table_pages(table, sessions, device_link)  # the lobby
    state = await deal(table)
    # Mid-game, before anything is covered: the table pages, and the positive control
    # that the same checker finds the key in the spymaster's own room page.
    for kind, captured in (await table_pages(table, sessions, device_link)).items():
        pages[kind] += captured
    own = await sync_to_async(lambda: _http(sessions["spymaster"]).get("/r/cn-tv/").content.decode())()
    assert key_leaks([own])

    # The table takes no part in play.
    before = await room_version(table.slug)
    refused = await act(
        tvs["spymaster"], {"action": "give_clue", "turn": state["turn"], "word": "qxz", "number": 1}
    )
    assert refused["type"] == "error" and refused["code"] == "table_view"
    assert await room_version(table.slug) == before

    async def read_pages_mid_game(turn: int) -> None:
        if turn == 2:
            for kind, captured in (await table_pages(table, sessions, device_link)).items():
                pages[kind] += captured

    await play_to_a_win(table, state, read_pages_mid_game)
    for tv in tvs.values():
        await tv.eventually(lambda s: s["play"] is not None and s["play"]["phase"] == "over")

    for kind in KINDS:
        frames = tvs[kind].frames
        assert len(_states(frames)) >= 10, kind  # it followed the whole game, move by move
        assert all(doc["you"] is None for doc in _states(frames)), kind
        assert key_leaks(frames) == [], kind
        assert key_leaks(pages[kind]) == [], kind
        assert all('"device_link"' not in page and token not in page for page in pages[kind]), kind
    assert all(token not in frame for tv in tvs.values() for frame in tv.frames)
    # Positive control on frames: the spymaster's own socket did carry the key.
    assert key_leaks(table["rosa"].frames)
    # CN-S2: the game over, the table shows the whole key like everyone else.
    assert '"assassin"' in tvs["spymaster"].frames[-1] or any(
        '"assassin"' in f for f in tvs["spymaster"].frames[-3:]
    )
    for tv in tvs.values():
        await tv.close()
    await table.close()
