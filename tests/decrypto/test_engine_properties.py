"""Property tests over whole random games, both modes, every step checked."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import event, given, settings
from hypothesis import strategies as st

from decrypto.engine import (
    Judge,
    LockGuess,
    Mode,
    Phase,
    Rules,
    SaveDraft,
    SetNote,
    State,
    SubmitClues,
    Team,
    TiebreakGuess,
    apply,
    codes,
    expire,
    new_game,
    state_from_json,
    state_to_json,
    view_for,
)
from decrypto.engine.deck import draw_code
from decrypto.engine.seats import tasks

PACK = [f"kw{n:02d}zz" for n in range(40)]  # never a substring of anything else in a view
TEAMS = (Team.WHITE, Team.BLACK)


@st.composite
def games(draw: st.DrawFn) -> State:
    mode = draw(st.sampled_from(Mode))
    if mode is Mode.INTERCEPTOR:
        white, black = ["ann", "bob"], ["ivy"]
    else:
        size = draw(st.integers(2, 4))
        other = draw(st.sampled_from([n for n in (size - 1, size, size + 1) if 2 <= n <= 4]))
        white, black = [f"w{i}" for i in range(size)], [f"b{i}" for i in range(other)]
    rules = Rules(
        mode=mode, timer_seconds=draw(st.sampled_from([None, 15, 30])), max_rounds=draw(st.integers(1, 8))
    )
    return new_game(words=PACK, seed=draw(st.integers(0, 2**64)), white=white, black=black, rules=rules)


def step(state: State, rng: random.Random, now: float) -> State:
    """One move that makes progress, sometimes by a timeout, sometimes after a note."""
    task = rng.choice(tasks(state))
    player = rng.choice(task.players)
    if rng.random() < 0.1:  # a note on the side never moves the game
        state = apply(state, player, SetNote(position=rng.randint(1, 4), text="hmm"), now=now)
    if state.phase is Phase.CLUES:
        if state.deadline is not None and rng.random() < 0.5:
            draft = SaveDraft(round=state.round, phase="clues", clues=(f"part{state.round}{task.team}",))
            return expire(apply(state, player, draft, now=now), now=state.deadline)
        clues = tuple(f"clue{state.round}{task.team}{i}" for i in range(3))
        return apply(state, player, SubmitClues(round=state.round, phase="clues", clues=clues), now=now)
    if state.phase is Phase.GUESS:
        assert state.guessing_for is not None
        turn = state.turns[state.guessing_for]
        assert turn is not None
        right = rng.random() < (0.8 if task.kind == "decipher" else 0.15)
        code = turn.code if right else rng.choice(codes())
        lock = LockGuess(round=state.round, phase="guess", guessing_for=state.guessing_for, code=code)
        return apply(state, player, lock, now=now)
    if state.phase is Phase.TIEBREAK:
        words = tuple(rng.choice(["", "guess", "other"]) for _ in range(4))
        return apply(state, player, TiebreakGuess(round=state.round, phase="tiebreak", words=words), now=now)
    assert state.tiebreak is not None
    guessed = state.tiebreak.guesses[task.team.other] or ()
    accept = tuple(p for p in range(1, 5) if guessed[p - 1] and rng.random() < 0.5)
    return apply(state, player, Judge(round=state.round, phase="judge", accept=accept), now=now)


def viewers(state: State) -> list[str | None]:
    return [*state.teams[Team.WHITE].order, *state.teams[Team.BLACK].order, None]


def check_secrets(state: State) -> None:
    """No keyword of another team in the JSON text; no view but the Encryptor's depends on a code."""
    over = state.phase is Phase.OVER
    for viewer in viewers(state):
        text = json.dumps(view_for(state, player=viewer)).casefold()
        for team in TEAMS:
            if over or viewer in state.teams[team].order:
                continue
            assert not any(k in text for k in state.teams[team].keywords), (viewer, team)
    for team in TEAMS:
        turn = state.turns[team]
        if turn is None:
            continue
        probe = replace(turn, code=next(c for c in codes() if c != turn.code))
        other = replace(state, turns=state.turns.set(team, probe))
        for viewer in viewers(state):
            if viewer != turn.encryptor:
                assert view_for(state, player=viewer) == view_for(other, player=viewer)


def tokens(state: State) -> list[int]:
    return [n for t in TEAMS for n in (state.teams[t].interceptions, state.teams[t].miscommunications)]


@settings(max_examples=80, deadline=None)
@given(start=games(), driver=st.integers(0, 2**32))
def test_random_games_keep_every_invariant(start: State, driver: int) -> None:
    rng = random.Random(driver)  # chooses the moves; the example is replayable from `driver`
    state, last_round = start, start.rules.last_round
    for now in range(last_round * 12 + 8):
        if state.phase is Phase.OVER:
            break
        before = state
        state = step(state, rng, float(now))
        assert all(a <= b for a, b in zip(tokens(before), tokens(state), strict=True))  # only grow
        assert state.round <= last_round
        if state.phase in (Phase.TIEBREAK, Phase.OVER) and before.phase in (Phase.CLUES, Phase.GUESS):
            final_team = Team.WHITE if state.rules.mode is Mode.INTERCEPTOR else Team.BLACK
            assert (state.history[-1].round, state.history[-1].team) == (state.round, final_team)
        assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
        check_secrets(state)
    assert state.phase is Phase.OVER  # by the last round plus the tie-breaks
    assert state.result is not None and state.result.winners
    event(f"{state.rules.mode} ended by {state.result.reason}")


@given(seed=st.integers(), round_number=st.integers(1, 8), team=st.sampled_from(Team))
def test_every_draw_is_one_of_the_24_codes(seed: int, round_number: int, team: Team) -> None:
    code = draw_code(seed, round_number, team)
    assert code in codes() and len(set(code)) == 3 and set(code) <= {1, 2, 3, 4}


@given(seed=st.integers())
def test_keywords_are_distinct_for_any_seed(seed: int) -> None:
    state = new_game(words=PACK, seed=seed, white=["a", "b"], black=["c", "d"])
    drawn = state.teams[Team.WHITE].keywords + state.teams[Team.BLACK].keywords
    assert len(set(drawn)) == 8
