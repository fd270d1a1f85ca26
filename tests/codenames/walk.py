"""Random games for the property tests, checked against an independent rules oracle.

`walk` plays a game with hypothesis-drawn moves: mostly legal ones (built from the
rules directly) and some arbitrary ones. Every move's fate is compared with `is_legal`,
an oracle written from the rule text rather than from the engine's code, and every
game is played to its end so end states are always covered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from hypothesis import strategies as st

from codenames.engine import (
    Action,
    Actor,
    Confirm,
    EndTurn,
    GiveClue,
    Identity,
    Mode,
    OpponentCover,
    PenaltyCover,
    Phase,
    Propose,
    RejectClue,
    Role,
    RuleError,
    Rules,
    State,
    Team,
    Unpropose,
    apply,
    expire,
    new_game,
)

from .builders import BLUE_OP, LONE_OP, RED_OP, RED_OP2, WORDS, spymaster

ACTORS = (spymaster(Team.RED), spymaster(Team.BLUE), RED_OP, RED_OP2, BLUE_OP, LONE_OP)
# "app", "forests" and "Zebra" clash with board words until those are covered (CN-9, CN-10).
CLUE_WORDS = ("river", "moon", "app", "forests", "Zebra")
NUMBERS = (None, 0, 1, 2, 9)
KINDS = ("clue", "propose", "unpropose", "confirm", "end", "reject", "penalty", "opponent")
# Weights keep games moving: most drawn moves reveal a card or start a turn.
WEIGHTS = {"confirm": 6, "clue": 3, "opponent": 3, "penalty": 2}
MAX_RANDOM_STEPS = 50
T = TypeVar("T")

rules_strategy = st.builds(
    Rules,
    mode=st.sampled_from(Mode),
    multi_word_clues=st.booleans(),
    clue_seconds=st.sampled_from([None, 30, 120]),
    guess_seconds=st.sampled_from([None, 30, 90]),
    coop_team=st.sampled_from(Team),
)


@dataclass(frozen=True)
class Step:
    before: State
    actor: Actor | None  # None: time passed (expire)
    action: Action | None
    accepted: bool
    after: State


def clue_is_legal(state: State, word: str) -> bool:
    clue = word.casefold()
    for codename, by in zip(state.words, state.covered_by, strict=True):
        visible = codename.casefold()
        if by is None and (
            clue == visible or (min(len(clue), len(visible)) >= 3 and (clue in visible or visible in clue))
        ):
            return False
    return True


def is_legal(state: State, actor: Actor, action: Action) -> bool:
    """The rules, restated independently of the engine (CN-7..CN-34)."""
    if state.over or action.turn != state.turn:
        return False
    team, phase, mode = state.team, state.phase, state.rules.mode
    spy = actor.role is Role.SPYMASTER
    plays_for_team = actor.team is team or (actor.team is None and mode is Mode.THREE)
    operative = actor.role is Role.OPERATIVE and phase is Phase.GUESS and plays_for_team
    position = getattr(action, "position", 0)
    visible = state.covered_by[position] is None
    match action:
        case GiveClue(word=word):
            return spy and actor.team is team and phase is Phase.CLUE and clue_is_legal(state, word)
        case Propose() | Confirm():
            return operative and visible
        case Unpropose():
            return operative and state.proposal_of(actor.player) is not None
        case EndTurn():
            return operative and state.guesses_made > 0
        case RejectClue():
            return spy and mode is not Mode.COOP and phase is Phase.GUESS and actor.team is team.other
        case PenaltyCover():
            owed = state.penalty_owed
            return (
                spy and owed is not None and actor.team is owed and phase is Phase.CLUE and visible
                and state.key[position] is Identity.agent_of(owed)
            )  # fmt: skip
        case OpponentCover():
            opponent = state.rules.coop_team.other
            return (
                spy and mode is Mode.COOP and actor.team is state.rules.coop_team and phase is Phase.OPPONENT
                and visible and state.key[position] is Identity.agent_of(opponent)
            )  # fmt: skip
    return False


def legal_moves(state: State) -> dict[str, list[tuple[Actor, Action]]]:
    """Legal moves grouped by kind, built straight from the rules (not by trial)."""
    if state.over:
        return {}
    turn, team = state.turn, state.team
    uncovered = [p for p, by in enumerate(state.covered_by) if by is None]
    moves: dict[str, list[tuple[Actor, Action]]] = {}
    if state.phase is Phase.CLUE:
        words = [word for word in CLUE_WORDS if clue_is_legal(state, word)]
        moves["clue"] = [(spymaster(team), GiveClue(turn, w, n)) for w in words for n in NUMBERS]
        if state.penalty_owed is not None:
            own = Identity.agent_of(state.penalty_owed)
            spy = spymaster(state.penalty_owed)
            moves["penalty"] = [(spy, PenaltyCover(turn, p)) for p in uncovered if state.key[p] is own]
    elif state.phase is Phase.GUESS:
        ops = [RED_OP, RED_OP2] if team is Team.RED else [BLUE_OP]
        ops += [LONE_OP] if state.rules.mode is Mode.THREE else []
        moves["confirm"] = [(op, Confirm(turn, p)) for op in ops for p in uncovered]
        moves["propose"] = [(op, Propose(turn, p)) for op in ops for p in uncovered]
        moves["unpropose"] = [(op, Unpropose(turn)) for op in ops if state.proposal_of(op.player) is not None]
        moves["end"] = [(op, EndTurn(turn)) for op in ops] if state.guesses_made else []
        if state.rules.mode is not Mode.COOP:
            moves["reject"] = [(spymaster(team.other), RejectClue(turn))]
    else:
        opponent = Identity.agent_of(state.rules.coop_team.other)
        spy = spymaster(state.rules.coop_team)
        moves["opponent"] = [(spy, OpponentCover(turn, p)) for p in uncovered if state.key[p] is opponent]
    return {kind: listed for kind, listed in moves.items() if listed}


def build_move(
    kind: str, turn: int, position: int = 0, word: str = "river", number: int | None = 1
) -> Action:
    """Any action of `kind`, legal or not."""
    simple: dict[str, Action] = {
        "unpropose": Unpropose(turn),
        "end": EndTurn(turn),
        "reject": RejectClue(turn),
    }
    if kind == "clue":
        return GiveClue(turn, word, number)
    if kind in simple:
        return simple[kind]
    by_position: dict[str, Callable[[int, int], Action]] = {
        "propose": Propose,
        "confirm": Confirm,
        "penalty": PenaltyCover,
        "opponent": OpponentCover,
    }
    return by_position[kind](turn, position)


class Picker:
    """Choices decoded from one drawn integer: one hypothesis draw per step keeps walks fast,
    and shrinking the integer towards 0 still shrinks towards the first options."""

    def __init__(self, number: int) -> None:
        self.number = number

    def pick(self, options: Sequence[T]) -> T:
        self.number, index = divmod(self.number, len(options))
        return options[index]


def arbitrary_move(state: State, picker: Picker) -> tuple[Actor, Action]:
    actor = picker.pick(ACTORS)
    action = build_move(
        picker.pick(KINDS),
        max(0, state.turn + picker.pick([0, 0, 0, -1, 1])),
        picker.pick(range(25)),
        picker.pick(CLUE_WORDS),
        picker.pick(NUMBERS),
    )
    return actor, action


def _try(state: State, actor: Actor, action: Action, now: float) -> Step:
    legal = is_legal(state, actor, action)
    try:
        after = apply(state, actor, action, now=now)
    except RuleError:
        assert not legal, f"refused a legal move {actor} {action}"
        return Step(state, actor, action, False, state)
    assert legal, f"accepted an illegal move {actor} {action}"
    assert (None if after.over else (after.team, after.phase)) == expected_next(state, action, now)
    return Step(state, actor, action, True, after)


def _decided_with(state: State, position: int) -> bool:
    covered = {p for p, by in enumerate(state.covered_by) if by is not None} | {position}
    if state.key[position] is Identity.ASSASSIN:
        return True
    agents = [p for p, identity in enumerate(state.key) if identity is state.key[position]]
    return state.key[position].team is not None and covered.issuperset(agents)


def expected_next(state: State, action: Action, now: float) -> tuple[Team, Phase] | None:
    """(team, phase) after a legal action, or None when it ends the game (CN-11..CN-21, CN-31)."""
    team, players = state.team, state.rules.coop_team
    turn_over = (players.other, Phase.OPPONENT) if state.rules.mode is Mode.COOP else (team.other, Phase.CLUE)
    match action:
        case GiveClue() | Propose() | Unpropose():
            return team, Phase.GUESS
        case EndTurn() | RejectClue():
            return turn_over
        case PenaltyCover(position=p):
            return None if _decided_with(state, p) else (team, Phase.CLUE)
        case OpponentCover(position=p):
            return None if _decided_with(state, p) else (players, Phase.CLUE)
        case Confirm(position=p):
            if _decided_with(state, p):
                return None
            timed_out = state.deadline is not None and now >= state.deadline
            limit_left = state.guesses_left is None or state.guesses_left > 1
            own = state.key[p] is Identity.agent_of(team)
            return (team, Phase.GUESS) if own and limit_left and not timed_out else turn_over
    raise AssertionError(action)


def walk(data: st.DataObject) -> list[Step]:
    """Play one random game to its end; every step is checked against the oracle."""
    state = new_game(words=WORDS, seed=data.draw(st.integers(0, 2**32)), rules=data.draw(rules_strategy))
    now, steps = 0.0, []
    length = data.draw(st.integers(0, MAX_RANDOM_STEPS))
    choices = data.draw(st.lists(st.integers(0, 2**62), min_size=length, max_size=length))
    for choice in choices:
        if state.over:
            break
        picker = Picker(choice)
        now += picker.pick([0.0, 1.0, 40.0, 100.0])
        expired = expire(state, now=now)
        if expired is not state:
            steps.append(Step(state, None, None, True, expired))
        if picker.pick(range(5)) == 0:
            actor, action = arbitrary_move(expired, picker)
        else:
            moves = legal_moves(expired)
            kinds = [kind for kind in moves for _ in range(WEIGHTS.get(kind, 1))]
            actor, action = picker.pick(moves[picker.pick(kinds)])
        steps.append(_try(expired, actor, action, now))
        state = steps[-1].after
    return steps + finish(state, now)


def finish(state: State, now: float) -> list[Step]:
    """Play on without time passing until the game ends, like a team that reads its
    spymaster perfectly: unlimited clues, own agents first, the assassin last."""
    steps = []
    while not state.over:
        moves = legal_moves(state)
        kind = next(k for k in ("confirm", "opponent", "clue") if k in moves)
        actor, action = min(moves[kind], key=lambda move: _finishing_preference(state, move[1]))
        steps.append(_try(state, actor, action, now))
        state = steps[-1].after
    return steps


def _finishing_preference(state: State, action: Action) -> tuple[int, int]:
    if isinstance(action, GiveClue):
        return (0 if action.number is None else 1, 0)
    position = getattr(action, "position", 0)
    identity = state.key[position]
    rank = 0 if identity is Identity.agent_of(state.team) else 2 if identity is Identity.ASSASSIN else 1
    return (rank, position)


def states(steps: list[Step]) -> list[State]:
    return [steps[0].before, *(step.after for step in steps)] if steps else []
