"""Setup and the course of a round: DC-1..DC-19, one behaviour per test."""

from __future__ import annotations

import itertools

import pytest

from decrypto.engine import (
    EditGuess,
    LockGuess,
    Phase,
    RuleError,
    Rules,
    SaveDraft,
    SetOrder,
    SubmitClues,
    TiebreakGuess,
    apply,
    codes,
    deadline,
    expire,
    new_game,
    view_for,
)
from decrypto.engine.deck import draw_code

from .builders import (
    WORDS,
    B,
    W,
    code_of,
    encryptor,
    forced,
    game,
    guess_code,
    lock,
    member,
    play_round,
    submit,
    submit_all,
    turn_of,
    with_keywords,
)


def raises(code: str) -> pytest.RaisesExc[RuleError]:
    return pytest.raises(RuleError, check=lambda e: e.code == code)


# DC-1 Teams
@pytest.mark.parametrize("sizes", [(2, 2), (2, 3), (3, 3), (4, 3), (4, 4)])
def test_dc1_teams_of_two_to_four(sizes: tuple[int, int]) -> None:
    white = tuple(f"w{i}" for i in range(sizes[0]))
    black = tuple(f"b{i}" for i in range(sizes[1]))
    assert game(white=white, black=black).phase is Phase.CLUES


@pytest.mark.parametrize("sizes", [(1, 2), (5, 4), (1, 1)])
def test_dc1_rejects_teams_outside_two_to_four(sizes: tuple[int, int]) -> None:
    with raises("bad_team_size"):
        game(white=tuple(f"w{i}" for i in range(sizes[0])), black=tuple(f"b{i}" for i in range(sizes[1])))


def test_dc1_teams_as_equal_as_possible() -> None:
    with raises("unbalanced_teams"):
        game(white=("w1", "w2"), black=("b1", "b2", "b3", "b4"))


def test_dc1_a_player_sits_in_one_team_only() -> None:
    with raises("duplicate_player"):
        game(white=("w1", "x"), black=("x", "b2"))


# DC-2 Keywords
def test_dc2_four_keywords_per_team_none_shared() -> None:
    state = game()
    white, black = state.teams[W].keywords, state.teams[B].keywords
    assert len(white) == len(black) == 4
    assert len(set(white) | set(black)) == 8
    assert set(white) | set(black) <= set(WORDS)


def test_dc2_same_word_in_other_case_never_on_both_screens() -> None:
    words = ["Sun", "sun", "SUN", "moon", "star", "sky", "sea", "hill", "lake", "wood"]
    for seed in range(30):
        state = new_game(words=words, seed=seed, white=["a", "b"], black=["c", "d"])
        drawn = [w.casefold() for t in (W, B) for w in state.teams[t].keywords]
        assert len(drawn) == len(set(drawn)) == 8


def test_dc2_keywords_depend_on_the_seed_only() -> None:
    assert game(seed=3).teams == game(seed=3).teams
    assert any(game(seed=s).teams[W].keywords != game(seed=3).teams[W].keywords for s in range(4, 9))


def test_dc2_pack_too_small() -> None:
    with raises("not_enough_words"):
        new_game(words=WORDS[:7], seed=1, white=["a", "b"], black=["c", "d"])


# DC-3 Code cards
def test_dc3_deck_is_24_permutations() -> None:
    assert len(codes()) == 24
    assert set(codes()) == set(itertools.permutations((1, 2, 3, 4), 3))


# DC-5 Encryptor rotation
def test_dc5_encryptor_rotates_through_the_team() -> None:
    state = game(white=("w1", "w2", "w3"), black=("b1", "b2"))
    seen = []
    for _ in range(4):
        seen.append((encryptor(state, W), encryptor(state, B)))
        state = play_round(state)
    assert seen == [("w1", "b1"), ("w2", "b2"), ("w3", "b1"), ("w1", "b2")]


def test_dc5_team_may_change_the_order_for_the_next_round() -> None:
    state = game(white=("w1", "w2", "w3"), black=("b1", "b2", "b3"))
    state = apply(state, "w2", SetOrder(order=("w1", "w3", "w2")), now=0)
    assert encryptor(state, W) == "w1"  # this round's Encryptor already saw the code
    assert view_for(state, player="w3")["teams"]["white"]["next_encryptor"] == "w3"
    assert encryptor(play_round(state), W) == "w3"


def test_dc5_order_must_list_the_team_exactly() -> None:
    with raises("bad_order"):
        apply(game(), "w1", SetOrder(order=("w1", "b1")), now=0)


# DC-6 Draw
def test_dc6_codes_drawn_with_replacement_can_repeat() -> None:
    repeats = sum(draw_code(seed, 1, W) == draw_code(seed, 2, W) for seed in range(500))
    assert 5 < repeats < 60  # about 1 in 24: independent draws, used cards go back


def test_dc6_code_shown_to_the_encryptor_only() -> None:
    state = game()
    assert view_for(state, player=encryptor(state, W))["encryptor"]["code"] == list(code_of(state, W))
    for viewer in ("w2", "b1", "b2", None):
        assert view_for(state, player=viewer)["encryptor"] is None or viewer == encryptor(state, B)


# DC-7 Clues, written at the same time
def test_dc7_both_encryptors_write_in_any_order() -> None:
    black_first = submit(submit(game(), B), W)
    white_first = submit(submit(game(), W), B)
    assert black_first.phase is white_first.phase is Phase.GUESS
    assert black_first.turns == white_first.turns


def test_dc7_only_the_encryptor_writes() -> None:
    state = game()
    with raises("not_encryptor"):
        apply(state, member(state, W), SubmitClues(round=1, phase="clues", clues=("a", "b", "c")), now=0)


# DC-8 Timer
def test_dc8_first_submit_starts_the_timer_for_the_other() -> None:
    state = submit(game(), B, now=100.0)
    assert deadline(state) == 130.0
    assert view_for(state, player=None)["deadline"] == 130.0


def test_dc8_bot_submission_starts_no_timer() -> None:
    # b1, Black's first Encryptor, is a bot: it writes in seconds, and that must not rush
    # White's person, who has not even read the code yet.
    state = new_game(words=WORDS, seed=7, white=("w1", "w2"), black=("b1", "b2"), bots=("b1", "b2"))
    assert state.bots == {"b1", "b2"}
    state = submit(state, B, now=3.0)
    assert deadline(state) is None and view_for(state, player="w1")["deadline"] is None
    assert expire(state, now=10_000) is state  # White's person takes the time they need
    assert submit(state, W, now=500.0).phase is Phase.GUESS


def test_dc8_a_persons_submission_times_a_bot_encryptor_as_before() -> None:
    state = new_game(words=WORDS, seed=7, white=("w1", "w2"), black=("b1", "b2"), bots=("b1", "b2"))
    state = submit(state, W, now=100.0)
    assert deadline(state) == 130.0
    assert expire(state, now=130.0).phase is Phase.GUESS


def test_dc8_bots_are_roster_players_only() -> None:
    state = new_game(words=WORDS, seed=7, white=("w1", "w2"), black=("b1", "b2"), bots=("b1", "x9"))
    assert state.bots == {"b1"}


def test_dc8_expire_submits_the_partial_draft_at_the_deadline() -> None:
    state = game()
    draft = SaveDraft(round=1, phase="clues", clues=("half", "done"))
    state = apply(state, encryptor(state, W), draft, now=5.0)
    state = submit(state, B, now=10.0)
    assert expire(state, now=39.9) is state
    after = expire(state, now=40.0)
    assert after.phase is Phase.GUESS
    assert turn_of(after, W).clues == ("half", "done", "")


def test_dc8_expire_empties_a_draft_clue_that_is_a_keyword() -> None:
    state = with_keywords(game(), W, ("sun", "moon", "star", "sky"))
    state = apply(state, "w1", SaveDraft(round=1, phase="clues", clues=("hot", "MOON")), now=0)
    state = expire(submit(state, B, now=0), now=30)
    assert turn_of(state, W).clues == ("hot", "", "")


def test_dc8_late_submit_after_the_deadline_is_stale() -> None:
    state = submit(game(), B, now=0.0)
    with raises("stale"):
        apply(state, "w1", SubmitClues(round=1, phase="clues", clues=("a", "b", "c")), now=31.0)


def test_dc8_no_timer_when_switched_off() -> None:
    state = submit(game(rules=Rules(timer_seconds=None)), B, now=0.0)
    assert deadline(state) is None
    assert expire(state, now=10_000) is state


@pytest.mark.parametrize("seconds", [10, 121])
def test_dc8_timer_setting_between_15_and_120(seconds: int) -> None:
    with raises("bad_rules"):
        game(rules=Rules(timer_seconds=seconds))


# DC-9 White's code first
def test_dc9_white_clues_shown_to_everyone_once_both_are_in() -> None:
    state = submit(game(), W, clues=("lemon", "tower", "snow"))
    assert all(view_for(state, player=p)["current"] is None for p in ("w2", "b1", "b2", None))
    state = submit(state, B)
    assert state.guessing_for is W
    for viewer in ("w1", "w2", "b1", "b2", None):
        assert view_for(state, player=viewer)["current"]["clues"] == ["lemon", "tower", "snow"]


# DC-10 Guesses
def test_dc10_encryptor_cannot_guess_own_code() -> None:
    state = submit_all(game())
    for action in (
        EditGuess(round=1, phase="guess", guessing_for=W, code=(1, None, None)),
        LockGuess(round=1, phase="guess", guessing_for=W, code=(1, 2, 3)),
    ):
        with raises("encryptor_cannot_guess"):
            apply(state, encryptor(state, W), action, now=0)


def test_dc10_any_member_edits_the_shared_draft_until_locked() -> None:
    state = submit_all(play_round(game(white=("w1", "w2", "w3"), black=("b1", "b2", "b3"))))
    assert encryptor(state, W) == "w2"
    state = apply(state, "w1", EditGuess(round=2, phase="guess", guessing_for=W, code=(2, None, 4)), now=0)
    assert view_for(state, player="w3")["current"]["guess"]["draft"] == [2, None, 4]
    state = lock(state, W, (2, 1, 4), player="w3")
    with raises("already_locked"):
        apply(state, "w1", EditGuess(round=2, phase="guess", guessing_for=W, code=(1, 1, 1)), now=0)


def test_dc10_guess_is_three_digits_from_one_to_four() -> None:
    state = submit_all(game())
    for bad in ((1, 2), (0, 1, 2), (1, 2, 5)):
        with raises("bad_code"):
            lock(state, W, bad)  # type: ignore[arg-type]


def test_dc10_a_guess_may_repeat_a_digit_and_is_then_wrong() -> None:
    state = lock(submit_all(game()), W, (1, 1, 1))
    assert state.history[-1].deciphered is False


# DC-11 No interception in round 1
def test_dc11_no_interception_in_round_one() -> None:
    state = submit_all(game())
    with raises("no_interception_in_round_one"):
        lock(state, B, (1, 2, 3))
    state = lock(state, W, code_of(state, W))  # White's lock alone reveals
    assert state.history[0].interception is None
    assert state.guessing_for is B


# DC-12 Order of reveal
def test_dc12_reveal_waits_for_every_lock_and_keeps_its_order() -> None:
    state = play_round(game())
    state = submit_all(state)
    state = lock(state, W, code_of(state, W))
    assert state.guessing_for is W and len(state.history) == 2  # Black has not locked yet
    state = lock(state, B, (4, 3, 2))
    reveal = view_for(state, player=None)["history"][-1]
    assert list(reveal)[4:7] == ["interception", "decipher", "code"]


# DC-13 Tokens
def test_dc13_exact_interception_earns_a_token() -> None:
    state = play_round(play_round(game()), black_intercepts=True)
    assert (state.teams[B].interceptions, state.teams[W].miscommunications) == (1, 0)


def test_dc13_wrong_interception_costs_nothing() -> None:
    state = play_round(play_round(game()))
    assert all(state.teams[t].interceptions == state.teams[t].miscommunications == 0 for t in (W, B))


def test_dc13_misread_own_code_is_a_miscommunication() -> None:
    state = play_round(game(), white_ok=False)
    assert (state.teams[W].miscommunications, state.teams[B].interceptions) == (1, 0)


def test_dc13_interception_and_miscommunication_in_the_same_reveal() -> None:
    state = play_round(play_round(game()), white_ok=False, black_intercepts=True)
    assert (state.teams[W].miscommunications, state.teams[B].interceptions) == (1, 1)


# DC-14 Black's code second, roles swapped
def test_dc14_black_code_after_white_with_roles_swapped() -> None:
    state = guess_code(submit_all(play_round(game())))
    assert state.guessing_for is B
    with raises("encryptor_cannot_guess"):
        lock(state, B, (1, 2, 3), player=encryptor(state, B))
    state = lock(state, W, (1, 2, 3), player=encryptor(state, W))  # White's Encryptor intercepts
    assert state.locked[W] == (1, 2, 3)


def test_dc14_black_clues_hidden_until_black_turn() -> None:
    state = submit(submit(game(), W), B, clues=("owl", "moss", "tide"))
    for viewer in ("w1", "w2", "b2", None):
        assert "owl" not in str(view_for(state, player=viewer))
    state = guess_code(state)
    assert view_for(state, player="w2")["current"]["clues"] == ["owl", "moss", "tide"]


# DC-15 End of round
def test_dc15_round_ends_after_both_reveals() -> None:
    state = play_round(game())
    assert (state.round, state.phase, len(state.history)) == (2, Phase.CLUES, 2)


# DC-16 Free form
def test_dc16_a_phrase_up_to_sixty_characters() -> None:
    phrase = "x" * 60
    assert submit(game(), W, clues=(phrase, "night out with friends", "b")).turns[W] is not None
    with raises("clue_too_long"):
        submit(game(), W, clues=(phrase + "x", "a", "b"))


# DC-17 Automatic checks
def test_dc17_empty_clue_rejected_on_submit() -> None:
    with raises("clue_empty"):
        submit(game(), W, clues=("a", "  ", "c"))


def test_dc17_own_keyword_rejected_case_and_unicode_insensitively() -> None:
    state = with_keywords(game(), W, ("Café", "moon", "star", "sky"))
    for clue in ("CAFÉ", "cafe\u0301", " Moon "):
        with raises("clue_is_keyword"):
            submit(state, W, clues=(clue, "x", "y"))


def test_dc17_own_keyword_rejected_without_its_accents() -> None:
    state = with_keywords(game(), W, ("Über", "Café", "star", "sky"))
    for clue in ("Uber", "UBER", "CAFE", "cafe"):
        with raises("clue_is_keyword"):
            submit(state, W, clues=(clue, "x", "y"))
    # Only the team's own keywords: another accented word is still a fine clue.
    submit(state, W, clues=("pâte", "x", "y"))


def test_dc17_clue_used_before_by_the_team_rejected() -> None:
    state = submit_all(forced(game(), white=(1, 2, 3)))
    state = play_round(forced(guess_code(guess_code(state)), white=(1, 2, 3)))
    used = state.history[0].clues[0]
    with raises("clue_repeated"):
        submit(state, W, clues=(used.upper(), "new1", "new2"))
    with raises("clue_repeated"):
        submit(state, W, clues=("same", "same", "other"))


def test_dc17_other_team_may_use_the_same_clue() -> None:
    state = submit(game(), W, clues=("tide", "owl", "moss"))
    assert submit(state, B, clues=("tide", "owl", "moss")).phase is Phase.GUESS


def test_dc17_not_three_clues_rejected_without_change() -> None:
    state = game()
    with raises("clue_count"):
        submit(state, W, clues=("a", "b"))
    assert not turn_of(state, W).submitted


# DC-18 Left to the players
def test_dc18_meaning_rules_are_left_to_the_players() -> None:
    state = submit(game(), W, clues=("9 letters", "rhymes with boat", "third one"))
    assert state.phase is Phase.CLUES and turn_of(state, W).submitted  # the app cannot judge these


# DC-19 Public information
def test_dc19_same_clues_reach_everyone_at_the_same_moment() -> None:
    state = submit_all(game())
    seen = {str(view_for(state, player=p)["current"]["clues"]) for p in ("w1", "w2", "b1", "b2", None)}
    assert len(seen) == 1


# Staleness: a double submit is never applied twice
def test_double_lock_is_stale_and_never_lands_on_the_next_code() -> None:
    state = submit_all(play_round(game()))
    state = lock(state, B, (1, 2, 3))
    again = LockGuess(round=2, phase="guess", guessing_for=W, code=(1, 2, 3))
    state = lock(state, W, code_of(state, W))
    assert state.guessing_for is B
    with raises("stale"):
        apply(state, "w2", again, now=0)


def test_double_submit_of_clues_is_refused() -> None:
    action = SubmitClues(round=1, phase="clues", clues=("a", "b", "c"))
    state = apply(game(), "w1", action, now=0)
    with raises("already_submitted"):
        apply(state, "w1", action, now=0)
    with raises("stale"):
        apply(submit(state, B), "w1", action, now=0)


def test_spectator_cannot_act() -> None:
    with raises("not_in_game"):
        apply(game(), "stranger", SetOrder(order=("w1", "w2")), now=0)


def test_no_move_once_the_game_is_over() -> None:
    state = play_round(play_round(game(), white_ok=False), white_ok=False)
    with raises("game_over"):
        apply(state, "w1", SetOrder(order=("w2", "w1")), now=0)


def test_action_of_another_phase_is_refused() -> None:
    with raises("wrong_phase"):
        apply(game(), "w2", TiebreakGuess(round=1, phase="clues", words=("a", "b", "c", "d")), now=0)
