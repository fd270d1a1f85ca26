"""`view_for`: the only way game state leaves the server (DC-S1..DC-S3).

Every field is copied in on purpose (an allow-list); nothing here serialises the
state and strips secrets afterwards. Secrets and who may see them:

- a team's keywords: that team; everyone once the game is over (DC-S1);
- the current code and the clue draft: that team's Encryptor only, until the reveal;
- a team's guess draft: that team, until the reveal (DC-S2);
- a team's private notes: that team, always (DC-S3);
- a team's submitted clues: everyone, once its code is being guessed (DC-9, DC-14);
- keyword guesses: their team, then everyone once both teams sent theirs; whether a
  guess matches a keyword: the keyword's team while judging, everyone at the end.
"""

from __future__ import annotations

from typing import Any

from .clues import deadline
from .model import DIGITS, TEAMS, Mode, Phase, Reveal, Seat, State, Team, Tiebreak
from .scoring import tokens_for
from .seats import guessers, guessing_teams, next_encryptor, role_of, tasks
from .text import clue_key, loose_key
from .tiebreak import keyword_score, matches


def view_for(state: State, *, player: str | None) -> dict[str, Any]:
    seat = role_of(state, player)
    stamp = {"round": state.round, "phase": state.phase.value, "guessing_for": _name(state.guessing_for)}
    return {
        "mode": state.rules.mode.value,
        **stamp,
        "stamp": stamp,  # what round/phase/guessing_for actions must echo
        "last_round": state.rules.last_round,
        "deadline": deadline(state),
        "timer_seconds": state.rules.timer,
        "seat": _seat(state, seat),
        "teams": {t.value: _team(state, t, seat) for t in TEAMS},
        "to_act": [{"team": k.team.value, "task": k.kind, "players": list(k.players)} for k in tasks(state)],
        "encryptor": _encryptor_panel(state, seat),
        "current": _current(state, seat),
        "history": [_reveal(state.rules.mode, r) for r in state.history],
        "sheets": {t.value: _sheet(state, t) for t in TEAMS},
        "tiebreak": _tiebreak(state, seat, state.tiebreak),
        "outcome": None
        if state.result is None
        else {"winners": sorted(t.value for t in state.result.winners), "reason": state.result.reason},
    }


def _name(team: Team | None) -> str | None:
    return None if team is None else team.value


def _role(state: State, seat: Seat) -> str:
    if seat.team is None:
        return "spectator"
    if seat.is_interceptor:
        return "interceptor"
    if seat.is_encryptor:
        return "encryptor"
    return "decipherer" if state.rules.mode is Mode.INTERCEPTOR and state.turns[seat.team] else "member"


def _seat(state: State, seat: Seat) -> dict[str, Any]:
    return {
        "player": seat.player,
        "team": _name(seat.team),
        "role": _role(state, seat),
        "is_encryptor": seat.is_encryptor,
        "is_interceptor": seat.is_interceptor,
        "is_spectator": seat.is_spectator,
        "tasks": [k.kind for k in tasks(state) if seat.player in k.players],
    }


def _team(state: State, team: Team, seat: Seat) -> dict[str, Any]:
    held, turn = state.teams[team], state.turns[team]
    own = seat.team is team
    shows_keywords = (own or state.phase is Phase.OVER) and bool(held.keywords)
    return {
        "players": list(held.order),
        "encryptor": None if turn is None else turn.encryptor,
        "next_encryptor": next_encryptor(state, team),
        "clues_submitted": turn is not None and turn.submitted,
        "interceptions": held.interceptions,
        "miscommunications": held.miscommunications,
        "points": held.points,
        "keywords": list(held.keywords) if shows_keywords else None,
        "notes": list(held.notes) if own else None,
    }


def _encryptor_panel(state: State, seat: Seat) -> dict[str, Any] | None:
    """The code and the clue draft: for the Encryptor's eyes only (DC-6, DC-S1)."""
    if not seat.is_encryptor or seat.team is None:
        return None
    turn = state.turns[seat.team]
    assert turn is not None  # is_encryptor implies a turn
    panel: dict[str, Any] = {"code": list(turn.code), "clues": list(turn.clues), "submitted": turn.submitted}
    if not turn.submitted:
        # DC-17's comparison forms (Python's casefold), so the browser checks a clue as
        # typed exactly against what the engine will: the keywords without accents, and
        # the team's clues already given.
        panel["taken"] = {
            "keywords": [loose_key(word) for word in state.teams[seat.team].keywords],
            "used": sorted({clue_key(c) for r in state.history if r.team is seat.team for c in r.clues if c}),
        }
    return panel


def _current(state: State, seat: Seat) -> dict[str, Any] | None:
    """The code being guessed: its clues are public (DC-9, DC-19); drafts stay in the team."""
    target = state.guessing_for
    if state.phase is not Phase.GUESS or target is None:
        return None
    turn = state.turns[target]
    assert turn is not None
    required = guessing_teams(state)
    guess = None
    if seat.team in required:
        assert seat.team is not None
        guess = {
            "task": "decipher" if seat.team is target else "intercept",
            "draft": list(state.guesses[seat.team]),  # DC-S2: own team only
            "suggestions": [  # the team's bots' guesses, as secret as its draft
                {"player": player, "code": list(code)} for player, code in state.suggestions[seat.team]
            ],
            "locked": state.locked[seat.team] is not None,
            "can_edit": seat.player in guessers(state, seat.team),
        }
    return {
        "team": target.value,
        "encryptor": turn.encryptor,
        "clues": list(turn.clues),
        "locked": {t.value: state.locked[t] is not None for t in required},
        "guess": guess,
    }


def _code(code: tuple[int, ...] | None) -> list[int] | None:
    return None if code is None else list(code)


def _reveal(mode: Mode, reveal: Reveal) -> dict[str, Any]:
    """Keys in the order of DC-12: interception, then decipher, then the code."""
    return {
        "round": reveal.round,
        "team": reveal.team.value,
        "encryptor": reveal.encryptor,
        "clues": list(reveal.clues),
        "interception": _code(reveal.interception),
        "decipher": list(reveal.decipher),
        "code": list(reveal.code),
        "intercepted": reveal.intercepted,
        "deciphered": reveal.deciphered,
        "tokens": [{"team": t.value, "kind": kind} for t, kind in tokens_for(mode, reveal)],
    }


def _sheet(state: State, team: Team) -> dict[str, Any]:
    """The automatic notes sheet of `team`'s codes (DC-30, DC-31); public by DC-19.

    `by_position` groups the clues under digits 1..4 so a team's own sheet can put
    them under its keywords and the opponents' sheet under bare positions.
    """
    rows = [r for r in state.history if r.team is team]
    by_position: dict[str, list[dict[str, Any]]] = {str(d): [] for d in DIGITS}
    for row in rows:
        for digit, clue in zip(row.code, row.clues, strict=True):
            if clue:
                by_position[str(digit)].append({"round": row.round, "clue": clue})
    return {
        "rows": [
            {
                "round": r.round,
                "clues": list(r.clues),
                "guess": list(r.decipher),
                "interception": _code(r.interception),
                "code": list(r.code),
            }
            for r in rows
        ],
        "by_position": by_position,
    }


def _tiebreak(state: State, seat: Seat, tiebreak: Tiebreak | None) -> dict[str, Any] | None:
    """Keyword guessing (DC-25). Keyed by the guessing team, except `judged`/`accepted`."""
    if tiebreak is None:
        return None
    over = state.phase is Phase.OVER
    all_in = all(tiebreak.guesses[t] is not None for t in TEAMS)

    def guesses(t: Team) -> list[str] | None:
        words = tiebreak.guesses[t]
        return list(words) if words is not None and (all_in or seat.team is t) else None

    def hits(t: Team) -> list[bool] | None:
        # Telling a guesser its hits would reveal the opponents' keywords before the end.
        return list(matches(state, t)) if all_in and (over or seat.team is t.other) else None

    def accepted(t: Team) -> list[int] | None:
        chosen = tiebreak.accepted[t]
        return list(chosen) if chosen is not None and (over or seat.team is t) else None

    return {
        "submitted": {t.value: tiebreak.guesses[t] is not None for t in TEAMS},
        "guesses": {t.value: guesses(t) for t in TEAMS},
        "matches": {t.value: hits(t) for t in TEAMS},
        "judged": {t.value: tiebreak.accepted[t] is not None for t in TEAMS},
        "accepted": {t.value: accepted(t) for t in TEAMS},
        "scores": {t.value: keyword_score(state, t) for t in TEAMS} if over else None,
    }
