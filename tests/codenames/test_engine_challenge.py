"""Invalid clues and the timer: CN-20, CN-21, CN-24, CN-28."""

from __future__ import annotations

import pytest

from codenames.engine import (
    Confirm,
    GiveClue,
    Identity,
    PenaltyCover,
    Phase,
    Propose,
    RejectClue,
    RuleError,
    Rules,
    State,
    Team,
    deadline,
    expire,
    outcome,
    state_from_json,
    state_to_json,
)

from .builders import (
    BLUE_OP,
    BLUE_SPY,
    BYSTANDER,
    RED_OP,
    RED_SPY,
    act,
    clue,
    cover_all_but,
    guess,
    make_state,
    refused,
)

TIMED = Rules(clue_seconds=120, guess_seconds=90)


def rejected() -> State:
    """Red gives a clue and blue's spymaster rejects it."""
    state = clue(make_state(), "river", 2)
    return act(state, BLUE_SPY, RejectClue(state.turn))


def test_cn20_opposing_spymaster_rejects_during_guessing() -> None:
    state = guess(clue(make_state(), "river", 2), 0)
    state = act(state, BLUE_SPY, RejectClue(state.turn))
    assert state.log[-1].rejected and state.log[-1].guesses == (0,)
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


def test_cn20_own_spymaster_cannot_reject() -> None:
    state = clue(make_state())
    assert refused(state, RED_SPY, RejectClue(state.turn)) == "own_clue"


def test_cn20_operatives_cannot_reject() -> None:
    state = clue(make_state())
    assert refused(state, BLUE_OP, RejectClue(state.turn)) == "not_spymaster"


def test_cn20_clue_cannot_be_rejected_after_its_turn() -> None:
    state = guess(clue(make_state()), BYSTANDER)  # turn over: the clue counts as valid
    assert refused(state, BLUE_SPY, RejectClue(state.turn)) == "wrong_phase"
    assert not state.log[-1].rejected


def test_cn21_rejection_owes_the_challenger_a_penalty_cover() -> None:
    state = rejected()
    assert state.penalty_owed is Team.BLUE


def test_cn21_penalty_cover_covers_one_own_agent_before_the_clue() -> None:
    state = rejected()
    state = act(state, BLUE_SPY, PenaltyCover(state.turn, 9))
    assert state.covered_by[9] is Team.BLUE and state.penalty_owed is None
    assert state.agents_left(Team.BLUE) == 7
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)
    assert refused(state, BLUE_SPY, PenaltyCover(state.turn, 10)) == "no_penalty"


def test_cn21_penalty_cover_must_be_own_agent() -> None:
    state = rejected()
    assert refused(state, BLUE_SPY, PenaltyCover(state.turn, 0)) == "not_own_agent"
    assert refused(state, BLUE_SPY, PenaltyCover(state.turn, 24)) == "not_own_agent"


def test_cn21_only_the_challenger_gets_the_penalty() -> None:
    state = clue(make_state())
    assert refused(state, RED_SPY, PenaltyCover(state.turn, 0)) == "no_penalty"


def test_cn21_giving_a_clue_forfeits_the_penalty() -> None:
    state = rejected()
    state = clue(state, "moon", 1)
    assert state.penalty_owed is None and state.team is Team.BLUE


def test_cn21_penalty_cover_can_win() -> None:
    state = cover_all_but(clue(make_state()), Identity.BLUE, 1, by=Team.BLUE)
    state = act(state, BLUE_SPY, RejectClue(state.turn))
    state = act(state, BLUE_SPY, PenaltyCover(state.turn, 16))
    result = outcome(state)
    assert result is not None and (result.winner, result.reason) == (Team.BLUE, "agents_covered")


def test_cn24_timer_off_by_default() -> None:
    state = make_state()
    assert deadline(state) is None and deadline(clue(state)) is None


def test_cn24_each_phase_gets_a_deadline_from_now() -> None:
    state = make_state(rules=TIMED, now=1000.0)
    assert deadline(state) == 1120.0
    state = clue(state, now=1050.0)
    assert deadline(state) == 1140.0


def test_cn24_clue_timeout_only_shows() -> None:
    state = make_state(rules=TIMED, now=0.0)
    assert expire(state, now=500.0) is state
    assert deadline(state) == 120.0
    assert clue(state, now=500.0).phase is Phase.GUESS  # the spymaster may still give it


def test_cn24_guess_timeout_ends_the_turn_after_one_guess() -> None:
    state = guess(clue(make_state(rules=TIMED), number=3, now=10.0), 0, now=20.0)
    assert expire(state, now=99.0) is state
    state = expire(state, now=100.0)
    assert (state.team, state.phase, deadline(state)) == (Team.BLUE, Phase.CLUE, 220.0)


def test_cn24_guess_timeout_without_a_guess_only_shows() -> None:
    state = clue(make_state(rules=TIMED))
    assert expire(state, now=500.0) is state
    assert deadline(state) == 90.0


def test_cn24_the_owed_guess_after_a_timeout_ends_the_turn() -> None:
    state = clue(make_state(rules=TIMED), number=3)
    state = act(state, RED_OP, Propose(state.turn, 0), now=500.0)  # still allowed
    state = act(state, RED_OP, Confirm(state.turn, 0), now=510.0)
    assert state.covered[0] and (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


def test_cn24_action_sent_after_the_deadline_is_stale() -> None:
    state = guess(clue(make_state(rules=TIMED), number=3), 0)
    assert refused(state, RED_OP, Confirm(state.turn, 1), now=91.0) == "stale"


def test_cn24_deadline_survives_a_restart() -> None:
    state = clue(make_state(rules=TIMED), now=5.0)
    assert deadline(state_from_json(state_to_json(state))) == 95.0


@pytest.mark.parametrize("seconds", [0, 29, 301, True])
def test_cn28_timer_must_be_30_to_300_seconds(seconds: int) -> None:
    with pytest.raises(RuleError) as info:
        Rules(guess_seconds=seconds)
    assert info.value.code == "bad_rules"


def test_cn28_timer_setting_is_per_game_rules() -> None:
    assert deadline(make_state(rules=Rules(clue_seconds=30))) == 30.0
    assert deadline(make_state(rules=Rules(guess_seconds=300))) is None  # no clue timer


def test_wrong_phase_clue_is_refused() -> None:
    state = clue(make_state())
    assert refused(state, RED_SPY, GiveClue(state.turn, "moon", 1)) == "wrong_phase"
