"""Notes sheets and secrecy (DC-4, DC-30..DC-32, DC-S1..DC-S3): what each viewer receives."""

from __future__ import annotations

import json
from dataclasses import replace

from decrypto.engine import EditGuess, Mode, Rules, SaveDraft, SetNote, State, apply, role_of, view_for

from .builders import B, W, code_of, encryptor, forced, game, lock, play_round, submit, submit_all, turn_of

VIEWERS = ("w1", "w2", "b1", "b2", None, "stranger")


def text(state: State, viewer: str | None) -> str:
    return json.dumps(view_for(state, player=viewer), ensure_ascii=False)


# DC-4 / DC-30 The notes sheet is kept automatically
def test_dc4_notes_sheet_kept_by_the_app() -> None:
    assert view_for(play_round(game()), player="b2")["sheets"]["white"]["rows"]


def test_dc30_sheet_row_has_round_clues_guesses_and_code() -> None:
    state = forced(play_round(game()), white=(2, 4, 1))
    state = submit(submit(state, W, ("lemon", "tower", "snow")), B)
    state = lock(lock(state, B, (2, 4, 3)), W, (2, 4, 1))
    row = view_for(state, player=None)["sheets"]["white"]["rows"][-1]
    assert row == {
        "round": 2,
        "clues": ["lemon", "tower", "snow"],
        "guess": [2, 4, 1],
        "interception": [2, 4, 3],
        "code": [2, 4, 1],
    }
    assert {"round": 2, "clue": "tower"} in view_for(state, player="b1")["sheets"]["white"]["by_position"][
        "4"
    ]


# DC-31 Own sheet with words, opponents' without, spectators without any
def test_dc31_opponents_and_spectators_see_sheets_without_the_words() -> None:
    state = play_round(game())
    for viewer, sees in (("w2", {"white"}), ("b1", {"black"}), (None, set())):
        teams = view_for(state, player=viewer)["teams"]
        assert {t for t in ("white", "black") if teams[t]["keywords"] is not None} == sees
        assert set(view_for(state, player=viewer)["sheets"]) == {"white", "black"}


# DC-32 / DC-S3 Private notes
def test_dc32_private_notes_reach_only_the_team() -> None:
    state = apply(game(), "b2", SetNote(position=3, text="Mexico?"), now=0)
    assert view_for(state, player="b1")["teams"]["black"]["notes"] == ["", "", "Mexico?", ""]
    for viewer in ("w1", "w2", None):
        assert "Mexico?" not in text(state, viewer)


def test_dcs3_interceptor_notes_are_private_too() -> None:
    state = game(white=("ann", "bob"), black=("ivy",), rules=Rules(mode=Mode.INTERCEPTOR))
    state = apply(state, "ivy", SetNote(position=1, text="beach?"), now=0)
    assert view_for(state, player="ivy")["teams"]["black"]["notes"][0] == "beach?"
    assert all("beach?" not in text(state, v) for v in ("ann", "bob", None))


# DC-S1 Keywords and the current code
def test_dcs1_keywords_reach_only_their_team_until_the_end() -> None:
    state = game()
    for keyword in state.teams[W].keywords:
        assert all(keyword not in text(state, v) for v in ("b1", "b2", None, "stranger"))
        assert keyword in text(state, "w2")


def test_dcs1_everyone_sees_every_keyword_at_the_end() -> None:
    state = play_round(play_round(game(), white_ok=False), white_ok=False)
    for keyword in state.teams[W].keywords + state.teams[B].keywords:
        assert all(keyword in text(state, v) for v in VIEWERS)


def test_dcs1_code_reaches_only_its_encryptor_even_while_guessed() -> None:
    state = play_round(game())
    probe = replace(state, turns=state.turns.set(W, replace(turn_of(state, W), code=(4, 3, 2))))
    for moment in (lambda s: s, submit_all, lambda s: lock(submit_all(s), B, (1, 2, 3))):
        one, two = moment(state), moment(probe)
        assert code_of(one, W) != code_of(two, W)
        for viewer in VIEWERS:
            if viewer != encryptor(state, W):
                assert view_for(one, player=viewer) == view_for(two, player=viewer)  # nothing depends on it


def test_dcs1_clue_draft_reaches_only_its_encryptor() -> None:
    state = apply(game(), "w1", SaveDraft(round=1, phase="clues", clues=("secretdraft",)), now=0)
    assert view_for(state, player="w1")["encryptor"]["clues"] == ["secretdraft", "", ""]
    assert all("secretdraft" not in text(state, v) for v in ("w2", "b1", "b2", None))


# DC-S2 Guess drafts
def test_dcs2_guess_draft_visible_to_the_team_only_until_the_reveal() -> None:
    state = submit_all(play_round(game()))
    edit = EditGuess(round=2, phase="guess", guessing_for=W, code=(3, None, 1))
    state = apply(state, "b1", edit, now=0)
    assert view_for(state, player="b2")["current"]["guess"]["draft"] == [3, None, 1]
    assert view_for(state, player="w1")["current"]["guess"]["draft"] == [None, None, None]
    assert view_for(state, player=None)["current"]["guess"] is None
    state = lock(state, B, (3, 2, 1))
    assert view_for(state, player="w1")["current"]["locked"] == {"white": False, "black": True}
    assert "[3, 2, 1]" not in text(state, "w1")
    assert view_for(lock(state, W, code_of(state, W)), player="w1")["history"][-1]["interception"] == [
        3,
        2,
        1,
    ]


# Seats and the shape of each view
def test_role_of_each_seat() -> None:
    state = game()
    assert role_of(state, "w1").is_encryptor and role_of(state, "w1").team is W
    assert not role_of(state, "w2").is_encryptor
    assert role_of(state, "nobody").is_spectator and role_of(state, None).team is None


def test_every_viewer_gets_the_same_keys() -> None:
    state = submit_all(game())
    shapes = {tuple(view_for(state, player=v)) for v in VIEWERS}
    assert len(shapes) == 1
    assert view_for(state, player="b1")["seat"]["role"] == "encryptor"
    assert view_for(state, player="b2")["seat"]["tasks"] == []  # no interception in round 1
    assert view_for(state, player="w2")["seat"]["tasks"] == ["decipher"]


def test_view_is_plain_json() -> None:
    state = play_round(play_round(game()), white_intercepts=True)
    for viewer in VIEWERS:
        view = view_for(state, player=viewer)
        assert json.loads(json.dumps(view)) == view
