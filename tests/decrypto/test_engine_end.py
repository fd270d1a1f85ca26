"""End of the game (DC-20..DC-26) and the three-player variant (DC-40..DC-44)."""

from __future__ import annotations

import pytest

from decrypto.engine import (
    Judge,
    Mode,
    Phase,
    RuleError,
    Rules,
    State,
    Team,
    TiebreakGuess,
    apply,
    deadline,
    outcome,
    view_for,
)

from .builders import B, W, code_of, encryptor, game, guess_code, lock, play_round, submit, with_keywords

INTERCEPTOR = Rules(mode=Mode.INTERCEPTOR)


def raises(code: str) -> pytest.RaisesExc[RuleError]:
    return pytest.raises(RuleError, check=lambda e: e.code == code)


def rounds(state: State, count: int) -> State:
    for _ in range(count):
        state = play_round(state)
    return state


def winners(state: State) -> tuple[set[Team], str]:
    result = outcome(state)
    assert result is not None
    return set(result.winners), result.reason


# DC-20 / DC-21
def test_dc20_two_interceptions_win() -> None:
    state = play_round(play_round(play_round(game()), white_intercepts=True), white_intercepts=True)
    assert winners(state) == ({W}, "two_interceptions")
    assert state.phase is Phase.OVER


def test_dc21_two_miscommunications_lose() -> None:
    state = play_round(play_round(game(), white_ok=False), white_ok=False)
    assert winners(state) == ({B}, "two_miscommunications")


# DC-22 Checked at the end of a round only
def test_dc22_second_token_mid_round_does_not_end_the_game() -> None:
    state = play_round(game(), white_ok=False)
    state = guess_code(submit(submit(state, W), B), deciphered=False)
    assert state.teams[W].miscommunications == 2
    assert (state.phase, state.guessing_for, outcome(state)) == (Phase.GUESS, B, None)
    assert winners(guess_code(state)) == ({B}, "two_miscommunications")


# DC-23 Tie-breaks
def test_dc23_team_that_wins_and_loses_goes_to_tiebreak() -> None:
    state = play_round(game(), white_ok=False)
    state = play_round(state, white_intercepts=True)
    state = play_round(state, white_ok=False, white_intercepts=True)  # White: 2 and 2
    assert (state.teams[W].points, state.teams[B].points) == (0, 0)
    assert state.phase is Phase.TIEBREAK and outcome(state) is None  # equal points: keywords


def test_dc23_both_teams_second_interception_goes_to_points() -> None:
    state = play_round(game())
    state = play_round(state, white_intercepts=True, black_intercepts=True, white_ok=False)
    state = play_round(state, white_intercepts=True, black_intercepts=True)
    assert (state.teams[W].points, state.teams[B].points) == (1, 2)
    assert winners(state) == ({B}, "points")


def test_dc23_both_teams_second_miscommunication_goes_to_points() -> None:
    state = play_round(game(), white_ok=False, black_ok=False)
    state = play_round(state, white_ok=False, black_ok=False)
    assert state.phase is Phase.TIEBREAK  # -2 against -2


def test_dc23_round_eight_ends_without_a_winner() -> None:
    state = rounds(game(), 7)
    assert state.phase is Phase.CLUES and state.round == 8
    state = play_round(state, white_intercepts=True)
    assert winners(state) == ({W}, "points")


# DC-24 Points
def test_dc24_interception_plus_one_miscommunication_minus_one() -> None:
    state = play_round(game(), black_ok=False)  # Black -1
    state = rounds(state, 7)
    assert (state.teams[W].points, state.teams[B].points) == (0, -1)
    assert winners(state) == ({W}, "points")


# DC-25 / DC-26 Keyword guessing
def at_keyword_guessing() -> State:
    state = rounds(game(), 8)
    state = with_keywords(state, W, ("Café", "moon", "star", "sky"))
    state = with_keywords(state, B, ("sun", "river", "Élan", "tree"))
    assert state.phase is Phase.TIEBREAK
    return state


def guess_keywords(state: State, team: Team, words: tuple[str, ...]) -> State:
    player = state.teams[team].order[0]
    return apply(state, player, TiebreakGuess(round=8, phase="tiebreak", words=words), now=0)


def judge(state: State, team: Team, accept: tuple[int, ...]) -> State:
    return apply(state, state.teams[team].order[1], Judge(round=8, phase="judge", accept=accept), now=0)


def test_dc25_keyword_guesses_count_case_and_accent_insensitively() -> None:
    state = guess_keywords(at_keyword_guessing(), W, ("SUN", "lake", "elan", ""))  # 2 right
    state = guess_keywords(state, B, ("cafe", "", "", "heaven"))  # 1 right
    assert state.phase is Phase.JUDGE
    state = judge(judge(state, W, ()), B, ())
    assert winners(state) == ({W}, "keywords")
    assert view_for(state, player=None)["tiebreak"]["scores"] == {"white": 2, "black": 1}


def test_dc25_team_may_accept_an_equivalent_guess() -> None:
    state = guess_keywords(at_keyword_guessing(), W, ("SUN", "lake", "elan", ""))
    state = guess_keywords(state, B, ("cafe", "", "", "heaven"))
    state = judge(state, W, (4,))  # White accepts "heaven" for "sky"
    with raises("already_judged"):
        judge(state, W, ())
    with raises("bad_position"):
        judge(state, B, (4,))  # White left position 4 blank: nothing to accept
    assert winners(judge(state, B, ())) == ({W, B}, "shared_victory")


def test_dc26_shared_victory_when_still_equal() -> None:
    state = guess_keywords(at_keyword_guessing(), W, ("", "", "", ""))
    state = judge(judge(guess_keywords(state, B, ("x", "y", "z", "w")), B, ()), W, ())
    assert winners(state) == ({W, B}, "shared_victory")


# DC-40..DC-44 Three players
def three() -> State:
    return game(white=("ann", "bob"), black=("ivy",), rules=INTERCEPTOR)


def interceptor_round(state: State, *, deciphered: bool = True, intercepted: bool = False) -> State:
    return guess_code(submit(state, W), deciphered=deciphered, intercepted=intercepted)


def test_dc40_interceptor_has_no_keywords_and_no_code() -> None:
    state = three()
    assert state.teams[B].keywords == () and state.turns[B] is None
    assert len(state.teams[W].keywords) == 4
    with raises("bad_team_size"):
        game(white=("ann", "bob", "cat"), black=("ivy",), rules=INTERCEPTOR)


def test_dc41_team_members_alternate_and_the_other_deciphers() -> None:
    state = three()
    assert encryptor(state, W) == "ann"
    state = submit(state, W)
    with raises("no_interception_in_round_one"):
        lock(state, B, (1, 2, 3), player="ivy")
    state = lock(state, W, code_of(state, W), player="bob")
    assert encryptor(state, W) == "bob" and state.round == 2
    state = submit(state, W)
    assert view_for(state, player="ivy")["current"]["locked"] == {"white": False, "black": False}
    state = lock(state, B, (1, 2, 3), player="ivy")
    assert encryptor(lock(state, W, code_of(state, W), player="ann"), W) == "ann"


def test_dc42_exact_interception_scores_for_interceptor() -> None:
    state = interceptor_round(interceptor_round(three()), intercepted=True)
    assert state.teams[B].interceptions == 1


def test_dc42_failed_decipher_scores_for_interceptor() -> None:
    state = interceptor_round(three(), deciphered=False)
    assert (state.teams[B].interceptions, state.teams[W].miscommunications) == (1, 0)


def test_dc43_interceptor_wins_with_two_tokens() -> None:
    state = interceptor_round(interceptor_round(three(), deciphered=False), intercepted=True)
    assert winners(state) == ({B}, "interceptor_won")


def test_dc43_team_wins_after_round_five() -> None:
    state = three()
    for _ in range(4):
        state = interceptor_round(state)
    assert state.round == 5
    state = interceptor_round(state, intercepted=True)
    assert winners(state) == ({W}, "team_held_out")


def test_dc44_no_timer_race_with_one_encryptor() -> None:
    state = game(white=("ann", "bob"), black=("ivy",), rules=Rules(mode=Mode.INTERCEPTOR, timer_seconds=30))
    state = submit(state, W, now=5.0)
    assert state.phase is Phase.GUESS and deadline(state) is None
    assert view_for(state, player="ivy")["timer_seconds"] is None
