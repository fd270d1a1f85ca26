"""Lossless conversion of a State to and from plain JSON values (for a JSON column).

This is the *server's* copy, seed and secrets included; what a browser may see is
`view_for`'s business, never this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .model import (
    Code,
    GuessDraft,
    Mode,
    Outcome,
    Pair,
    Phase,
    Reveal,
    RuleError,
    Rules,
    State,
    Team,
    TeamState,
    Tiebreak,
    Turn,
)

FORMAT = 1
T = TypeVar("T")


def state_to_json(state: State) -> dict[str, Any]:
    tiebreak = state.tiebreak
    return {
        "format": FORMAT,
        "rules": {
            "mode": state.rules.mode.value,
            "timer_seconds": state.rules.timer_seconds,
            "max_rounds": state.rules.max_rounds,
        },
        "seed": state.seed,
        "round": state.round,
        "phase": state.phase.value,
        "teams": _pair_out(state.teams, _team_out),
        "turns": _pair_out(state.turns, lambda t: None if t is None else _turn_out(t)),
        "guessing_for": None if state.guessing_for is None else state.guessing_for.value,
        "guesses": _pair_out(state.guesses, list),
        "suggestions": _pair_out(state.suggestions, lambda s: [[player, list(code)] for player, code in s]),
        "locked": _pair_out(state.locked, _maybe_list),
        "deadline": state.deadline,
        "history": [_reveal_out(r) for r in state.history],
        "tiebreak": None
        if tiebreak is None
        else {
            "guesses": _pair_out(tiebreak.guesses, _maybe_list),
            "accepted": _pair_out(tiebreak.accepted, _maybe_list),
        },
        "result": None
        if state.result is None
        else {"winners": sorted(t.value for t in state.result.winners), "reason": state.result.reason},
        "bots": sorted(state.bots),
    }


def state_from_json(data: Any) -> State:
    """Rebuild a State saved by `state_to_json`; RuleError("bad_state") if it is not one."""
    try:
        return _state_in(data)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise RuleError("bad_state", f"Not a saved Decrypto state: {error!r}") from error


def _state_in(data: dict[str, Any]) -> State:
    if data["format"] != FORMAT:
        raise ValueError(f"unknown format {data['format']}")
    rules = data["rules"]
    tiebreak = data["tiebreak"]
    result = data["result"]
    return State(
        rules=Rules(Mode(rules["mode"]), rules["timer_seconds"], int(rules["max_rounds"])),
        seed=int(data["seed"]),
        round=int(data["round"]),
        phase=Phase(data["phase"]),
        teams=_pair_in(data["teams"], _team_in),
        turns=_pair_in(data["turns"], lambda t: None if t is None else _turn_in(t)),
        guessing_for=None if data["guessing_for"] is None else Team(data["guessing_for"]),
        guesses=_pair_in(data["guesses"], _draft_in),
        # Saved before bots suggested (issue 29): none yet.
        suggestions=_pair_in(
            data.get("suggestions", {"white": [], "black": []}),
            lambda s: tuple((str(player), _code_in(code)) for player, code in s),
        ),
        locked=_pair_in(data["locked"], lambda c: None if c is None else _code_in(c)),
        deadline=None if data["deadline"] is None else float(data["deadline"]),
        history=tuple(_reveal_in(r) for r in data["history"]),
        tiebreak=None
        if tiebreak is None
        else Tiebreak(
            guesses=_pair_in(tiebreak["guesses"], lambda g: None if g is None else tuple(map(str, g))),
            accepted=_pair_in(tiebreak["accepted"], lambda a: None if a is None else tuple(map(int, a))),
        ),
        result=None
        if result is None
        else Outcome(frozenset(Team(t) for t in result["winners"]), str(result["reason"])),
        # Saved before bots were recorded: nobody counts as a bot, so every submit is timed.
        bots=frozenset(map(str, data.get("bots", ()))),
    )


def _pair_out(pair: Pair[T], convert: Callable[[T], Any]) -> dict[str, Any]:
    return {"white": convert(pair.white), "black": convert(pair.black)}


def _pair_in(data: dict[str, Any], convert: Callable[[Any], T]) -> Pair[T]:
    return Pair(convert(data["white"]), convert(data["black"]))


def _maybe_list(value: tuple[Any, ...] | None) -> list[Any] | None:
    return None if value is None else list(value)


def _team_out(team: TeamState) -> dict[str, Any]:
    return {
        "order": list(team.order),
        "keywords": list(team.keywords),
        "notes": list(team.notes),
        "interceptions": team.interceptions,
        "miscommunications": team.miscommunications,
    }


def _team_in(data: dict[str, Any]) -> TeamState:
    return TeamState(
        order=tuple(map(str, data["order"])),
        keywords=tuple(map(str, data["keywords"])),
        notes=tuple(map(str, data["notes"])),
        interceptions=int(data["interceptions"]),
        miscommunications=int(data["miscommunications"]),
    )


def _turn_out(turn: Turn) -> dict[str, Any]:
    return {
        "encryptor": turn.encryptor,
        "code": list(turn.code),
        "clues": list(turn.clues),
        "submitted": turn.submitted,
    }


def _turn_in(data: dict[str, Any]) -> Turn:
    clues = [str(c) for c in data["clues"]]
    return Turn(
        encryptor=str(data["encryptor"]),
        code=_code_in(data["code"]),
        clues=(clues[0], clues[1], clues[2]),
        submitted=bool(data["submitted"]),
    )


def _code_in(data: list[Any]) -> Code:
    a, b, c = (int(d) for d in data)
    return (a, b, c)


def _draft_in(data: list[Any]) -> GuessDraft:
    a, b, c = (None if d is None else int(d) for d in data)
    return (a, b, c)


def _reveal_out(reveal: Reveal) -> dict[str, Any]:
    return {
        "round": reveal.round,
        "team": reveal.team.value,
        "encryptor": reveal.encryptor,
        "clues": list(reveal.clues),
        "interception": _maybe_list(reveal.interception),
        "decipher": list(reveal.decipher),
        "code": list(reveal.code),
    }


def _reveal_in(data: dict[str, Any]) -> Reveal:
    clues = [str(c) for c in data["clues"]]
    return Reveal(
        round=int(data["round"]),
        team=Team(data["team"]),
        encryptor=str(data["encryptor"]),
        clues=(clues[0], clues[1], clues[2]),
        interception=None if data["interception"] is None else _code_in(data["interception"]),
        decipher=_code_in(data["decipher"]),
        code=_code_in(data["code"]),
    )
