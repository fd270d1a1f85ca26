"""Decrypto's rules, as pure Python (rules DC-1..DC-44, DC-S1..DC-S3 in docs).

Standard library only: no Django, no clock, no global random. The seed and the
time come in as arguments; the state is a frozen value that converts to and from
plain JSON; an illegal move raises `RuleError` with a stable `code`.

    state = new_game(words=pack, seed=seed, white=["ann", "bob"], black=["cy", "di"])
    state = apply(state, "ann", SubmitClues(round=1, phase="clues", clues=(...)), now=t)
    payload = view_for(state, player="bob")  # the only thing a browser may receive
"""

from .actions import (
    Action,
    EditGuess,
    Judge,
    LockGuess,
    SaveDraft,
    SetNote,
    SetOrder,
    SubmitClues,
    SuggestGuess,
    TiebreakGuess,
    action_from_json,
    action_to_json,
)
from .deck import codes
from .model import Mode, Outcome, Phase, RuleError, Rules, Seat, State, Team
from .play import apply, deadline, expire, outcome
from .replay import replay, step
from .seats import role_of
from .serial import state_from_json, state_to_json
from .start import new_game
from .view import view_for

__all__ = [
    "Action",
    "EditGuess",
    "SuggestGuess",
    "Judge",
    "LockGuess",
    "Mode",
    "Outcome",
    "Phase",
    "RuleError",
    "Rules",
    "SaveDraft",
    "Seat",
    "SetNote",
    "SetOrder",
    "State",
    "SubmitClues",
    "Team",
    "TiebreakGuess",
    "action_from_json",
    "action_to_json",
    "apply",
    "codes",
    "deadline",
    "expire",
    "new_game",
    "outcome",
    "role_of",
    "state_from_json",
    "state_to_json",
    "replay",
    "step",
    "view_for",
]
