"""The game state, and its lossless conversion to and from plain JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .model import Identity, Mode, Phase, RuleError, Rules, Team

STATE_FORMAT = 1  # bump when the JSON shape changes, so stored games can be migrated


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
