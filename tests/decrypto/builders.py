"""Compact builders for engine tests: seeded games, forced codes, whole rounds."""

from __future__ import annotations

from dataclasses import replace

from decrypto.engine import (
    LockGuess,
    Rules,
    State,
    SubmitClues,
    Team,
    apply,
    codes,
    new_game,
)
from decrypto.engine.model import Code, TeamState, Turn

WORDS = (
    "apple", "river", "castle", "piano", "tiger", "cloud", "anchor", "violin",
    "desert", "rocket", "garden", "mirror", "candle", "forest", "bridge", "island",
)  # fmt: skip
WHITE = ("w1", "w2")
BLACK = ("b1", "b2")
W, B = Team.WHITE, Team.BLACK


def game(
    *,
    white: tuple[str, ...] = WHITE,
    black: tuple[str, ...] = BLACK,
    seed: int = 7,
    rules: Rules = Rules(),  # noqa: B008 - frozen value
) -> State:
    return new_game(words=WORDS, seed=seed, white=white, black=black, rules=rules)


def forced(state: State, *, white: Code | None = None, black: Code | None = None) -> State:
    """This round's codes replaced: the test decides what the deck drew."""
    turns = state.turns
    for team, code in ((W, white), (B, black)):
        turn = turns[team]
        if code is not None and turn is not None:
            turns = turns.set(team, replace(turn, code=code))
    return replace(state, turns=turns)


def with_keywords(state: State, team: Team, keywords: tuple[str, ...]) -> State:
    held: TeamState = replace(state.teams[team], keywords=keywords)
    return replace(state, teams=state.teams.set(team, held))


def turn_of(state: State, team: Team) -> Turn:
    turn = state.turns[team]
    assert turn is not None, f"{team} has no turn now"
    return turn


def encryptor(state: State, team: Team) -> str:
    return turn_of(state, team).encryptor


def code_of(state: State, team: Team) -> Code:
    return turn_of(state, team).code


def member(state: State, team: Team) -> str:
    """A member of `team` who is not its Encryptor (so may always guess)."""
    return next(
        p for p in state.teams[team].order if state.turns[team] is None or p != encryptor(state, team)
    )


def fresh_clues(state: State, team: Team) -> tuple[str, str, str]:
    return (f"{team}-{state.round}-a", f"{team}-{state.round}-b", f"{team}-{state.round}-c")


def submit(state: State, team: Team, clues: tuple[str, ...] | None = None, now: float = 0.0) -> State:
    action = SubmitClues(round=state.round, phase="clues", clues=clues or fresh_clues(state, team))
    return apply(state, encryptor(state, team), action, now=now)


def submit_all(state: State, now: float = 0.0) -> State:
    for team in (W, B):
        if state.turns[team] is not None:
            state = submit(state, team, now=now)
    return state


def lock(state: State, team: Team, code: Code, player: str | None = None) -> State:
    assert state.guessing_for is not None
    action = LockGuess(round=state.round, phase="guess", guessing_for=state.guessing_for, code=code)
    return apply(state, player or member(state, team), action, now=0.0)


def wrong(code: Code) -> Code:
    return next(c for c in codes() if c != code)


def guess_code(state: State, *, deciphered: bool = True, intercepted: bool = False) -> State:
    """Lock both guesses of the code being guessed: right or wrong as asked."""
    target = state.guessing_for
    assert target is not None
    code = code_of(state, target)
    if state.round > 1:
        state = lock(state, target.other, code if intercepted else wrong(code))
    return lock(state, target, code if deciphered else wrong(code))


def play_round(
    state: State,
    *,
    white_ok: bool = True,
    black_ok: bool = True,
    white_intercepts: bool = False,
    black_intercepts: bool = False,
) -> State:
    """A whole standard round. `white_ok`: White deciphers its own code."""
    state = submit_all(state)
    state = guess_code(state, deciphered=white_ok, intercepted=black_intercepts)
    return guess_code(state, deciphered=black_ok, intercepted=white_intercepts)
