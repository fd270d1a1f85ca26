"""Clue form and the automatic clue checks: CN-8, CN-9, CN-10, CN-25/CN-26."""

from __future__ import annotations

import unicodedata

import pytest

from codenames.engine import GiveClue, Phase, RuleError, Rules, State, check_clue, state_to_json

from .builders import RED_SPY, clue, guess, make_state, refused

MULTI = Rules(multi_word_clues=True)


def code_for(state: State, word: str) -> str:
    with pytest.raises(RuleError) as info:
        check_clue(state, word)
    return info.value.code


@pytest.mark.parametrize("number", [0, 1, 9, None])
def test_cn8_clue_number_is_0_to_9_or_unlimited(number: int | None) -> None:
    state = clue(make_state(), "river", number)
    assert state.clue is not None and state.clue.number == number


@pytest.mark.parametrize("number", [-1, 10, True, 2.0, "3"])
def test_cn8_other_clue_numbers_are_malformed(number: object) -> None:
    with pytest.raises(RuleError) as info:
        GiveClue(0, "river", number)  # type: ignore[arg-type]
    assert info.value.code == "bad_action"


def test_cn9_visible_codename_is_not_a_clue() -> None:
    state = make_state()
    assert refused(state, RED_SPY, GiveClue(state.turn, "apple", 1)) == "clue_on_board"


def test_cn9_covered_codename_is_a_legal_clue_again() -> None:
    state = guess(clue(make_state()), 17)  # red covers "rocket" (a bystander)
    state = guess(clue(state, "moon", 1), 18)  # blue covers "saddle"; zebra is still visible...
    assert code_for(state, "zebra") == "clue_on_board"
    assert check_clue(state, "rocket") == "rocket"  # ...but rocket is covered


@pytest.mark.parametrize("word", ["", "   ", "\t"])
def test_cn10_empty_clue_is_refused(word: str) -> None:
    assert code_for(make_state(), word) == "clue_empty"


def test_cn10_clue_with_whitespace_inside_is_refused() -> None:
    assert code_for(make_state(), "new york") == "clue_has_space"


def test_cn10_hyphenated_clue_is_refused_without_multi_word_clues() -> None:
    assert code_for(make_state(), "well-known") == "clue_has_hyphen"


def test_cn10_invisible_characters_are_refused() -> None:
    # A zero-width space would otherwise smuggle "apple" past the board check.
    assert code_for(make_state(), "app\u200ble") == "clue_bad_character"


def test_cn10_comparison_ignores_case() -> None:
    state = make_state()
    assert code_for(state, "APPLE") == "clue_on_board"
    assert code_for(state, "Apple") == "clue_on_board"


def test_cn10_comparison_is_unicode_normalised() -> None:
    state = make_state(words={0: "CAFÉ"})
    decomposed = unicodedata.normalize("NFD", "café")
    assert decomposed != "café"
    assert code_for(state, decomposed) == "clue_on_board"


def test_cn10_comparison_is_accent_sensitive() -> None:
    state = make_state(words={0: "ÓPERA"})
    assert check_clue(state, "opera") == "opera"
    assert code_for(state, "ópera") == "clue_on_board"


def test_cn10_clue_containing_a_codename_is_refused() -> None:
    state = make_state(words={0: "SKY"})
    assert code_for(state, "skyscraper") == "clue_contains_word"


def test_cn10_clue_contained_in_a_codename_is_refused() -> None:
    state = make_state(words={0: "SKYSCRAPER"})
    assert code_for(state, "sky") == "clue_contains_word"
    assert code_for(state, "scraper") == "clue_contains_word"


def test_cn10_containment_needs_three_letters_on_both_sides() -> None:
    state = make_state(words={0: "OX"})
    assert check_clue(state, "box") == "box"
    assert check_clue(make_state(words={0: "BOX"}), "ox") == "ox"


def test_cn10_error_names_the_codename_and_clue_for_the_message() -> None:
    with pytest.raises(RuleError) as info:
        check_clue(make_state(words={0: "SKYSCRAPER"}), "Sky")
    assert info.value.params == {"clue": "Sky", "codename": "SKYSCRAPER"}
    assert "SKYSCRAPER" in info.value.message


def test_cn10_clue_is_tidied_but_keeps_its_case() -> None:
    assert check_clue(make_state(), "  River ") == "River"


def test_cn10_refused_clue_changes_nothing() -> None:
    state = make_state()
    before = state_to_json(state)
    assert refused(state, RED_SPY, GiveClue(state.turn, "apples", 2)) == "clue_contains_word"
    assert state_to_json(state) == before and state.phase is Phase.CLUE


def test_cn10_given_clue_is_logged_tidied() -> None:
    state = clue(make_state(), "  River\n", 2)
    assert state.log[-1].word == "River"


def test_cn26_multi_word_clue_allowed_when_the_room_says_so() -> None:
    state = make_state(rules=MULTI)
    assert check_clue(state, "New   York") == "New York"
    assert check_clue(state, "jack-in-the-box") == "jack-in-the-box"


def test_cn26_each_part_of_a_multi_word_clue_is_still_checked() -> None:
    state = make_state(rules=MULTI)
    assert code_for(state, "big apple") == "clue_on_board"
    assert code_for(state, "rain-forests") == "clue_contains_word"


def test_cn26_multi_word_codename_blocks_the_same_clue() -> None:
    state = make_state(rules=MULTI, words={0: "ICE CREAM"})
    assert code_for(state, "Ice  Cream") == "clue_on_board"
    assert code_for(state, "ice") == "clue_contains_word"


def test_clue_longer_than_40_characters_is_malformed() -> None:
    with pytest.raises(RuleError) as info:
        GiveClue(0, "x" * 41, 1)
    assert info.value.code == "bad_action"
