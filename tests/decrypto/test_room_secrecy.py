"""DC-S1..DC-S3 in every byte: frames and pages, per seat, with positive controls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from decrypto import services
from tests.decrypto.table import (
    FOUR,
    Secrets,
    Table,
    act,
    exposed,
    game_state,
    guess_stamp,
    lock,
    open_table,
    page_bytes,
    play_round,
    secrets_of,
    submit_clues,
    wait_all,
    write_pack,
    wrong,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WHITE_NOTE = "zqnote-white-mexico"
BLACK_NOTE = "zqnote-black-beach"
WHITE_DRAFT = [4, 4, 4]  # repeats: never a code, so only a draft can show it
BLACK_DRAFT = [3, 3, 3]


@pytest.fixture(autouse=True)
def _token_pack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(services, "WORDS_DIR", write_pack(tmp_path))


async def captures(table: Table, name: str, pages: dict[str, list[str]]) -> list[str]:
    frames = table[name].frames if name in table.seats else []
    return frames + pages.get(name, [])


async def read_pages(table: Table, pages: dict[str, list[str]]) -> None:
    """Every seat's page (GET /r/<slug>/ with its session) and a visitor's, as of now."""
    for name, seat in table.seats.items():
        pages.setdefault(name, []).append(await page_bytes(table.slug, seat.uid))
    pages.setdefault("visitor", []).append(await page_bytes(table.slug, None))


def plays(frames: list[str]) -> list[dict[str, Any]]:
    docs = [json.loads(f) for f in frames]
    return [d["play"] for d in docs if d.get("type") == "state" and d.get("play") is not None]


async def test_dcs1_dcs3_nothing_secret_reaches_the_other_team_or_spectators(channel_layer: str) -> None:
    table = await open_table("dc-secret", FOUR)
    pages: dict[str, list[str]] = {}
    await read_pages(table, pages)  # the lobby, before the deal
    reply = await act(table["amy"], {"action": "start_game"})
    assert reply["type"] == "state"
    state = await game_state(table.slug)
    secrets = Secrets(texts={"white": [WHITE_NOTE], "black": [BLACK_NOTE]})
    secrets.record(1, state)

    # DC-32 notes, a clue draft (the Encryptor's own, DC-8), then the clues (round 1).
    await act(table["amy"], {"action": "set_note", "position": 1, "text": WHITE_NOTE})
    await act(table["ben"], {"action": "set_note", "position": 4, "text": BLACK_NOTE})
    await act(
        table["bob"], {"action": "save_draft", "round": 1, "phase": "clues", "clues": ["zqdraft", "", ""]}
    )
    secrets.texts["black"].append("zqdraft")
    await read_pages(table, pages)
    await submit_clues(table, "white")
    await submit_clues(table, "black")
    await read_pages(table, pages)

    # Round 1, White's code: Amy writes a draft; round 2 drafts on both sides (DC-S2).
    state = await game_state(table.slug)
    await act(table["amy"], {"action": "edit_guess", **guess_stamp(state), "code": WHITE_DRAFT})
    await read_pages(table, pages)
    await lock(table, "white", state["turns"]["white"]["code"])
    state = await game_state(table.slug)
    await lock(table, "black", state["turns"]["black"]["code"])
    state = await game_state(table.slug)
    secrets.record(1, state)
    await submit_clues(table, "white")
    await submit_clues(table, "black")
    state = await game_state(table.slug)
    await act(table["bob"], {"action": "edit_guess", **guess_stamp(state), "code": BLACK_DRAFT})
    secrets.drafts = {"white": [WHITE_DRAFT], "black": [BLACK_DRAFT]}
    await read_pages(table, pages)

    # Play on to the end so the capture covers every phase, then read every socket.
    code = state["turns"]["white"]["code"]
    await lock(table, "black", code)
    await lock(table, "white", code)
    state = await game_state(table.slug)
    await lock(table, "white", wrong(state["turns"]["black"]["code"]))
    await lock(table, "black", state["turns"]["black"]["code"])
    state = await game_state(table.slug)
    while state["phase"] != "over":
        secrets.record(1, state)
        state = await play_round(table, intercepts={"black": True})
    await wait_all(table, lambda p: p["phase"] == "over")
    await read_pages(table, pages)

    white_eyes = {name: await captures(table, name, pages) for name in ("ann", "amy")}
    black_eyes = {name: await captures(table, name, pages) for name in ("bob", "ben")}
    outsiders = {name: await captures(table, name, pages) for name in ("sam", "visitor")}
    for name, capture in white_eyes.items():
        assert secrets_of("black", exposed(capture, secrets)) == set(), name
    for name, capture in black_eyes.items():
        assert secrets_of("white", exposed(capture, secrets)) == set(), name
    for name, capture in outsiders.items():
        assert exposed(capture, secrets) == set(), name
    # DC-6: the code reaches its Encryptor only, not the Encryptor's teammates.
    assert {x for x in exposed(white_eyes["amy"], secrets) if x.startswith("code:1:")} == set()
    assert {x for x in exposed(black_eyes["ben"], secrets) if x.startswith("code:1:")} == set()
    for name in ("amy", "ben", "sam"):
        for play in plays(table[name].frames):
            if play["round"] == 1:
                assert play["encryptor"] is None, name

    # Positive controls: the same checker finds each secret in the entitled seat's capture.
    for name, capture in white_eyes.items():
        assert {"keyword:white", "note:white"} <= exposed(capture, secrets), name
    assert "draft:white" in exposed(table["amy"].frames, secrets)
    assert "draft:white" in exposed(table["ann"].frames, secrets)  # DC-10: the Encryptor watches
    assert {"keyword:black", "note:black", "draft:black"} <= exposed(black_eyes["ben"], secrets)
    assert "code:1:white" in exposed(table["ann"].frames, secrets)
    assert "code:1:black" in exposed(table["bob"].frames, secrets)
    assert "code:1:white" in exposed(pages["ann"], secrets)  # the page renders the same view
    # And at the end everyone sees both screens (DC-S1).
    last = plays(table["sam"].frames)[-1]
    assert last["teams"]["white"]["keywords"] and last["teams"]["black"]["keywords"]
    await table.close()
