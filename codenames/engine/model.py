"""Plain values shared by the whole engine: teams, identities, roles, rules, errors.

Standard library only: the engine must run (and be tested) without Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeGuard


class Team(StrEnum):
    RED = "red"
    BLUE = "blue"

    @property
    def other(self) -> Team:
        return Team.BLUE if self is Team.RED else Team.RED


class Identity(StrEnum):
    RED = "red"
    BLUE = "blue"
    BYSTANDER = "bystander"
    ASSASSIN = "assassin"

    @classmethod
    def agent_of(cls, team: Team) -> Identity:
        return cls(team.value)

    @property
    def team(self) -> Team | None:
        """The team whose agent this is, or None for bystanders and the assassin."""
        return Team(self.value) if self in (Identity.RED, Identity.BLUE) else None


class Role(StrEnum):
    SPYMASTER = "spymaster"
    OPERATIVE = "operative"


class Mode(StrEnum):
    STANDARD = "standard"
    COOP = "coop"  # CN-30..CN-33: one team against a simulated opponent
    THREE = "three"  # CN-34 competitive: two spymasters, one operative for both teams


class Phase(StrEnum):
    CLUE = "clue"
    GUESS = "guess"
    OPPONENT = "opponent"  # COOP: the players' spymaster picks the opponent's cover (CN-31)
    OVER = "over"


class RuleError(Exception):
    """The one error the engine raises for an illegal action or malformed input.

    `code` is stable snake_case for programs (and translations); `message` is English
    for people; `params` carries the values a translated message may need.
    """

    def __init__(self, code: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = dict(params or {})

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r}, {self.params!r})"


TIMER_MIN_SECONDS = 30
TIMER_MAX_SECONDS = 300


def is_int(value: object) -> TypeGuard[int]:
    """True for real integers; bool is an int subclass but never a valid count here."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Rules:
    """A room's house rules for one game (CN-25..CN-28, CN-30..CN-34)."""

    mode: Mode = Mode.STANDARD
    multi_word_clues: bool = False
    clue_seconds: int | None = None
    guess_seconds: int | None = None
    coop_team: Team = Team.RED

    def __post_init__(self) -> None:
        # Coerce plain strings so rules read back from JSON or a form compare as enums.
        try:
            object.__setattr__(self, "mode", Mode(self.mode))
            object.__setattr__(self, "coop_team", Team(self.coop_team))
        except ValueError as exc:
            raise RuleError("bad_rules", "Unknown game mode or team.") from exc
        if not isinstance(self.multi_word_clues, bool):
            raise RuleError("bad_rules", "multi_word_clues must be true or false.")
        for name in ("clue_seconds", "guess_seconds"):
            seconds = getattr(self, name)
            if seconds is not None and not (
                is_int(seconds) and TIMER_MIN_SECONDS <= seconds <= TIMER_MAX_SECONDS
            ):
                raise RuleError(
                    "bad_rules",
                    f"The timer must be off or between {TIMER_MIN_SECONDS} and {TIMER_MAX_SECONDS} seconds.",
                    {"field": name, "min": TIMER_MIN_SECONDS, "max": TIMER_MAX_SECONDS},
                )


@dataclass(frozen=True)
class Actor:
    """Who sends an action. The room layer fills this from the session, never from the message.

    `team=None` with `Role.OPERATIVE` is the lone operative of `Mode.THREE`, who plays
    for whichever team is on turn.
    """

    player: str
    team: Team | None
    role: Role

    def __post_init__(self) -> None:
        # Accept plain strings from the database: "red" is not Team.RED would silently
        # turn every action into not_your_turn.
        try:
            object.__setattr__(self, "role", Role(self.role))
            if self.team is not None:
                object.__setattr__(self, "team", Team(self.team))
        except ValueError as exc:
            raise RuleError("bad_actor", "Unknown team or role.") from exc


@dataclass(frozen=True)
class Outcome:
    winner: Team | None  # None: the players of a co-operative game lost
    reason: str  # "agents_covered", "assassin", "opponent_agents_covered"
    score: int | None = None  # co-operative wins only (CN-33)
    rating: str | None = None


# CN-33: the rulebook's ratings by the number of opponent agents left uncovered.
RATINGS: dict[int, str] = {
    8: "That's\u2026 hard to believe.",
    7: "Mission impossible.",
    6: "Wow!",
    5: "You'll get a call from MI6.",
    4: "Top-secret clearance.",
    3: "Your watches are synchronised.",
    2: "OK. But you can do better.",
    1: "Well, a win is a win, right?",
}


@dataclass(frozen=True)
class ClueEntry:
    """One line of the clue log (CN-23): who gave it, and what was guessed under it."""

    team: Team
    word: str
    number: int | None  # None: unlimited
    guesses: tuple[int, ...] = ()
    rejected: bool = False


@dataclass(frozen=True)
class State:
    """Everything about one game. Positions are row-major, 0..24 (CN-3).

    `turn` counts every change of team or phase, so an action made for an older
    state is recognised as stale. `covered_by[i]` is the team whose action covered
    card i (None while it is visible); the identity shown is always `key[i]`.
    """

    rules: Rules
    words: tuple[str, ...]
    key: tuple[Identity, ...]
    covered_by: tuple[Team | None, ...]
    starting_team: Team
    team: Team  # on turn; in Phase.OPPONENT the simulated opponent
    phase: Phase
    turn: int = 0
    guesses_made: int = 0
    guesses_left: int | None = None  # None: no limit (clue 0 or unlimited, CN-14)
    log: tuple[ClueEntry, ...] = ()
    proposals: tuple[tuple[str, int], ...] = ()  # (player, position), this guessing phase only
    penalty_owed: Team | None = None  # CN-21: this team's spymaster may cover one own agent
    deadline: float | None = None
    winner: Team | None = None
    reason: str | None = None
    score: int | None = None

    @property
    def covered(self) -> tuple[bool, ...]:
        return tuple(team is not None for team in self.covered_by)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def clue(self) -> ClueEntry | None:
        """The clue being guessed, if any (the last log line while guessing)."""
        return self.log[-1] if self.phase is Phase.GUESS and self.log else None

    def agents_left(self, team: Team) -> int:
        agent = Identity.agent_of(team)
        return sum(
            1
            for identity, by in zip(self.key, self.covered_by, strict=True)
            if identity is agent and by is None
        )

    def proposal_of(self, player: str) -> int | None:
        return dict(self.proposals).get(player)
