"""What each screen may see: CN-6, CN-23, CN-S1, CN-S2."""

from __future__ import annotations

import json
from dataclasses import replace

from codenames.engine import Propose, RejectClue, Rules, Team, view_for

from .builders import ASSASSIN, BLUE_OP, BLUE_SPY, BYSTANDER, RED_OP, act, clue, guess, make_state


def test_cns1_operatives_see_no_identity_of_an_uncovered_card() -> None:
    state = guess(clue(make_state(), number=2), 0)
    view = view_for(state, sees_key=False)
    assert view["cards"][0]["identity"] == "red"
    assert all(card["identity"] is None for card in view["cards"][1:])
    assert "key" not in view and view["sees_key"] is False


def test_cns1_view_does_not_depend_on_hidden_identities() -> None:
    # Swapping two uncovered cards' identities must not change a byte of the public view.
    state = guess(clue(make_state(), number=2), 0)
    key = list(state.key)
    key[1], key[ASSASSIN] = key[ASSASSIN], key[1]
    swapped = replace(state, key=tuple(key))
    public = json.dumps(view_for(state, sees_key=False), sort_keys=True)
    assert public == json.dumps(view_for(swapped, sees_key=False), sort_keys=True)
    assert view_for(state, sees_key=True) != view_for(swapped, sees_key=True)


def test_cn6_spymasters_see_the_whole_key() -> None:
    view = view_for(make_state(), sees_key=True)
    assert [card["identity"] for card in view["cards"]] == [identity.value for identity in make_state().key]


def test_cns2_everyone_sees_the_key_after_the_end() -> None:
    state = guess(clue(make_state()), ASSASSIN)
    view = view_for(state, sees_key=False)
    assert all(card["identity"] is not None for card in view["cards"])
    assert (view["phase"], view["winner"], view["reason"]) == ("over", "blue", "assassin")


def test_cn23_clue_log_is_shown_to_everyone_in_order() -> None:
    state = guess(clue(make_state(), "river", 2), 0, BYSTANDER)
    state = act(clue(state, "moon", 0), BLUE_OP, Propose(state.turn + 1, 3))
    view = view_for(state, sees_key=False)
    assert view["log"] == [
        {"team": "red", "word": "river", "number": 2, "guesses": [0, BYSTANDER], "rejected": False},
        {"team": "blue", "word": "moon", "number": 0, "guesses": [], "rejected": False},
    ]


def test_cn23_rejected_clue_is_marked_in_the_log() -> None:
    state = clue(make_state(), "river", 2)
    state = act(state, BLUE_SPY, RejectClue(state.turn))
    assert view_for(state, sees_key=False)["log"][-1]["rejected"] is True


def test_view_shape_for_the_ui() -> None:
    state = clue(make_state(rules=Rules(guess_seconds=60)), "river", 2, now=100.0)
    state = act(state, RED_OP, Propose(state.turn, 4), now=101.0)
    view = view_for(state, sees_key=False)
    assert view["clue"] == {"team": "red", "word": "river", "number": 2, "guesses": [], "rejected": False}
    assert (view["team"], view["phase"], view["guesses_left"], view["deadline"]) == ("red", "guess", 3, 160.0)
    assert view["proposals"] == {"red-op": 4}
    assert view["remaining"] == {"red": 9, "blue": 8}
    assert view["rules"]["guess_seconds"] == 60
    assert view["cards"][4] == {
        "position": 4,
        "word": "engine",
        "covered": False,
        "covered_by": None,
        "identity": None,
    }
    json.dumps(view)  # plain JSON, ready to send


def test_view_remaining_counts_follow_covers() -> None:
    state = guess(clue(make_state()), 9)
    assert view_for(state, sees_key=False)["remaining"] == {"red": 9, "blue": 7}
    assert state.team is Team.BLUE
