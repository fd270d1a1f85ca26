"""Player actions and their JSON form.

Actions tied to a moment of the game carry the `round` and `phase` the player's
screen showed (and, for guesses, whose code was being guessed). The engine refuses
an action whose moment has passed with `RuleError("stale")`, so a double submit or
an old screen is never applied twice.

`action_from_json` only checks the *shape* (types); `apply` checks the content
(counts, ranges, lengths) so that actions built in Python get the same checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .model import RuleError, Team


@dataclass(frozen=True)
class SaveDraft:
    round: int
    phase: str
    clues: tuple[str, ...]


@dataclass(frozen=True)
class SubmitClues:
    round: int
    phase: str
    clues: tuple[str, ...]


@dataclass(frozen=True)
class EditGuess:
    round: int
    phase: str
    guessing_for: Team
    code: tuple[int | None, ...]


@dataclass(frozen=True)
class LockGuess:
    round: int
    phase: str
    guessing_for: Team
    code: tuple[int, ...]


@dataclass(frozen=True)
class SuggestGuess:
    round: int
    phase: str
    guessing_for: Team
    code: tuple[int, ...]


@dataclass(frozen=True)
class SetNote:
    position: int
    text: str


@dataclass(frozen=True)
class SetOrder:
    order: tuple[str, ...]


@dataclass(frozen=True)
class TiebreakGuess:
    round: int
    phase: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Judge:
    round: int
    phase: str
    accept: tuple[int, ...]


Action = (
    SaveDraft
    | SubmitClues
    | EditGuess
    | LockGuess
    | SuggestGuess
    | SetNote
    | SetOrder
    | TiebreakGuess
    | Judge
)


def _bad(why: str) -> RuleError:
    return RuleError("bad_action", f"Malformed action: {why}.")


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):  # bool is an int in Python
        raise _bad("expected a whole number")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise _bad("expected text")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise _bad("expected a list")
    return value


def _team(value: object) -> Team:
    if value not in ("white", "black"):
        raise _bad("guessing_for must be 'white' or 'black'")
    return Team(_str(value))


def _strs(value: object) -> tuple[str, ...]:
    return tuple(_str(item) for item in _list(value))


def _ints(value: object) -> tuple[int, ...]:
    return tuple(_int(item) for item in _list(value))


def _blanks(value: object) -> tuple[int | None, ...]:
    return tuple(None if item is None else _int(item) for item in _list(value))


# field name -> converter, per action name; "action" selects the row.
_SCHEMAS: dict[str, tuple[type[Any], dict[str, Callable[[object], Any]]]] = {
    "save_draft": (SaveDraft, {"round": _int, "phase": _str, "clues": _strs}),
    "submit_clues": (SubmitClues, {"round": _int, "phase": _str, "clues": _strs}),
    "edit_guess": (EditGuess, {"round": _int, "phase": _str, "guessing_for": _team, "code": _blanks}),
    "lock_guess": (LockGuess, {"round": _int, "phase": _str, "guessing_for": _team, "code": _ints}),
    "suggest_guess": (SuggestGuess, {"round": _int, "phase": _str, "guessing_for": _team, "code": _ints}),
    "set_note": (SetNote, {"position": _int, "text": _str}),
    "set_order": (SetOrder, {"order": _strs}),
    "tiebreak_guess": (TiebreakGuess, {"round": _int, "phase": _str, "words": _strs}),
    "judge": (Judge, {"round": _int, "phase": _str, "accept": _ints}),
}
ACTION_NAMES: Mapping[str, type[Any]] = {name: cls for name, (cls, _) in _SCHEMAS.items()}
_NAME_OF: Mapping[type[Any], str] = {cls: name for name, cls in ACTION_NAMES.items()}


def action_from_json(data: object) -> Action:
    """Parse `{"action": "lock_guess", ...}`; anything malformed raises RuleError("bad_action")."""
    if not isinstance(data, dict) or data.get("action") not in _SCHEMAS:
        raise _bad("unknown or missing action")
    cls, fields = _SCHEMAS[data["action"]]
    if set(data) != {"action", *fields}:
        raise _bad(f"{data['action']} takes exactly {sorted(fields)}")
    action: Action = cls(**{name: convert(data[name]) for name, convert in fields.items()})
    return action


def action_to_json(action: Action) -> dict[str, Any]:
    """The inverse of `action_from_json`, for clients and tests."""
    out: dict[str, Any] = {"action": _NAME_OF[type(action)]}
    for name, value in vars(action).items():
        out[name] = list(value) if isinstance(value, tuple) else value
    return out
