"""Decrypto's part of every game kept (rooms/history.py): a replay's board and frames,
each step told in words, a finished game summed up, and the room's Decrypto stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from decrypto import engine
from decrypto.engine.model import TEAMS, Reveal


def team_name(team: str | None) -> str:
    return {"white": _("White"), "black": _("Black")}.get(team or "", "")


def seat_name(team: str, role: str | None = None) -> str:
    """A Decrypto seat is its team: every player takes every part in turn (DC-5)."""
    return team_name(team) or team


def mode_name(mode: str) -> str:
    return {"standard": _("Classic"), "interceptor": _("Interceptor (three players)")}.get(mode, mode)


def code_text(code: Sequence[int] | None) -> str:
    """A code as the live game writes it (decrypto/static/js/decrypto/common.js): 2.1.4."""
    return "—" if code is None else ".".join(str(digit) for digit in code)


def _reveal(reveal: Reveal) -> list[Any]:
    return [
        reveal.round,
        reveal.team.value,
        reveal.encryptor,
        list(reveal.clues),
        None if reveal.interception is None else list(reveal.interception),
        list(reveal.decipher),
        list(reveal.code),
    ]


def board(record: Any, deal: engine.State, final: engine.State, names: Mapping[str, str]) -> dict[str, Any]:
    """What a replay shows throughout: every keyword, every code revealed, who is who.
    Its words are the live game's own (the game's browser catalogue)."""
    return {
        "keywords": {team.value: list(deal.teams[team].keywords) for team in TEAMS},
        "history": [_reveal(reveal) for reveal in final.history],
        "names": dict(names),
        "mode": deal.rules.mode.value,
    }


def frame(state: engine.State) -> dict[str, Any]:
    """One moment: the round, the codes revealed so far (a count into the board's history),
    this round's clues and codes, the tokens."""
    turns = {}
    for team in TEAMS:
        turn = state.turns[team]
        turns[team.value] = (
            None
            if turn is None
            else {
                "encryptor": turn.encryptor,
                "code": list(turn.code),
                "clues": list(turn.clues) if turn.submitted else [],
            }
        )
    return {
        "round": state.round,
        "phase": state.phase.value,
        "shown": len(state.history),
        "turns": turns,
        "tokens": {
            team.value: [state.teams[team].interceptions, state.teams[team].miscommunications]
            for team in TEAMS
        },
        "winners": [] if state.result is None else sorted(t.value for t in state.result.winners),
        "over": state.result is not None,
    }


def _told(reveal: Reveal) -> str:
    team, other = team_name(reveal.team.value), team_name(reveal.team.other.value)
    parts = [
        _("%(team)s's code was %(code)s (%(clues)s).")
        % {"team": team, "code": code_text(reveal.code), "clues": " · ".join(reveal.clues)}
    ]
    if reveal.interception is not None and reveal.interception == reveal.code:
        parts.append(_("%(other)s intercepted it.") % {"other": other})
    if reveal.decipher != reveal.code:
        parts.append(
            _("Miscommunication: %(team)s read %(guess)s.")
            % {"team": team, "guess": code_text(reveal.decipher)}
        )
    return " ".join(parts)


def describe(move: Mapping[str, Any], before: engine.State, after: engine.State) -> str | None:
    """A replay step in words, or None for one it passes over (drafts, notes)."""
    action = move["action"].get("action") if move["kind"] == "move" else None
    team = team_name(move.get("team"))
    if move["kind"] == "deadline":
        text = _("Time is up.")
    elif action == "submit_clues":
        text = _("Round %(round)s: %(name)s, %(team)s's Encryptor, gives the clues %(clues)s.") % {
            "round": before.round,
            "name": move.get("name", ""),
            "team": team,
            "clues": " · ".join(str(clue) for clue in move["action"].get("clues", [])),
        }
    elif action == "lock_guess":
        whose = before.guessing_for.value if before.guessing_for else None
        values = {"team": team, "code": code_text(move["action"].get("code")), "whose": team_name(whose)}
        if whose == move.get("team"):
            text = _("%(team)s reads its own code as %(code)s.") % values
        else:
            text = _("%(team)s tries to intercept %(whose)s's code: %(code)s.") % values
    elif action == "tiebreak_guess":
        text = _("%(team)s guesses the opponents' keywords: %(words)s.") % {
            "team": team,
            "words": " · ".join(str(word) for word in move["action"].get("words", [])),
        }
    elif action == "judge":
        text = _("%(team)s judges the guesses of its keywords.") % {"team": team}
    else:
        return None
    new = after.history[len(before.history) :]
    text = " ".join([text, *(_told(reveal) for reveal in new)])
    if after.result is not None and before.result is None:
        text = f"{text} {result_text(after.result)}"
    return text


def result_text(outcome: engine.Outcome | None) -> str:
    if outcome is None:
        return _("Abandoned.")
    winners = sorted(team.value for team in outcome.winners)
    if len(winners) == 2:
        return _("Shared victory: both teams win.")
    if not winners:
        return _("Nobody wins.")
    team = team_name(winners[0])
    reasons = {
        "two_interceptions": _("%(team)s wins with two interceptions."),
        "two_miscommunications": _("%(team)s wins: the other team miscommunicated twice."),
        "points": _("%(team)s wins on points."),
        "keywords": _("%(team)s wins by guessing more keywords."),
        "interceptor_won": _("%(team)s, the Interceptor, wins."),
        "team_held_out": _("%(team)s held out to the end and wins."),
    }
    return reasons.get(outcome.reason, _("%(team)s wins.")) % {"team": team}


def summary(state: engine.State) -> dict[str, Any]:
    rounds = len({reveal.round for reveal in state.history})
    return {
        "variant": mode_name(state.rules.mode.value),
        "result": result_text(state.result),
        "winners": [] if state.result is None else sorted(t.value for t in state.result.winners),
        "length": ngettext("%(count)s round", "%(count)s rounds", rounds) % {"count": rounds},
    }


def stats(
    games: Sequence[tuple[engine.State, Sequence[Mapping[str, Any]]]], bots: set[str]
) -> list[tuple[str, str]]:
    """The room's Decrypto figures: each team's tokens, rounds played, and codes by people
    and by bots (``bots``: the public ids of the bots who played) apart."""
    tokens = {team.value: [0, 0] for team in TEAMS}
    rounds = 0
    codes = {"people": [0, 0, 0], "bots": [0, 0, 0]}  # codes given, intercepted, miscommunicated
    for state, _moves in games:
        for team in TEAMS:
            tokens[team.value][0] += state.teams[team].interceptions
            tokens[team.value][1] += state.teams[team].miscommunications
        rounds += len({reveal.round for reveal in state.history})
        for reveal in state.history:
            who = codes["bots" if reveal.encryptor in bots else "people"]
            who[0] += 1
            who[1] += reveal.interception is not None and reveal.interception == reveal.code
            who[2] += reveal.decipher != reveal.code
    rows = []
    for team in TEAMS:
        name = team_name(team.value)
        rows.append((_("%(team)s's interceptions") % {"team": name}, str(tokens[team.value][0])))
        rows.append((_("%(team)s's miscommunications") % {"team": name}, str(tokens[team.value][1])))
    rows.append((_("Rounds played"), str(rounds)))
    for who, label in (("people", _("people")), ("bots", _("bots"))):
        given, intercepted, missed = codes[who]
        if given:
            rows.append((_("Codes given by %(who)s") % {"who": label}, str(given)))
            rows.append((_("… intercepted"), f"{intercepted} ({intercepted / given:.0%})"))
            rows.append((_("… miscommunicated"), f"{missed} ({missed / given:.0%})"))
    return rows
