"""Codenames through the real consumer: whole games, secrecy of every byte, bad moves."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from rooms.models import Player
from tests.codenames.table import STANDARD, Table, act, game_state, key_leaks, open_table, room_version
from tests.conftest import Client, make_session

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def deal(table: Table, dealer: str = "rui") -> dict[str, Any]:
    reply = await act(table[dealer], {"action": "start_game"})
    assert reply["type"] == "state", reply
    return await game_state(table.slug)


def spymaster_of(team: str) -> str:
    return {"red": "rosa", "blue": "bea"}[team]


def operative_of(team: str) -> str:
    return {"red": "rui", "blue": "bo"}[team]


async def wait_all(table: Table, predicate: Any) -> None:
    for seat in table.seats.values():
        assert seat.client is not None
        await seat.client.eventually(lambda s: s["play"] is not None and predicate(s["play"]))


async def play_turn(table: Table, *, clue: str, guesses: list[int]) -> None:
    """The team on turn gives ``clue`` and confirms ``guesses`` (a propose, then a confirm)."""
    state = await game_state(table.slug)
    team = state["team"]
    reply = await act(
        table[spymaster_of(team)],
        {"action": "give_clue", "turn": state["turn"], "word": clue, "number": len(guesses)},
    )
    assert reply["type"] == "state", reply
    for position in guesses:
        state = await game_state(table.slug)
        if state["phase"] != "guess":
            return
        operative = table[operative_of(team)]
        reply = await act(operative, {"action": "propose", "turn": state["turn"], "position": position})
        assert reply["type"] == "state", reply
        reply = await act(operative, {"action": "confirm", "turn": state["turn"], "position": position})
        assert reply["type"] == "state", reply


def agents(state: dict[str, Any], team: str) -> list[int]:
    return [
        i for i, identity in enumerate(state["key"]) if identity == team and state["covered_by"][i] is None
    ]


async def page_bytes(slug: str, uid: str | None) -> str:
    def fetch() -> str:
        client = HttpClient()
        if uid:
            key = make_session(uid)
            client.cookies["sessionid"] = key
        return client.get(f"/r/{slug}/").content.decode()

    return await sync_to_async(fetch)()


async def test_deal_gives_each_seat_its_own_view(channel_layer: str) -> None:
    table = await open_table("cn-deal", STANDARD)
    rui = await act(table["rui"], {"action": "start_game"})
    rosa = await table["rosa"].state_where(lambda s: s["play"] is not None)
    sam = await table["sam"].state_where(lambda s: s["play"] is not None)
    assert len(rosa["play"]["cards"]) == 25
    assert all(card["identity"] for card in rosa["play"]["cards"])
    assert not any(card["identity"] for card in rui["play"]["cards"])
    assert not any(card["identity"] for card in sam["play"]["cards"])
    assert [c["word"] for c in rui["play"]["cards"]] == [c["word"] for c in rosa["play"]["cards"]]
    await table.close()


async def play_to_a_win(table: Table, state: dict[str, Any], after_turn: Any = None) -> dict[str, Any]:
    """Turns of three right guesses until a team wins; ``after_turn(n)`` after each."""
    turn = 0
    while state["winner"] is None and turn < 30:
        team = state["team"]
        await play_turn(table, clue=f"qxz{turn}", guesses=agents(state, team)[:3])
        state = await game_state(table.slug)
        if state["phase"] == "guess":
            reply = await act(table[operative_of(team)], {"action": "end_turn", "turn": state["turn"]})
            assert reply["type"] == "state", reply
            state = await game_state(table.slug)
        turn += 1
        if after_turn is not None:
            await after_turn(turn)
    assert state["winner"] in {"red", "blue"}
    return state


async def test_cn_s1_whole_game_secrecy_in_every_byte(channel_layer: str) -> None:
    """Play to a win; no operative or spectator byte names a hidden card (CN-S1)."""
    table = await open_table("cn-secret", STANDARD)
    await play_to_a_win(table, await deal(table))
    await wait_all(table, lambda p: p["phase"] == "over")

    pages = {name: await page_bytes(table.slug, seat.uid) for name, seat in table.seats.items()}
    visitor_page = await page_bytes(table.slug, None)
    for name in ("rui", "bo", "sam"):
        assert key_leaks(table[name].frames) == [], name
    # Mid-game pages too: deal again and read the pages before anything is covered.
    await act(table["rui"], {"action": "start_game"})
    await wait_all(table, lambda p: p["number"] == 2)
    for name in ("rui", "bo", "sam"):
        assert key_leaks([await page_bytes(table.slug, table.seats[name].uid)]) == [], name
    assert key_leaks([await page_bytes(table.slug, None)]) == []
    # The positive control: the same checker finds the key in a spymaster's capture.
    assert key_leaks(table["rosa"].frames)
    assert key_leaks([await page_bytes(table.slug, table.seats["bea"].uid)])
    # CN-S2: at the end, everyone's last state shows the whole key.
    last_over = [f for f in table["sam"].frames if '"phase":"over"' in f][-1]
    assert '"assassin"' in last_over
    assert pages and visitor_page
    await table.close()


async def test_cn16_double_tap_applies_once(channel_layer: str) -> None:
    table = await open_table("cn-double", STANDARD)
    state = await deal(table)
    team = state["team"]
    await act(
        table[spymaster_of(team)], {"action": "give_clue", "turn": state["turn"], "word": "qxz", "number": 2}
    )
    state = await game_state(table.slug)
    target = agents(state, team)[0]
    operative = table[operative_of(team)]
    message = {"action": "confirm", "turn": state["turn"], "position": target}
    await operative.send(message)
    await operative.send(message)
    replies = [await operative.receive(), await operative.receive()]
    while not any(r["type"] == "error" for r in replies):
        replies.append(await operative.receive())
    error = next(r for r in replies if r["type"] == "error")
    assert error["code"] in {"stale", "card_covered"}
    saved = await game_state(table.slug)
    assert saved["guesses_made"] == 1
    assert sum(1 for by in saved["covered_by"] if by is not None) == 1
    await table.close()


def _visible_word(state: dict[str, Any]) -> str:
    return next(w for w, by in zip(state["words"], state["covered_by"], strict=True) if by is None)


BAD_MOVES = [
    ("rosa", lambda s: {"action": "confirm", "turn": s["turn"], "position": 0}, "not_operative"),
    ("bea", lambda s: {"action": "give_clue", "turn": s["turn"], "word": "x", "number": 1}, "not_your_turn"),
    ("sam", lambda s: {"action": "propose", "turn": s["turn"], "position": 3}, "not_seated"),
    ("rui", lambda s: {"action": "give_clue", "turn": s["turn"], "word": "x", "number": 1}, "not_spymaster"),
    ("rosa", lambda s: {"action": "give_clue", "turn": s["turn"] + 1, "word": "x", "number": 1}, "stale"),
    (
        "rosa",
        lambda s: {"action": "give_clue", "turn": s["turn"], "word": _visible_word(s).upper(), "number": 1},
        "clue_on_board",
    ),
    (
        "rosa",
        lambda s: {"action": "give_clue", "turn": s["turn"], "word": "two words", "number": 1},
        "clue_has_space",
    ),
    ("rosa", lambda s: {"action": "give_clue", "turn": s["turn"], "word": "ok", "number": 10}, "bad_action"),
    (
        "rosa",
        lambda s: {"action": "give_clue", "turn": s["turn"], "word": "ok", "number": True},
        "bad_action",
    ),
    ("rosa", lambda s: {"action": "give_clue", "turn": s["turn"], "word": "ok"}, "bad_action"),
    (
        "rosa",
        lambda s: {"action": "give_clue", "turn": s["turn"], "word": "z" * 500, "number": 1},
        "bad_action",
    ),
    ("rosa", lambda s: {"action": "propose", "turn": s["turn"], "position": 25}, "bad_action"),
    ("rosa", lambda s: {"action": "start_game", "mode": "chess"}, "confirm_abandon"),
    ("rosa", lambda s: {"action": "start_game", "confirm": "yes"}, "bad_action"),
]


async def test_wrong_moves_are_refused_and_change_nothing(channel_layer: str) -> None:
    """Each wrong move (role, turn, stale, CN-10, malformed) gets its error; nothing changes."""
    table = await open_table("cn-bad-moves", STANDARD)
    state = await deal(table)
    if state["team"] == "blue":  # make the moves read the same whichever team starts
        state = await _swap_so_red_starts(table, state)
    for who, build, code in BAD_MOVES:
        before_state, before_version = await game_state(table.slug), await room_version(table.slug)
        reply = await act(table[who], build(state))
        assert reply["type"] == "error" and reply["code"] == code, (who, code, reply)
        assert await game_state(table.slug) == before_state, code
        assert await room_version(table.slug) == before_version, code
    await table.close()


async def _swap_so_red_starts(table: Table, state: dict[str, Any]) -> dict[str, Any]:
    # Blue's turn first: give a clue and end it, so red is on turn with a fresh clue phase.
    await act(table["bea"], {"action": "give_clue", "turn": state["turn"], "word": "qxz", "number": 1})
    state = await game_state(table.slug)
    target = agents(state, "blue")[0]
    await act(table["bo"], {"action": "confirm", "turn": state["turn"], "position": target})
    state = await game_state(table.slug)
    await act(table["bo"], {"action": "end_turn", "turn": state["turn"]})
    state = await game_state(table.slug)
    assert state["team"] == "red" and state["phase"] == "clue"
    return state


async def test_spymaster_who_saw_the_key_cannot_become_an_operative(channel_layer: str) -> None:
    table = await open_table("cn-seats", STANDARD)
    await deal(table)
    reply = await act(table["rosa"], {"action": "sit", "team": "red", "role": "operative"})
    assert reply["type"] == "error" and reply["code"] == "key_seen"
    # Watching is allowed, and an operative may still move teams.
    reply = await act(table["rosa"], {"action": "sit", "team": "", "role": "spectator"})
    assert reply["type"] == "state" and reply["play"]["sees_key"] is False
    reply = await act(table["rosa"], {"action": "sit", "team": "blue", "role": "operative"})
    assert reply["type"] == "error" and reply["code"] == "key_seen"
    await table.close()


async def test_cn19_next_game_needs_confirmation_while_one_runs(channel_layer: str) -> None:
    table = await open_table("cn-next", STANDARD)
    first = await deal(table)
    reply = await act(table["rui"], {"action": "start_game"})
    assert reply["type"] == "error" and reply["code"] == "confirm_abandon"
    reply = await act(table["rui"], {"action": "start_game", "confirm": True})
    assert reply["type"] == "state"
    second = await game_state(table.slug)
    assert not set(second["words"]) & set(first["words"]), "consecutive games reuse no words"
    await table.close()


async def test_cn19_rotate_spymasters_between_games(channel_layer: str) -> None:
    layout = [*STANDARD, ("rex", "red", "operative")]
    table = await open_table("cn-rotate", layout)
    reply = await act(table["rui"], {"action": "rotate_spymasters"})
    assert reply["type"] == "state"
    roles = await sync_to_async(
        lambda: {p.name: p.role for p in Player.objects.filter(room__slug="cn-rotate")}
    )()
    assert roles["rosa"] == "operative" and roles["rui"] == "spymaster"
    assert roles["bea"] == "operative" and roles["bo"] == "spymaster"
    await table.close()


async def test_cn_s3_key_on_a_second_device_and_revocation(channel_layer: str) -> None:
    table = await open_table("cn-device", STANDARD)
    await deal(table)
    reply = await act(table["rosa"], {"action": "device_link"})
    link = reply["you"]["device_link"]
    token = link.rstrip("/").split("/")[-1]
    assert len(token) >= 43  # 256 bits, url-safe
    others = [f for name in ("rui", "bo", "bea", "sam") for f in table[name].frames]
    assert not any(token in f for f in others), "only its holder ever sees the link"

    phone = _device_client("cn-device", token)
    state = await phone.connect()
    assert state["you"]["name"] == "rosa" and state["you"]["device"] is True
    assert all(card["identity"] for card in state["play"]["cards"])
    # The phone can give the clue too (CN-S3) when it is red's turn.
    saved = await game_state("cn-device")
    if saved["team"] == "red":
        reply = await act(phone, {"action": "give_clue", "turn": saved["turn"], "word": "qxz", "number": 1})
        assert reply["type"] == "state" and reply["play"]["clue"]["word"] == "qxz"
    # Lobby actions are not the phone's to take.
    reply = await act(phone, {"action": "sit", "team": "blue", "role": "operative"})
    assert reply["type"] == "error"

    await act(table["rosa"], {"action": "device_link", "regenerate": True})
    error = await phone.receive_type("error")
    assert error["code"] == "link_revoked"
    assert (await phone.comm.receive_output(timeout=5))["type"] == "websocket.close"
    await table.close()


def _device_client(slug: str, token: str) -> Client:
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    client = Client(slug)
    client.comm = WebsocketCommunicator(
        application, f"/ws/r/{slug}/device/{token}/", headers=[(b"origin", b"http://localhost")]
    )
    return client


async def test_unknown_device_link_is_refused(channel_layer: str) -> None:
    await open_table("cn-nolink", STANDARD[:1])
    phone = _device_client("cn-nolink", "x" * 43)
    connected, _ = await phone.comm.connect(timeout=5)
    assert connected
    assert (await phone.receive_type("error"))["code"] == "link_revoked"
    response = await sync_to_async(lambda: HttpClient().get(f"/r/cn-nolink/device/{'x' * 43}/"))()
    assert response.status_code == 404


async def test_cn20_cn21_rejected_clue_ends_the_turn_and_offers_a_penalty_cover(channel_layer: str) -> None:
    table = await open_table("cn-challenge", STANDARD)
    state = await deal(table)
    team = state["team"]
    other = "blue" if team == "red" else "red"
    await act(
        table[spymaster_of(team)], {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2}
    )
    state = await game_state(table.slug)
    # Only the opposing spymaster may reject (CN-20).
    reply = await act(table[operative_of(other)], {"action": "reject_clue", "turn": state["turn"]})
    assert reply["type"] == "error"
    reply = await act(table[spymaster_of(other)], {"action": "reject_clue", "turn": state["turn"]})
    assert reply["type"] == "state"
    assert reply["play"]["log"][-1]["rejected"] is True and reply["play"]["team"] == other
    assert reply["play"]["penalty_owed"] == other
    state = await game_state(table.slug)
    # CN-21: before their own clue, the challenger may cover one of their own agents.
    wrong = next(i for i, who in enumerate(state["key"]) if who == team)
    reply = await act(
        table[spymaster_of(other)], {"action": "penalty_cover", "turn": state["turn"], "position": wrong}
    )
    assert reply["type"] == "error" and reply["code"] == "not_own_agent"
    mine = agents(state, other)[0]
    reply = await act(
        table[spymaster_of(other)], {"action": "penalty_cover", "turn": state["turn"], "position": mine}
    )
    assert reply["type"] == "state" and reply["play"]["cards"][mine]["covered"]
    assert reply["play"]["penalty_owed"] is None and reply["play"]["phase"] == "clue"
    await table.close()
