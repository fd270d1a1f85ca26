"""Facts the server derives for the browser (docs/protocol.md): the deal a lobby offers,
the house-rule timers' ranges, and the clue checks' folded forms (Python's casefold)."""

from __future__ import annotations

from typing import Any

import pytest

from codenames import services as codenames_rules
from codenames.game import GAME as CODENAMES
from decrypto import services as decrypto_rules
from decrypto.engine import view_for
from rooms.changes import locked_room
from rooms.services import room_join, room_set_game, room_sit
from rooms.state import empty_snapshot, load_snapshot
from tests.decrypto.builders import B, W, encryptor, game, guess_code, submit, with_keywords

pytestmark = pytest.mark.django_db


def _seat(slug: str, seats: list[tuple[str, str]], game_name: str = "codenames") -> dict[str, Any]:
    for i, (team, role) in enumerate(seats):
        room_join(slug=slug, uid=f"{slug}-{i}", name=f"P{i}")
        if i == 0 and game_name != "codenames":
            room_set_game(slug=slug, uid=f"{slug}-0", game=game_name)
        room_sit(slug=slug, uid=f"{slug}-{i}", team=team, role=role)
    return load_snapshot(slug)["base"]


@pytest.mark.parametrize(
    ("seats", "mode", "ready"),
    [
        ([("red", "spymaster"), ("red", "operative")], "coop", True),
        ([("red", "spymaster"), ("blue", "spymaster"), ("red", "operative")], "three", True),
        ([("red", "spymaster"), ("red", "operative"), ("blue", "operative")], "standard", False),
        (
            [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")],
            "standard",
            True,
        ),
    ],
)
def test_codenames_lobby_is_told_the_deal_the_seats_allow(seats: list[Any], mode: str, ready: bool) -> None:
    base = _seat("facts-cn", seats)
    assert base["deal"] == {"mode": mode, "ready": ready}
    # The same answer as dealing: a ready lobby deals that mode, an unready one is refused.
    with locked_room("facts-cn") as room:
        players = list(room.players.all())
        assert codenames_rules.seats_ready(players) == (codenames_rules.infer_mode(players), ready)


@pytest.mark.parametrize(
    ("seats", "mode", "ready"),
    [
        ([("white", "player"), ("white", "player"), ("black", "player")], "interceptor", True),
        ([("white", "player"), ("white", "player"), ("white", "player")], "interceptor", False),
        (
            [("white", "player"), ("white", "player"), ("black", "player"), ("black", "player")],
            "standard",
            True,
        ),
        ([("white", "player")] * 2 + [("black", "player")] * 5, "standard", False),
    ],
)
def test_decrypto_lobby_is_told_the_deal_the_seats_allow(seats: list[Any], mode: str, ready: bool) -> None:
    assert _seat("facts-dc", seats, "decrypto")["deal"] == {"mode": mode, "ready": ready}


def test_timers_ranges_are_the_ones_the_server_checks() -> None:
    codenames = _seat("facts-timers", [("red", "spymaster")])["timers"]
    low, high = codenames_rules.TIMER_RANGE
    assert codenames == {
        "clue_seconds": {"min": low, "max": high, "step": 10, "default": 120},
        "guess_seconds": {"min": low, "max": high, "step": 10, "default": 90},
    }
    room_set_game(slug="facts-timers", uid="facts-timers-0", game="decrypto")
    low, high = decrypto_rules.TIMER_RANGE
    assert load_snapshot("facts-timers")["base"]["timers"] == {
        "timer_seconds": {"min": low, "max": high, "step": 5, "default": decrypto_rules.DEFAULT_TIMER}
    }
    # A room nobody has joined shows its default game's lobby: its facts come too.
    assert {"deal", "timers"} <= set(empty_snapshot("facts-nobody")["base"])


def test_codenames_spymasters_get_the_board_words_casefolded() -> None:
    state = CODENAMES.engine.new_game(
        words=["Straße", "ΣΟΦΌΣ", *[f"word{i}" for i in range(23)]],
        seed=1,
        rules=CODENAMES.engine.Rules(),
        now=0.0,
    )

    class Record:
        number = 1
        bot_notes: dict[str, str] = {}

    spymaster = CODENAMES.view(Record(), state, "spymaster")  # type: ignore[arg-type]
    table = CODENAMES.view(Record(), state, "table")  # type: ignore[arg-type]
    folded = dict(zip(state.words, spymaster["folded_words"], strict=True))
    # casefold, not lower(): "ß" is "ss" and a final sigma folds like any sigma.
    assert folded["Straße"] == "strasse" and folded["ΣΟΦΌΣ"] == "σοφόσ"
    assert "folded_words" not in table


def test_decrypto_encryptor_gets_its_checks_folded_and_no_one_else() -> None:
    state = with_keywords(game(), W, ("Straße", "Über", "apple", "river"))
    writer = encryptor(state, W)
    panel = view_for(state, player=writer)["encryptor"]
    assert panel["taken"]["keywords"] == ["strasse", "uber", "apple", "river"]
    assert panel["taken"]["used"] == []
    # Sent, the panel has nothing left to check.
    sent = submit(state, W, ("Maße", "b", "c"))
    assert "taken" not in view_for(sent, player=writer)["encryptor"]
    # Next round the team's given clues are listed, folded, for its new Encryptor only.
    later = guess_code(guess_code(submit(submit(state, W, ("Maße", "Two  Words", "c")), B)))
    panels = {p: view_for(later, player=p)["encryptor"] for p in ("w1", "w2", "b1", "b2")}
    assert panels[encryptor(later, W)]["taken"]["used"] == ["c", "masse", "two words"]
    assert [p for p, panel in panels.items() if panel is not None] == [
        encryptor(later, W),
        encryptor(later, B),
    ]
