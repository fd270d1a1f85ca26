"""Setting up a game (DC-1, DC-2, DC-40) and starting each round (DC-5, DC-6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from .deck import draw_code, draw_keywords
from .model import (
    EMPTY_GUESS,
    TIMER_RANGE,
    Mode,
    Pair,
    Phase,
    RuleError,
    Rules,
    State,
    Team,
    TeamState,
    Turn,
)
from .seats import next_encryptor

DEFAULT_RULES = Rules()  # frozen, so one shared default is safe


def new_game(
    *,
    words: Sequence[str],
    seed: int,
    white: Sequence[str],
    black: Sequence[str],
    rules: Rules = DEFAULT_RULES,
    now: float = 0.0,
    bots: Iterable[str] = (),
) -> State:
    """A game in round 1, clues phase, with keywords and the first codes drawn.

    `white`/`black` are player ids in rotation order (DC-5). In INTERCEPTOR mode
    `white` is the team of two and `black` the lone Interceptor (DC-40).
    `now` is accepted for symmetry with `apply`; nothing is timed before a submit.
    `bots`: the players who are bots; their submits start no timer (DC-8).
    Every keyword and code derives from `seed`: pass an unguessable one (e.g.
    `secrets.randbits(128)`), or a player could search small seeds for their own
    keywords and so learn the opponents' keywords and codes.
    """
    _check_rules(rules)
    check_players(rules.mode, tuple(white), tuple(black))
    interceptor = rules.mode is Mode.INTERCEPTOR
    keywords = draw_keywords(words, seed, 4 if interceptor else 8)
    teams = Pair(
        TeamState(order=tuple(white), keywords=keywords[:4]),
        TeamState(order=tuple(black), keywords=() if interceptor else keywords[4:]),
    )
    seated = set(white) | set(black)
    state = State(
        rules=rules,
        seed=seed,
        round=0,
        phase=Phase.CLUES,
        teams=teams,
        turns=Pair(None, None),
        bots=frozenset(b for b in bots if b in seated),
    )
    return start_round(state)


def start_round(state: State) -> State:
    """Next round: Encryptors by rotation, fresh codes drawn with replacement (DC-5, DC-6)."""
    number = state.round + 1

    def turn_for(team: Team) -> Turn | None:
        if state.rules.mode is Mode.INTERCEPTOR and team is Team.BLACK:
            return None  # the Interceptor has no code (DC-40)
        encryptor = next_encryptor(state, team) if number > 1 else state.teams[team].order[0]
        assert encryptor is not None  # a coding team has a turn in every round
        return Turn(encryptor=encryptor, code=draw_code(state.seed, number, team))

    return replace(
        state,
        round=number,
        phase=Phase.CLUES,
        turns=Pair.build(turn_for),
        guessing_for=None,
        guesses=Pair(EMPTY_GUESS, EMPTY_GUESS),
        locked=Pair(None, None),
        deadline=None,
    )


def _check_rules(rules: Rules) -> None:
    timer = rules.timer_seconds
    if timer is not None and not TIMER_RANGE[0] <= timer <= TIMER_RANGE[1]:
        raise RuleError("bad_rules", "The timer must be off or between 15 and 120 seconds.")
    if rules.max_rounds < 1:
        raise RuleError("bad_rules", "A game needs at least one round.")


def check_players(mode: Mode, white: tuple[str, ...], black: tuple[str, ...]) -> None:
    everyone = white + black
    if len(set(everyone)) != len(everyone) or not all(everyone):
        raise RuleError("duplicate_player", "Every player needs a distinct id and sits in one team only.")
    if mode is Mode.INTERCEPTOR:
        if (len(white), len(black)) != (2, 1):
            raise RuleError("bad_team_size", "The three-player game is a team of 2 against 1 Interceptor.")
        return
    if not (2 <= len(white) <= 4 and 2 <= len(black) <= 4):
        raise RuleError(
            "bad_team_size", "Each team needs 2 to 4 players.", white=len(white), black=len(black)
        )
    if abs(len(white) - len(black)) > 1:  # DC-1: "as equal in size as possible"
        raise RuleError("unbalanced_teams", "Teams must differ in size by one player at most.")
