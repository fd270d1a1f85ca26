"""Codenames' part of every game kept (rooms/history.py): a replay's board and frames,
each step told in words, a finished game summed up, and the room's Codenames stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from codenames import engine


def team_name(team: str | None) -> str:
    return {"red": _("Red"), "blue": _("Blue")}.get(team or "", "")


def identity_name(identity: engine.Identity) -> str:
    return {
        engine.Identity.RED: _("Red agent"),
        engine.Identity.BLUE: _("Blue agent"),
        engine.Identity.BYSTANDER: _("Bystander"),
        engine.Identity.ASSASSIN: _("Assassin"),
    }[identity]


def seat_name(team: str, role: str | None = None) -> str:
    roles = {"spymaster": _("Spymaster"), "operative": _("Operative")}
    name = team_name(team) or team
    return f"{name} · {roles[role]}" if role in roles else name


def mode_name(mode: str) -> str:
    return {"standard": _("Classic"), "coop": _("Co-operative"), "three": _("Three players")}.get(mode, mode)


def clue_text(word: str, number: int | None) -> str:
    return f"{word} {'∞' if number is None else number}"


def board(record: Any, deal: engine.State) -> dict[str, Any]:
    """What a replay shows throughout: the words and the whole key, the bots' intentions.
    Its words are the live game's own (the game's browser catalogue)."""
    return {
        "words": list(deal.words),
        "key": [identity.value for identity in deal.key],
        "mode": deal.rules.mode.value,
        "coop_team": deal.rules.coop_team.value,
        "notes": dict(record.bot_notes),
    }


def frame(state: engine.State) -> dict[str, Any]:
    """One moment of the replay: covers ("r"/"b" by whom, "." visible), turn, clue log,
    and what the live game's status line reads (guesses left, how it ended)."""
    result = engine.outcome(state)
    return {
        "covered": "".join("." if by is None else by.value[0] for by in state.covered_by),
        "team": state.team.value,
        "phase": state.phase.value,
        "left": [state.agents_left(engine.Team.RED), state.agents_left(engine.Team.BLUE)],
        "log": [[e.team.value, e.word, e.number, list(e.guesses), e.rejected] for e in state.log],
        "guesses_made": state.guesses_made,
        "guesses_left": state.guesses_left,
        "winner": None if result is None or result.winner is None else result.winner.value,
        "reason": None if result is None else result.reason,
        "score": None if result is None else result.score,
        "rating": None if result is None else result.rating,
        "over": state.over,
    }


def describe(move: Mapping[str, Any], before: engine.State, after: engine.State) -> str | None:
    """A replay step in words, or None for a step the replay passes over (a proposal)."""
    action = move["action"].get("action") if move["kind"] == "move" else None
    name, team = move.get("name", ""), team_name(move.get("team"))
    text: str | None
    if move["kind"] == "deadline":
        text = _("Time is up: %(team)s's turn.") % {"team": team_name(after.team.value)}
    elif action == "give_clue":
        entry = after.log[-1]
        text = _("%(name)s (%(team)s spymaster) gives the clue %(clue)s.") % {
            "name": name,
            "team": team,
            "clue": clue_text(entry.word, entry.number),
        }
    elif action in ("confirm", "penalty_cover", "opponent_cover"):
        position = int(move["action"]["position"])
        card = {"word": after.words[position], "identity": identity_name(after.key[position])}
        if action == "confirm":
            text = _("%(name)s touches %(word)s: %(identity)s.") % {"name": name, **card}
        else:
            text = _("%(word)s is covered (%(identity)s).") % card
    elif action == "end_turn":
        text = _("%(team)s ends its turn.") % {"team": team_name(before.team.value)}
    elif action == "reject_clue":
        text = _("The clue is rejected: %(team)s's turn is over.") % {"team": team_name(before.team.value)}
    else:
        return None
    if after.over and not before.over:
        text = f"{text} {result_text(engine.outcome(after))}"
    return text


def result_text(outcome: engine.Outcome | None) -> str:
    """How a game ended, in one sentence."""
    if outcome is None:
        return _("Abandoned.")
    winner = team_name(outcome.winner.value if outcome.winner else None)
    if outcome.winner is None:
        if outcome.reason == "assassin":
            return _("The team touched the assassin and lost.")
        return _("The opponent's agents were all covered: the team lost.")
    if outcome.score is not None:
        return ngettext(
            "%(team)s wins with %(count)s opponent agent left.",
            "%(team)s wins with %(count)s opponent agents left.",
            outcome.score,
        ) % {"team": winner, "count": outcome.score}
    # The live game's own words for a win (codenames/static/js/codenames/common.js).
    why = (
        _("the other team touched the assassin")
        if outcome.reason == "assassin"
        else _("all their agents were found")
    )
    return _("%(team)s wins: %(why)s.") % {"team": winner, "why": why}


def summary(state: engine.State) -> dict[str, Any]:
    """The room history's line for one finished game."""
    clues = [entry for entry in state.log if not entry.rejected]
    guesses = sum(len(entry.guesses) for entry in state.log)
    return {
        "variant": mode_name(state.rules.mode.value),
        "result": result_text(engine.outcome(state)),
        "winners": [] if state.winner is None else [state.winner.value],
        "length": ngettext("%(count)s clue", "%(count)s clues", len(clues)) % {"count": len(clues)}
        + " · "
        + ngettext("%(count)s guess", "%(count)s guesses", guesses) % {"count": guesses},
    }


def stats(games: Sequence[tuple[engine.State, Sequence[Mapping[str, Any]]]]) -> list[tuple[str, str]]:
    """The room's Codenames figures, people and bots apart: each game's final state and
    its logged moves (the i-th clue given is the clue log's i-th line)."""
    counts = {"people": [0, 0, 0], "bots": [0, 0, 0]}  # clues, sum of numbers, guesses
    numbered = {"people": 0, "bots": 0}
    assassin = 0
    for state, moves in games:
        givers = [m for m in moves if m["kind"] == "move" and m["action"].get("action") == "give_clue"]
        for entry, given in zip(state.log, givers, strict=False):
            if entry.rejected:
                continue
            who = "bots" if given["bot"] else "people"
            counts[who][0] += 1
            counts[who][2] += len(entry.guesses)
            if entry.number is not None:
                counts[who][1] += entry.number
                numbered[who] += 1
        assassin += state.reason == "assassin"
    rows = []
    for who, label in (("people", _("people")), ("bots", _("bots"))):
        clues, total, guesses = counts[who]
        if not clues:
            continue
        mean = total / numbered[who] if numbered[who] else 0.0
        rows.append((_("Clues given by %(who)s") % {"who": label}, str(clues)))
        rows.append((_("Mean clue number (%(who)s)") % {"who": label}, f"{mean:.1f}"))
        rows.append((_("Cards touched per clue (%(who)s)") % {"who": label}, f"{guesses / clues:.1f}"))
    rows.append((_("Games ended by the assassin"), str(assassin)))
    return rows
