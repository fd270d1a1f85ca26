"""What one person's screen may know about a game (CN-6, CN-S1, CN-S2).

This is the only way state leaves the server. The payload is built field by field
from an allow-list: nothing is copied from the state wholesale and then trimmed,
so a field added to State later cannot leak by accident.
"""

from __future__ import annotations

from typing import Any

from .model import ClueEntry, State, Team
from .play import deadline, outcome
from .serial import rules_to_json


def view_for(state: State, *, sees_key: bool) -> dict[str, Any]:
    """The game as seen by a spymaster (`sees_key=True`) or by anyone else.

    Without the key, a card's identity is present only once the card is covered;
    after the game ends the whole key is shown to everyone (CN-S2).
    """
    key_open = sees_key or state.over
    result = outcome(state)
    return {
        "mode": state.rules.mode.value,
        "phase": state.phase.value,
        "turn": state.turn,
        "team": state.team.value,
        "starting_team": state.starting_team.value,
        "sees_key": key_open,
        "cards": [_card(state, position, key_open) for position in range(len(state.words))],
        "clue": None if state.clue is None else _clue(state.clue),
        "guesses_made": state.guesses_made,
        "guesses_left": state.guesses_left,
        "log": [_clue(entry) for entry in state.log],
        "proposals": dict(state.proposals),
        "remaining": {team.value: state.agents_left(team) for team in Team},
        "penalty_owed": None if state.penalty_owed is None else state.penalty_owed.value,
        "deadline": deadline(state),
        "winner": None if result is None or result.winner is None else result.winner.value,
        "reason": None if result is None else result.reason,
        "score": None if result is None else result.score,
        "rating": None if result is None else result.rating,
        "rules": rules_to_json(state.rules),
    }


def _card(state: State, position: int, key_open: bool) -> dict[str, Any]:
    covered_by = state.covered_by[position]
    shown = key_open or covered_by is not None
    return {
        "position": position,
        "word": state.words[position],
        "covered": covered_by is not None,
        "covered_by": None if covered_by is None else covered_by.value,
        "identity": state.key[position].value if shown else None,
    }


def _clue(entry: ClueEntry) -> dict[str, Any]:
    return {
        "team": entry.team.value,
        "word": entry.word,
        "number": entry.number,
        "guesses": list(entry.guesses),
        "rejected": entry.rejected,
    }
