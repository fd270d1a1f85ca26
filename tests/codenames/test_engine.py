"""Setup, turns and guessing: CN-3..CN-19 and CN-22, one behaviour per test."""

from __future__ import annotations

from collections import Counter

import pytest

from codenames.engine import (
    Actor,
    Confirm,
    EndTurn,
    GiveClue,
    Identity,
    Phase,
    Propose,
    Role,
    RuleError,
    Team,
    Unpropose,
    apply,
    new_game,
    outcome,
)

from .builders import (
    ASSASSIN,
    BLUE_KEY,
    BLUE_OP,
    BLUE_SPY,
    BYSTANDER,
    RED_OP,
    RED_OP2,
    RED_SPY,
    WORDS,
    act,
    clue,
    cover_all_but,
    end_turn,
    guess,
    make_state,
    refused,
)

PACK = [f"word{n:02d}" for n in range(60)]


def test_cn3_board_is_25_distinct_words_from_the_pack() -> None:
    state = new_game(words=PACK, seed=7)
    assert len(state.words) == 25
    assert len(set(state.words)) == 25
    assert set(state.words) <= set(PACK)


def test_cn3_same_seed_same_board_other_seed_other_board() -> None:
    assert new_game(words=PACK, seed=7) == new_game(words=PACK, seed=7)
    assert new_game(words=PACK, seed=7).words != new_game(words=PACK, seed=8).words


def test_cn3_words_differing_only_in_case_are_not_drawn_twice() -> None:
    pack = [*WORDS, "APPLE", "Apple"]
    state = new_game(words=pack, seed=3)
    assert sorted(word.casefold() for word in state.words) == sorted(WORDS)


def test_cn3_too_small_a_pack_is_refused() -> None:
    with pytest.raises(RuleError) as info:
        new_game(words=PACK[:24], seed=1)
    assert info.value.code == "not_enough_words"
    assert info.value.params == {"needed": 25, "given": 24}


@pytest.mark.parametrize("seed", range(30))
def test_cn4_key_has_9_8_7_1(seed: int) -> None:
    state = new_game(words=PACK, seed=seed)
    counts = Counter(state.key)
    starting, other = Identity.agent_of(state.starting_team), Identity.agent_of(state.starting_team.other)
    assert (counts[starting], counts[other], counts[Identity.BYSTANDER], counts[Identity.ASSASSIN]) == (
        9,
        8,
        7,
        1,
    )


def test_cn5_starting_team_is_random_and_gives_the_first_clue() -> None:
    games = [new_game(words=PACK, seed=seed) for seed in range(40)]
    assert {game.starting_team for game in games} == {Team.RED, Team.BLUE}
    for game in games:
        assert (game.team, game.phase) == (game.starting_team, Phase.CLUE)
        assert outcome(game) is None


def test_cn5_only_the_starting_team_may_give_the_first_clue() -> None:
    state = make_state(BLUE_KEY)
    assert refused(state, RED_SPY, GiveClue(state.turn, "river", 1)) == "not_your_turn"
    assert clue(state).phase is Phase.GUESS


def test_cn7_teams_alternate_clue_then_guess() -> None:
    state = clue(make_state())
    assert (state.team, state.phase) == (Team.RED, Phase.GUESS)
    state = guess(state, BYSTANDER)
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)
    state = guess(clue(state), 18)
    assert (state.team, state.phase) == (Team.RED, Phase.CLUE)


def test_cn11_own_agent_lets_the_team_guess_again() -> None:
    state = guess(clue(make_state(), number=2), 0)
    assert state.covered[0] and state.key[0] is Identity.RED
    assert (state.team, state.phase, state.guesses_made) == (Team.RED, Phase.GUESS, 1)


def test_cn11_bystander_ends_the_turn() -> None:
    state = guess(clue(make_state(), number=2), BYSTANDER)
    assert state.covered[BYSTANDER]
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


def test_cn11_other_teams_agent_is_covered_for_them_and_ends_the_turn() -> None:
    state = guess(clue(make_state(), number=2), 9)
    assert state.covered_by[9] is Team.RED and state.key[9] is Identity.BLUE
    assert state.agents_left(Team.BLUE) == 7
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


def test_cn11_assassin_ends_the_game_at_once() -> None:
    state = guess(clue(make_state(), number=2), 0, ASSASSIN)
    result = outcome(state)
    assert state.phase is Phase.OVER
    assert result is not None and (result.winner, result.reason) == (Team.BLUE, "assassin")


def test_cn12_turn_cannot_end_before_one_guess() -> None:
    state = clue(make_state())
    assert refused(state, RED_OP, EndTurn(state.turn)) == "must_guess"
    state = end_turn(guess(state, 0))
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


def test_cn13_plus_one_limit() -> None:
    # The rulebook's example: "river: 3" allows up to four guesses.
    state = guess(clue(make_state(), "river", 3), 0, 1, 2)
    assert (state.phase, state.guesses_left) == (Phase.GUESS, 1)
    state = guess(state, 3)  # the fourth correct guess ends the turn by itself
    assert state.covered[3]
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


def test_cn13_wrong_guess_within_the_limit_still_ends_the_turn() -> None:
    state = guess(clue(make_state(), "river", 3), 0, BYSTANDER)
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)


@pytest.mark.parametrize("number", [0, None])
def test_cn14_zero_and_unlimited_have_no_guess_limit(number: int | None) -> None:
    state = clue(make_state(), "river", number)
    assert state.guesses_left is None
    assert refused(state, RED_OP, EndTurn(state.turn)) == "must_guess"  # still one guess at least
    state = guess(state, 0, 1, 2, 3, 4, 5)
    assert (state.phase, state.guesses_made) == (Phase.GUESS, 6)


def test_cn15_extra_guess_may_go_to_an_earlier_clue() -> None:
    # Red finds two of the three "river" words, then later uses moon's +1 on the third.
    state = end_turn(guess(clue(make_state(), "river", 3), 0, 1))
    state = guess(clue(state, "sky", 1), BYSTANDER)
    state = guess(clue(state, "moon", 1), 3, 2)
    assert (state.team, state.phase) == (Team.BLUE, Phase.CLUE)
    assert [(entry.word, entry.guesses) for entry in state.log] == [
        ("river", (0, 1)),
        ("sky", (BYSTANDER,)),
        ("moon", (3, 2)),
    ]


def test_cn16_proposal_is_recorded_and_replaced_not_revealed() -> None:
    state = clue(make_state())
    state = act(state, RED_OP, Propose(state.turn, 4))
    state = act(state, RED_OP2, Propose(state.turn, 5))
    state = act(state, RED_OP, Propose(state.turn, 6))
    assert dict(state.proposals) == {"red-op-2": 5, "red-op": 6}
    assert not any(state.covered)


def test_cn16_unpropose_withdraws_own_proposal_only() -> None:
    state = clue(make_state())
    state = act(state, RED_OP2, Propose(state.turn, 5))
    assert refused(state, RED_OP, Unpropose(state.turn)) == "no_proposal"
    state = act(state, RED_OP2, Unpropose(state.turn))
    assert state.proposals == ()


def test_cn16_any_operative_may_confirm_without_a_proposal() -> None:
    state = clue(make_state())
    state = act(state, RED_OP, Propose(state.turn, 4))
    state = act(state, RED_OP2, Confirm(state.turn, 7))
    assert state.covered[7] and not state.covered[4]
    assert dict(state.proposals) == {"red-op": 4}


def test_cn16_covered_cards_proposals_are_dropped() -> None:
    state = clue(make_state(), number=3)
    state = act(state, RED_OP, Propose(state.turn, 4))
    state = act(state, RED_OP2, Propose(state.turn, 4))
    state = act(state, RED_OP2, Confirm(state.turn, 4))
    assert state.proposals == ()


def test_cn16_second_of_two_racing_confirms_is_rechecked() -> None:
    state = clue(make_state(), number=3)
    turn = state.turn
    first = act(state, RED_OP, Confirm(turn, 4))
    assert refused(first, RED_OP2, Confirm(turn, 4)) == "card_covered"
    ended = act(state, RED_OP, Confirm(turn, BYSTANDER))
    assert refused(ended, RED_OP2, Confirm(turn, 5)) == "stale"


def test_cn16_proposals_are_cleared_when_the_turn_ends() -> None:
    state = clue(make_state(), number=3)
    state = act(state, RED_OP, Propose(state.turn, 4))
    state = guess(state, BYSTANDER)
    assert state.proposals == ()


def test_cn16_proposing_a_covered_card_is_refused() -> None:
    state = guess(clue(make_state(), number=3), 0)
    assert refused(state, RED_OP, Propose(state.turn, 0)) == "card_covered"


def test_cn16_proposals_only_while_guessing() -> None:
    state = make_state()
    assert refused(state, RED_OP, Propose(state.turn, 3)) == "wrong_phase"


def test_cn17_team_wins_when_its_last_agent_is_found() -> None:
    state = cover_all_but(make_state(), Identity.RED, 1, by=Team.RED)
    state = guess(clue(state), 8)
    result = outcome(state)
    assert result is not None and (result.winner, result.reason) == (Team.RED, "agents_covered")


def test_cn17_team_wins_even_when_the_other_team_uncovers_its_last_agent() -> None:
    state = cover_all_but(make_state(), Identity.BLUE, 1, by=Team.BLUE)
    state = guess(clue(state), 16)  # red touches blue's last agent
    result = outcome(state)
    assert result is not None and result.winner is Team.BLUE
    assert state.phase is Phase.OVER


def test_cn18_assassin_makes_the_touching_team_lose() -> None:
    state = guess(clue(make_state(BLUE_KEY)), ASSASSIN)
    result = outcome(state)
    assert result is not None and (result.winner, result.reason) == (Team.RED, "assassin")
    assert result.score is None


def test_cn19_next_game_draws_a_new_board_and_key() -> None:
    first, second = new_game(words=PACK, seed=1), new_game(words=PACK, seed=2)
    assert (first.words, first.key) != (second.words, second.key)
    assert second.turn == 0 and second.log == () and not any(second.covered)


@pytest.mark.parametrize("action", [Propose(1, 3), Confirm(1, 3), EndTurn(1), Unpropose(1)])
def test_cn22_spymasters_cannot_touch_cards(action: Propose | Confirm | EndTurn | Unpropose) -> None:
    state = clue(make_state())
    assert state.turn == 1
    assert refused(state, RED_SPY, action) == "not_operative"
    assert refused(state, BLUE_SPY, action) == "not_operative"


def test_other_teams_operative_is_refused() -> None:
    state = clue(make_state())
    assert refused(state, BLUE_OP, Confirm(state.turn, 9)) == "not_your_turn"


def test_operatives_cannot_give_clues() -> None:
    state = make_state()
    assert refused(state, RED_OP, GiveClue(state.turn, "river", 1)) == "not_spymaster"


def test_action_made_for_an_older_turn_is_stale() -> None:
    state = make_state()
    later = clue(state)
    assert refused(later, RED_SPY, GiveClue(state.turn, "moon", 1)) == "stale"


def test_nothing_is_accepted_after_the_end() -> None:
    state = guess(clue(make_state()), ASSASSIN)
    assert refused(state, BLUE_SPY, GiveClue(state.turn, "moon", 1)) == "game_over"
    assert refused(state, RED_OP, Confirm(state.turn, 0)) == "game_over"


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = make_state()
    after = clue(state)
    assert state.phase is Phase.CLUE and state.log == ()
    assert after is not state and after.turn == state.turn + 1


def test_unknown_action_type_is_refused() -> None:
    with pytest.raises(RuleError) as info:
        apply(make_state(), RED_SPY, object(), now=0.0)  # type: ignore[arg-type]
    assert info.value.code == "bad_action"


def test_actor_accepts_plain_strings_from_storage() -> None:
    actor = Actor("p", "red", "operative")  # type: ignore[arg-type]
    assert (actor.team, actor.role) == (Team.RED, Role.OPERATIVE)
    state = clue(make_state())
    assert act(state, actor, Confirm(state.turn, 0)).covered[0]
    with pytest.raises(RuleError) as info:
        Actor("p", "green", "operative")  # type: ignore[arg-type]
    assert info.value.code == "bad_actor"
