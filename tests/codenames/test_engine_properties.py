"""Property-based tests over random games (see walk.py for how games are played)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codenames.engine import (
    Identity,
    Mode,
    RuleError,
    State,
    apply,
    expire,
    outcome,
    state_from_json,
    state_to_json,
    view_for,
)

from .walk import ACTORS, KINDS, build_move, states, walk

EXAMPLES = settings(max_examples=40, deadline=None)


def decided(state: State) -> bool:
    """Computed from the key alone: the assassin or all of some team's agents covered."""
    covered = [identity for identity, by in zip(state.key, state.covered_by, strict=True) if by is not None]
    counts, total = Counter(covered), Counter(state.key)
    return Identity.ASSASSIN in counts or any(counts[i] == total[i] for i in (Identity.RED, Identity.BLUE))


@EXAMPLES
@given(st.data())
def test_engine_accepts_exactly_the_legal_moves(data: st.DataObject) -> None:
    steps = walk(data)  # walk asserts each move against the oracle
    assert steps and steps[-1].after.over


@EXAMPLES
@given(st.data())
def test_key_is_always_9_8_7_1(data: st.DataObject) -> None:
    for state in states(walk(data)):
        counts = Counter(state.key)
        start, other = Identity.agent_of(state.starting_team), Identity.agent_of(state.starting_team.other)
        assert [counts[start], counts[other], counts[Identity.BYSTANDER], counts[Identity.ASSASSIN]] == [
            9,
            8,
            7,
            1,
        ]


@EXAMPLES
@given(st.data())
def test_game_ends_exactly_when_agents_all_covered_or_assassin_touched(data: st.DataObject) -> None:
    for state in states(walk(data)):
        assert state.over == decided(state)
        result = outcome(state)
        assert (result is not None) == state.over
        if result is not None and state.rules.mode is Mode.COOP:
            players = state.rules.coop_team
            assert result.winner in (players, None)
            assert (result.score is not None) == (result.winner is players)


@EXAMPLES
@given(st.data())
def test_nothing_is_accepted_after_the_end(data: st.DataObject) -> None:
    end = walk(data)[-1].after
    assert end.over
    assert expire(end, now=1e9) is end
    for actor in ACTORS:
        for kind in KINDS:
            for turn in (end.turn, end.turn - 1):
                with pytest.raises(RuleError) as info:
                    apply(end, actor, build_move(kind, turn, position=end.covered_by.index(None)), now=1e9)
                assert info.value.code == "game_over"


@EXAMPLES
@given(st.data())
def test_no_card_is_revealed_twice(data: st.DataObject) -> None:
    for step in walk(data):
        before, after = step.before.covered_by, step.after.covered_by
        assert all(b is None or b is a for b, a in zip(before, after, strict=True))
        assert sum(b is None and a is not None for b, a in zip(before, after, strict=True)) <= 1
        guessed = [position for entry in step.after.log for position in entry.guesses]
        assert len(guessed) == len(set(guessed))
        assert all(after[position] is not None for position in guessed)


@EXAMPLES
@given(st.data())
def test_state_json_round_trips(data: st.DataObject) -> None:
    for state in states(walk(data)):
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state


@EXAMPLES
@given(st.data())
def test_public_view_never_exposes_an_uncovered_identity(data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 2**16))
    for state in states(walk(data)):
        view = view_for(state, sees_key=False)
        if state.over:
            assert [card["identity"] for card in view["cards"]] == [i.value for i in state.key]  # CN-S2
            continue
        for card, by in zip(view["cards"], state.covered_by, strict=True):
            assert (card["identity"] is None) == (by is None)
        # Reshuffling the hidden identities must leave the public view byte-for-byte equal.
        hidden = [p for p, by in enumerate(state.covered_by) if by is None]
        order = random.Random(seed + state.turn).sample(hidden, len(hidden))
        key = list(state.key)
        for source, target in zip(hidden, order, strict=True):
            key[target] = state.key[source]
        shuffled = replace(state, key=tuple(key))
        assert json.dumps(view, sort_keys=True) == json.dumps(
            view_for(shuffled, sees_key=False), sort_keys=True
        )


@EXAMPLES
@given(st.data())
def test_turn_counter_never_goes_back_and_moves_with_team_or_phase(data: st.DataObject) -> None:
    for step in walk(data):
        before, after = step.before, step.after
        assert after.turn >= before.turn
        if (before.team, before.phase) != (after.team, after.phase):
            assert after.turn == before.turn + 1
