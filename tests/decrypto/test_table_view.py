"""The table view (a TV) is a visitor's view whoever opens it (DC-S1..DC-S3).

Opened from an Encryptor's browser, a teammate's, a spectator's, a device link's or a
stranger's, its pages and every frame of a whole game carry no keyword, code, note or
draft that a visitor may not see.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from decrypto import services
from rooms.models import Player
from rooms.services import room_device_link
from tests.conftest import Client
from tests.decrypto.table import (
    FOUR,
    Secrets,
    Table,
    act,
    exposed,
    game_state,
    guess_stamp,
    lock,
    make_session,
    open_table,
    play_round,
    room_version,
    submit_clues,
    write_pack,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

KINDS = ("encryptor", "teammate", "spectator", "device", "visitor")
SEAT_OF_KIND = {"encryptor": "ann", "teammate": "amy", "spectator": "sam"}
WHITE_NOTE = "zqnote-white-tv"
BLACK_NOTE = "zqnote-black-tv"


@pytest.fixture(autouse=True)
def _token_pack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(services, "WORDS_DIR", write_pack(tmp_path))


async def table_pages(slug: str, sessions: dict[str, str | None], device_link: str) -> dict[str, list[str]]:
    def fetch() -> dict[str, list[str]]:
        pages: dict[str, list[str]] = {}
        for kind, cookie in sessions.items():
            client = HttpClient()
            if cookie:
                client.cookies["sessionid"] = cookie
            via_room = client.get(f"/r/{slug}/?table=1", follow=True)
            assert via_room.redirect_chain == [(f"/r/{slug}/table/", 302)]
            pages[kind] = [client.get(f"/r/{slug}/table/").content.decode(), via_room.content.decode()]
        via_device = HttpClient().get(f"{device_link}?table=1", follow=True)
        assert via_device.redirect_chain == [(f"/r/{slug}/table/", 302)]
        pages["device"].append(via_device.content.decode())
        return pages

    return await sync_to_async(fetch)()


async def add_pages(
    pages: dict[str, list[str]], table: Table, sessions: dict[str, str | None], link: str
) -> None:
    for kind, captured in (await table_pages(table.slug, sessions, link)).items():
        pages.setdefault(kind, []).extend(captured)


async def test_dcs1_table_view_from_every_seat_carries_no_secret(channel_layer: str) -> None:
    table = await open_table("dc-tv", FOUR)
    uid_of = {name: seat.uid for name, seat in table.seats.items()}
    await sync_to_async(room_device_link)(slug=table.slug, uid=uid_of["ann"], regenerate=False)
    token = await sync_to_async(
        lambda: Player.objects.get(room__slug="dc-tv", uid=uid_of["ann"]).device_token
    )()
    link = f"/r/{table.slug}/device/{token}/"
    sessions: dict[str, str | None] = {
        kind: await sync_to_async(make_session)(uid_of[name]) for kind, name in SEAT_OF_KIND.items()
    }
    sessions["device"] = None  # a device link's browser holds the link, no session
    sessions["visitor"] = None
    tvs = {kind: Client(table.slug, sessions[kind], path=f"/ws/r/{table.slug}/table/") for kind in KINDS}
    for tv in tvs.values():
        assert (await tv.connect())["you"] is None
    pages: dict[str, list[str]] = {}
    await add_pages(pages, table, sessions, link)

    assert (await act(table["amy"], {"action": "start_game"}))["type"] == "state"
    state = await game_state(table.slug)
    assert state["turns"]["white"]["encryptor"] == table.id("ann")  # DC-5: the first seated encrypts
    secrets = Secrets(texts={"white": [WHITE_NOTE], "black": [BLACK_NOTE]})
    secrets.record(1, state)
    await act(table["amy"], {"action": "set_note", "position": 1, "text": WHITE_NOTE})
    await act(table["ben"], {"action": "set_note", "position": 2, "text": BLACK_NOTE})
    await act(
        table["ann"], {"action": "save_draft", "round": 1, "phase": "clues", "clues": ["zqdrafttv", "", ""]}
    )
    secrets.texts["white"].append("zqdrafttv")
    await add_pages(pages, table, sessions, link)  # the Encryptor is writing: the code is out

    before = await room_version(table.slug)
    refused = await act(tvs["encryptor"], {"action": "set_note", "position": 1, "text": "from the tv"})
    assert refused["type"] == "error" and refused["code"] == "table_view"
    assert await room_version(table.slug) == before

    await submit_clues(table, "white")
    await submit_clues(table, "black")
    state = await game_state(table.slug)
    await act(table["amy"], {"action": "edit_guess", **guess_stamp(state), "code": [4, 4, 4]})
    secrets.drafts = {"white": [[4, 4, 4]]}
    await add_pages(pages, table, sessions, link)
    await lock(table, "white", state["turns"]["white"]["code"])
    state = await game_state(table.slug)
    await lock(table, "black", state["turns"]["black"]["code"])
    state = await game_state(table.slug)
    while state["phase"] != "over":
        secrets.record(1, state)
        state = await play_round(table, intercepts={"black": True})
        if state["round"] == 3:
            await add_pages(pages, table, sessions, link)
    for tv in tvs.values():
        await tv.eventually(lambda s: s["play"] is not None and s["play"]["phase"] == "over")
    await add_pages(pages, table, sessions, link)

    for kind in KINDS:
        assert exposed(tvs[kind].frames, secrets) == set(), kind
        assert exposed(pages[kind], secrets) == set(), kind
        assert all(token not in capture for capture in tvs[kind].frames + pages[kind]), kind
    # Positive controls: the same checker finds the secrets in the Encryptor's own socket.
    assert {"keyword:white", "note:white", "code:1:white"} <= exposed(table["ann"].frames, secrets)
    assert "draft:white" in exposed(table["ann"].frames, secrets)
    for tv in tvs.values():
        await tv.close()
    await table.close()
