"""Actions: what a player asks the engine to do, and their JSON form.

Every action carries `turn`, the state's turn counter it was made for, so a message
composed against an older state is refused as stale instead of applied by surprise.
Each action checks its own fields on construction, so an action built in Python and
one parsed from JSON are validated the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from .model import RuleError, is_int

BOARD_SIZE = 25
MAX_CLUE_NUMBER = 9
MAX_CLUE_LENGTH = 40


def _bad(message: str, **params: Any) -> RuleError:
    return RuleError("bad_action", message, params)


def _check_turn(turn: object) -> None:
    if not is_int(turn) or turn < 0:
        raise _bad("The action needs the turn it was made for.", field="turn")


def _check_position(position: object) -> None:
    if not is_int(position) or not 0 <= position < BOARD_SIZE:
        raise _bad("A card position must be a whole number from 0 to 24.", field="position")


@dataclass(frozen=True)
class GiveClue:
    turn: int
    word: str
    number: int | None  # None: unlimited (CN-14)

    def __post_init__(self) -> None:
        _check_turn(self.turn)
        if not isinstance(self.word, str) or len(self.word) > MAX_CLUE_LENGTH:
            raise _bad(f"A clue is text of at most {MAX_CLUE_LENGTH} characters.", field="word")
        if self.number is not None and not (is_int(self.number) and 0 <= self.number <= MAX_CLUE_NUMBER):
            raise _bad("A clue number is 0 to 9, or unlimited.", field="number")


@dataclass(frozen=True)
class Propose:
    turn: int
    position: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)
        _check_position(self.position)


@dataclass(frozen=True)
class Unpropose:
    turn: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)


@dataclass(frozen=True)
class Confirm:
    turn: int
    position: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)
        _check_position(self.position)


@dataclass(frozen=True)
class EndTurn:
    turn: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)


@dataclass(frozen=True)
class RejectClue:
    turn: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)


@dataclass(frozen=True)
class PenaltyCover:
    turn: int
    position: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)
        _check_position(self.position)


@dataclass(frozen=True)
class OpponentCover:
    turn: int
    position: int

    def __post_init__(self) -> None:
        _check_turn(self.turn)
        _check_position(self.position)


Action = GiveClue | Propose | Unpropose | Confirm | EndTurn | RejectClue | PenaltyCover | OpponentCover

ACTION_NAMES: dict[str, type[Action]] = {
    "give_clue": GiveClue,
    "propose": Propose,
    "unpropose": Unpropose,
    "confirm": Confirm,
    "end_turn": EndTurn,
    "reject_clue": RejectClue,
    "penalty_cover": PenaltyCover,
    "opponent_cover": OpponentCover,
}
_NAME_OF: dict[type[Action], str] = {cls: name for name, cls in ACTION_NAMES.items()}


def action_from_json(data: object) -> Action:
    """Parse `{"action": "give_clue", "turn": 3, "word": "river", "number": 3}` and friends.

    Exactly the action's fields are accepted: an unknown or missing key is refused, so a
    client bug shows up at once rather than being half-applied.
    """
    if not isinstance(data, Mapping):
        raise _bad("An action must be a JSON object.")
    name = data.get("action")
    cls = ACTION_NAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise _bad("Unknown action.", action=str(name)[:40])
    expected = {field.name for field in fields(cls)}
    given = set(data) - {"action"}
    if given != expected:
        raise _bad(
            "The action has missing or unexpected fields.",
            missing=sorted(expected - given),
            unexpected=sorted(str(key)[:40] for key in given - expected),
        )
    build: Callable[..., Action] = cls
    return build(**{key: data[key] for key in expected})


def action_to_json(action: Action) -> dict[str, Any]:
    """The inverse of action_from_json (used by tests and handy for clients' fixtures)."""
    result: dict[str, Any] = {"action": _NAME_OF[type(action)]}
    result.update({field.name: getattr(action, field.name) for field in fields(action)})
    return result
