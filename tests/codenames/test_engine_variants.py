"""Two- and three-player variants: CN-30..CN-34."""

from __future__ import annotations

import pytest

from codenames.engine import (
    RATINGS,
    Actor,
    Confirm,
    GiveClue,
    Identity,
    Mode,
    OpponentCover,
    Phase,
    RejectClue,
    Role,
    Rules,
    State,
    Team,
    new_game,
    outcome,
)

from .builders import (
    ASSASSIN,
    BLUE_KEY,
    BLUE_OP,
    BLUE_SPY,
    BYSTANDER,
    LONE_OP,
    RED_OP,
    RED_SPY,
    WORDS,
    act,
    clue,
    cover_all_but,
    guess,
    make_state,
    refused,
)

COOP = Rules(mode=Mode.COOP)
THREE = Rules(mode=Mode.THREE)
OPPONENT_AGENTS = tuple(range(9, 17))  # blue, in RED_KEY


def opponent_phase() -> State:
    """A co-operative game (red plays) just after the players' first turn."""
    return guess(clue(make_state(rules=COOP)), BYSTANDER)


@pytest.mark.parametrize("team", [Team.RED, Team.BLUE])
def test_cn30_players_team_starts_with_nine_agents(team: Team) -> None:
    for seed in range(10):
        state = new_game(words=WORDS, seed=seed, rules=Rules(mode=Mode.COOP, coop_team=team))
        assert (state.starting_team, state.team) == (team, team)
        assert state.key.count(Identity.agent_of(team)) == 9


def test_cn31_after_the_players_turn_the_opponent_moves() -> None:
    state = opponent_phase()
    assert (state.phase, state.team) == (Phase.OPPONENT, Team.BLUE)


def test_cn31_players_spymaster_picks_the_opponents_cover() -> None:
    state = opponent_phase()
    state = act(state, RED_SPY, OpponentCover(state.turn, 12))
    assert state.covered_by[12] is Team.BLUE
    assert (state.phase, state.team) == (Phase.CLUE, Team.RED)  # the opponent never gives a clue


def test_cn31_only_an_opponent_agent_may_be_picked() -> None:
    state = opponent_phase()
    assert refused(state, RED_SPY, OpponentCover(state.turn, 0)) == "not_opponent_agent"
    assert refused(state, RED_SPY, OpponentCover(state.turn, BYSTANDER)) == "card_covered"


def test_cn31_operatives_cannot_pick_and_players_cannot_guess_meanwhile() -> None:
    state = opponent_phase()
    assert refused(state, RED_OP, OpponentCover(state.turn, 12)) == "not_spymaster"
    assert refused(state, RED_OP, Confirm(state.turn, 0)) == "not_your_turn"
    assert refused(state, RED_SPY, GiveClue(state.turn, "moon", 1)) == "not_your_turn"


def test_cn31_opponent_cover_only_in_coop() -> None:
    state = make_state()
    assert refused(state, RED_SPY, OpponentCover(state.turn, 9)) == "not_in_mode"


def test_cn31_no_one_can_reject_a_clue_in_coop() -> None:
    state = clue(make_state(rules=COOP))
    assert refused(state, BLUE_SPY, RejectClue(state.turn)) == "not_in_mode"


def test_cn32_assassin_loses_without_score() -> None:
    state = guess(clue(make_state(rules=COOP)), ASSASSIN)
    result = outcome(state)
    assert result is not None and (result.winner, result.reason, result.score) == (None, "assassin", None)


def test_cn32_opponent_covering_its_last_agent_loses_the_game() -> None:
    state = cover_all_but(opponent_phase(), Identity.BLUE, 1, by=Team.BLUE)
    state = act(state, RED_SPY, OpponentCover(state.turn, 16))
    result = outcome(state)
    assert result is not None and (result.winner, result.reason) == (None, "opponent_agents_covered")
    assert result.score is None and result.rating is None


def test_cn32_players_uncovering_the_last_opponent_agent_lose() -> None:
    state = cover_all_but(make_state(rules=COOP), Identity.BLUE, 1, by=Team.BLUE)
    state = guess(clue(state), 16)
    result = outcome(state)
    assert result is not None and result.winner is None and state.phase is Phase.OVER


def test_cn33_score_is_opponent_agents_left_with_rating() -> None:
    state = cover_all_but(make_state(rules=COOP), Identity.RED, 1, by=Team.RED)
    state = cover_all_but(state, Identity.BLUE, 5, by=Team.BLUE)
    state = guess(clue(state), 8)
    result = outcome(state)
    assert result is not None and (result.winner, result.score) == (Team.RED, 5)
    assert result.rating == "You'll get a call from MI6."


def test_cn33_ratings_cover_every_possible_score() -> None:
    assert sorted(RATINGS) == list(range(1, 9))
    assert RATINGS[8] == "That's\u2026 hard to believe." and RATINGS[1] == "Well, a win is a win, right?"


def test_cn34_lone_operative_plays_for_the_team_on_turn() -> None:
    state = clue(make_state(rules=THREE))
    state = act(state, LONE_OP, Confirm(state.turn, BYSTANDER))  # for red
    assert state.covered_by[BYSTANDER] is Team.RED
    state = clue(state, "moon", 1)
    state = act(state, LONE_OP, Confirm(state.turn, 9))  # for blue
    assert state.covered_by[9] is Team.BLUE and state.team is Team.BLUE


def test_cn34_lone_operative_exists_only_in_three_player_games() -> None:
    state = clue(make_state())
    assert refused(state, LONE_OP, Confirm(state.turn, 0)) == "not_your_turn"


def test_cn34_both_spymasters_still_play_and_may_challenge() -> None:
    state = clue(make_state(BLUE_KEY, rules=THREE))
    state = act(state, RED_SPY, RejectClue(state.turn))
    assert state.penalty_owed is Team.RED and state.team is Team.RED


def test_cn34_teamless_spymaster_is_refused() -> None:
    state = make_state(rules=THREE)
    nobody = Actor("x", None, Role.SPYMASTER)
    assert refused(state, nobody, GiveClue(state.turn, "moon", 1)) == "not_your_turn"
    assert refused(clue(state), BLUE_OP, Confirm(state.turn + 1, 0)) == "not_your_turn"
