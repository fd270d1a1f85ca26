"""The game state's lossless conversion to and from plain JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import ClueEntry, Identity, Mode, Phase, RuleError, Rules, State, Team

STATE_FORMAT = 1  # bump when the JSON shape changes, so stored games can be migrated


def rules_to_json(rules: Rules) -> dict[str, Any]:
    return {
        "mode": rules.mode.value,
        "multi_word_clues": rules.multi_word_clues,
        "clue_seconds": rules.clue_seconds,
        "guess_seconds": rules.guess_seconds,
        "coop_team": rules.coop_team.value,
    }


def rules_from_json(data: Mapping[str, Any]) -> Rules:
    """Rules from JSON; missing keys take their defaults, so older rooms keep working."""
    defaults = Rules()
    return Rules(
        mode=Mode(data.get("mode", defaults.mode)),
        multi_word_clues=data.get("multi_word_clues", defaults.multi_word_clues),
        clue_seconds=data.get("clue_seconds", defaults.clue_seconds),
        guess_seconds=data.get("guess_seconds", defaults.guess_seconds),
        coop_team=Team(data.get("coop_team", defaults.coop_team)),
    )


def _team_or_none(team: Team | None) -> str | None:
    return None if team is None else team.value


def state_to_json(state: State) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "rules": rules_to_json(state.rules),
        "words": list(state.words),
        "key": [identity.value for identity in state.key],
        "covered_by": [_team_or_none(team) for team in state.covered_by],
        "starting_team": state.starting_team.value,
        "team": state.team.value,
        "phase": state.phase.value,
        "turn": state.turn,
        "guesses_made": state.guesses_made,
        "guesses_left": state.guesses_left,
        "log": [_clue_to_json(entry) for entry in state.log],
        "proposals": dict(state.proposals),
        "penalty_owed": _team_or_none(state.penalty_owed),
        "deadline": state.deadline,
        "winner": _team_or_none(state.winner),
        "reason": state.reason,
        "score": state.score,
    }


def _clue_to_json(entry: ClueEntry) -> dict[str, Any]:
    return {
        "team": entry.team.value,
        "word": entry.word,
        "number": entry.number,
        "guesses": list(entry.guesses),
        "rejected": entry.rejected,
    }


def _clue_from_json(data: Mapping[str, Any]) -> ClueEntry:
    return ClueEntry(
        team=Team(data["team"]),
        word=str(data["word"]),
        number=_optional_int(data["number"]),
        guesses=tuple(int(position) for position in data["guesses"]),
        rejected=bool(data["rejected"]),
    )


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _optional_team(value: Any) -> Team | None:
    return None if value is None else Team(value)


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild a State from state_to_json's output; malformed data raises bad_state."""
    try:
        if data["format"] != STATE_FORMAT:
            raise ValueError(f"unknown state format {data['format']!r}")
        state = State(
            rules=rules_from_json(data["rules"]),
            words=tuple(str(word) for word in data["words"]),
            key=tuple(Identity(identity) for identity in data["key"]),
            covered_by=tuple(_optional_team(team) for team in data["covered_by"]),
            starting_team=Team(data["starting_team"]),
            team=Team(data["team"]),
            phase=Phase(data["phase"]),
            turn=int(data["turn"]),
            guesses_made=int(data["guesses_made"]),
            guesses_left=_optional_int(data["guesses_left"]),
            log=tuple(_clue_from_json(entry) for entry in data["log"]),
            proposals=tuple((str(player), int(position)) for player, position in data["proposals"].items()),
            penalty_owed=_optional_team(data["penalty_owed"]),
            deadline=None if data["deadline"] is None else float(data["deadline"]),
            winner=_optional_team(data["winner"]),
            reason=None if data["reason"] is None else str(data["reason"]),
            score=_optional_int(data["score"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RuleError("bad_state", "The stored game could not be read.", {"error": str(exc)}) from exc
    if not len(state.words) == len(state.key) == len(state.covered_by) == 25:
        raise RuleError("bad_state", "A stored game must have 25 cards.")
    return state
