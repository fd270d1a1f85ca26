"""The values of a Decrypto game: enums, rules, errors and the game state.

Everything is a frozen dataclass or an enum: a move never edits a state, it builds
a new one, so a service can keep the old state until the new one is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

Code = tuple[int, int, int]
"""Three different digits from 1..4, in order (DC-3)."""
GuessDraft = tuple[int | None, int | None, int | None]
"""A team's guess while it is being written: a digit or a blank per clue."""
Clues = tuple[str, str, str]

DIGITS = (1, 2, 3, 4)
CLUE_MAX_CHARS = 60  # DC-16
NOTE_MAX_CHARS = 200  # DC-32
TIMER_RANGE = (15, 120)  # DC-8 room setting
INTERCEPTOR_ROUNDS = 5  # DC-43
EMPTY_CLUES: Clues = ("", "", "")
EMPTY_GUESS: GuessDraft = (None, None, None)
EMPTY_NOTES = ("", "", "", "")


class Team(StrEnum):
    WHITE = "white"
    BLACK = "black"

    @property
    def other(self) -> Team:
        return Team.BLACK if self is Team.WHITE else Team.WHITE


TEAMS = (Team.WHITE, Team.BLACK)
"""Play order: White's code is guessed first (DC-9, DC-14)."""


class Mode(StrEnum):
    STANDARD = "standard"
    INTERCEPTOR = "interceptor"  # DC-40..DC-44: White is the team of two, Black the Interceptor


class Phase(StrEnum):
    CLUES = "clues"
    GUESS = "guess"
    TIEBREAK = "tiebreak"
    JUDGE = "judge"
    OVER = "over"


@dataclass(frozen=True)
class Rules:
    mode: Mode = Mode.STANDARD
    timer_seconds: int | None = 30
    """None switches the timer off; otherwise 15..120 (DC-8). Ignored in INTERCEPTOR (DC-44)."""
    max_rounds: int = 8
    """After this round a standard game goes to the tie-breaks (DC-23); INTERCEPTOR always plays 5 (DC-43)."""

    @property
    def last_round(self) -> int:
        """The round after which the game must end (DC-23 standard, DC-43 Interceptor)."""
        return INTERCEPTOR_ROUNDS if self.mode is Mode.INTERCEPTOR else self.max_rounds

    @property
    def timer(self) -> int | None:
        """Seconds the late Encryptor gets; None when there is no race (DC-44)."""
        return None if self.mode is Mode.INTERCEPTOR else self.timer_seconds


class RuleError(Exception):
    """An illegal action or setup. `code` is stable snake_case for programs, `message` English."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, Any] = params

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


T = TypeVar("T")


@dataclass(frozen=True)
class Pair(Generic[T]):
    """One value per team; immutable, unlike a dict, and always complete."""

    white: T
    black: T

    @staticmethod
    def build(make: Callable[[Team], T]) -> Pair[T]:
        return Pair(make(Team.WHITE), make(Team.BLACK))

    def __getitem__(self, team: Team) -> T:
        return self.white if team is Team.WHITE else self.black

    def set(self, team: Team, value: T) -> Pair[T]:
        return Pair(value, self.black) if team is Team.WHITE else Pair(self.white, value)


@dataclass(frozen=True)
class TeamState:
    order: tuple[str, ...]
    """Player ids in rotation order (DC-5)."""
    keywords: tuple[str, ...]
    """Positions 1..4 are indexes 0..3; empty for the Interceptor (DC-40)."""
    notes: tuple[str, ...] = EMPTY_NOTES
    """Private notes on positions 1..4 (DC-32)."""
    interceptions: int = 0
    miscommunications: int = 0

    @property
    def points(self) -> int:
        return self.interceptions - self.miscommunications  # DC-24


@dataclass(frozen=True)
class Turn:
    """One team's Encryptor, code and clues in the current round."""

    encryptor: str
    code: Code
    clues: Clues = EMPTY_CLUES
    """The draft while writing; the clues once submitted."""
    submitted: bool = False


@dataclass(frozen=True)
class Reveal:
    """One revealed code, recorded in the order of DC-12; the row of the notes sheet (DC-30)."""

    round: int
    team: Team
    """Whose code this was."""
    encryptor: str
    clues: Clues
    interception: Code | None
    """The opponents' guess; None in round 1 (DC-11)."""
    decipher: Code
    code: Code

    @property
    def intercepted(self) -> bool:
        return self.interception == self.code

    @property
    def deciphered(self) -> bool:
        return self.decipher == self.code


@dataclass(frozen=True)
class Tiebreak:
    """Keyword guessing (DC-25)."""

    guesses: Pair[tuple[str, ...] | None]
    """Each team's guesses of the *opponents'* keywords, positions 1..4."""
    accepted: Pair[tuple[int, ...] | None]
    """Positions of its *own* keywords a team accepts as equivalent; None until it judged."""


@dataclass(frozen=True)
class Outcome:
    winners: frozenset[Team]
    reason: str


@dataclass(frozen=True)
class Seat:
    """Who a viewer or actor is in this game."""

    player: str | None
    team: Team | None
    is_encryptor: bool = False
    is_interceptor: bool = False

    @property
    def is_spectator(self) -> bool:
        return self.team is None


@dataclass(frozen=True)
class State:
    rules: Rules
    seed: int
    """Secret: every code is derived from it. Never leaves the server."""
    round: int
    phase: Phase
    teams: Pair[TeamState]
    turns: Pair[Turn | None]
    """The current round's turns; None for the Interceptor and once no round is in play."""
    guessing_for: Team | None = None
    """During GUESS: whose code is being guessed."""
    guesses: Pair[GuessDraft] = Pair(EMPTY_GUESS, EMPTY_GUESS)
    """Each team's shared draft for the code being guessed (DC-10)."""
    suggestions: Pair[tuple[tuple[str, Code], ...]] = Pair((), ())
    """Each team's bots' guesses, offered to its people beside the draft, never written into it:
    a person decides what the team locks (issue 29)."""
    locked: Pair[Code | None] = Pair(None, None)
    deadline: float | None = None
    history: tuple[Reveal, ...] = ()
    tiebreak: Tiebreak | None = None
    result: Outcome | None = None
    bots: frozenset[str] = frozenset()
    """The roster's bot players, fixed at the deal like the rosters: a bot's submit starts no
    person's timer (DC-8)."""

    def team_of(self, player: str | None) -> Team | None:
        for team in TEAMS:
            if player in self.teams[team].order:
                return team
        return None
