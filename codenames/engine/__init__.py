"""Codenames rules engine: pure Python, standard library only (no Django, no clock, no global random).

Typical use by a service::

    state = new_game(words=pack, seed=seed, rules=Rules(), now=now)
    state = apply(state, actor, action_from_json(message), now=now)  # raises RuleError
    payload = view_for(state, sees_key=actor_is_spymaster)
"""

from .actions import (
    Action,
    Confirm,
    EndTurn,
    GiveClue,
    OpponentCover,
    PenaltyCover,
    Propose,
    RejectClue,
    Unpropose,
    action_from_json,
    action_to_json,
)
from .clues import check_clue
from .model import (
    RATINGS,
    Actor,
    ClueEntry,
    Identity,
    Mode,
    Outcome,
    Phase,
    Role,
    RuleError,
    Rules,
    State,
    Team,
)
from .play import apply, deadline, expire, outcome
from .replay import replay, step
from .serial import rules_from_json, rules_to_json, state_from_json, state_to_json
from .start import new_game
from .view import view_for

__all__ = [
    "RATINGS",
    "Action",
    "Actor",
    "ClueEntry",
    "Confirm",
    "EndTurn",
    "GiveClue",
    "Identity",
    "Mode",
    "OpponentCover",
    "Outcome",
    "PenaltyCover",
    "Phase",
    "Propose",
    "RejectClue",
    "Role",
    "RuleError",
    "Rules",
    "State",
    "Team",
    "Unpropose",
    "action_from_json",
    "action_to_json",
    "apply",
    "check_clue",
    "deadline",
    "expire",
    "new_game",
    "outcome",
    "rules_from_json",
    "rules_to_json",
    "state_from_json",
    "state_to_json",
    "replay",
    "step",
    "view_for",
]
