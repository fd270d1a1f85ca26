"""DC-S1..DC-S2 with bot seats: every byte the people at the table receive while bots play
beside and against them, read with the same checker as the secrecy tests of the game."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from bots import play as bot_play
from bots import seats
from decrypto import services
from tests.decrypto.table import (
    Secrets,
    act,
    exposed,
    game_state,
    guess_stamp,
    open_table,
    secrets_of,
    submit_clues,
    wait_all,
    write_pack,
    wrong,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
HUMANS = {"white": "ann", "black": "bob"}


@pytest.fixture(autouse=True)
def _token_pack(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(services, "WORDS_DIR", write_pack(tmp_path))


def _run_bots() -> int:
    moves, later = 0, time.time() + 3600
    while (made := bot_play.step(later)) > 0:
        moves += made
    return moves


async def test_dcs1_bots_beside_people_leak_nothing_to_the_other_team_or_spectators(
    channel_layer: str,
) -> None:
    table = await open_table("dc-bot-secret", [("ann", "white"), ("bob", "black"), ("sam", "")])
    for team in ("white", "black"):
        await sync_to_async(seats.add_bot)(
            slug=table.slug, uid=table.seats["ann"].uid, team=team, role="player"
        )
    reply = await act(table["ann"], {"action": "start_game"})
    assert reply["type"] == "state", reply
    secrets = Secrets()
    bot_moves = 0
    for _ in range(60):
        state = await game_state(table.slug)
        if state["phase"] != "clues" and state["phase"] != "guess" or state["round"] > 3:
            break
        secrets.record(1, state)
        bot_moves += await sync_to_async(_run_bots)()
        state = await game_state(table.slug)
        secrets.record(1, state)
        if state["phase"] == "clues":
            # Round 1: the people joined first, so they encrypt (DC-5); then the bots do.
            for team, name in HUMANS.items():
                turn = state["turns"][team]
                if turn["encryptor"] == table.id(name) and not turn["submitted"]:
                    await submit_clues(table, team)
        elif state["phase"] == "guess":
            target = state["guessing_for"]
            guessing = (
                [target] if state["round"] == 1 else [target, "black" if target == "white" else "white"]
            )
            for team, name in HUMANS.items():
                encrypting = team == target and state["turns"][team]["encryptor"] == table.id(name)
                if team in guessing and state["locked"][team] is None and not encrypting:
                    # People read their own code right and miss interceptions: the game goes on.
                    code = state["turns"][target]["code"]
                    guess = code if team == target else wrong(code)
                    reply = await act(
                        table[name], {"action": "lock_guess", **guess_stamp(state), "code": guess}
                    )
                    assert reply["type"] == "state", reply
                    break
    assert bot_moves >= 6  # the bots encrypted, deciphered and intercepted along the way
    assert (await game_state(table.slug))["round"] >= 3
    await wait_all(table, lambda p: p["round"] >= 3 or p["phase"] == "over")

    assert secrets_of("black", exposed(table["ann"].frames, secrets)) == set()
    assert secrets_of("white", exposed(table["bob"].frames, secrets)) == set()
    assert exposed(table["sam"].frames, secrets) == set()
    # Positive control: the checker does find each team's keywords in its own player's frames.
    assert "keyword:white" in exposed(table["ann"].frames, secrets)
    assert "keyword:black" in exposed(table["bob"].frames, secrets)
    await table.close()
