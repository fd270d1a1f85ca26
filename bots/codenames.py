"""Codenames teammates: an operative that ranks the board for a clue, and a spymaster that
chooses a clue for its agents.

Both take only what their seat's view holds (the board's words, which are covered, and
for the spymaster the key); neither ever sees the engine's state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bots.associations import Table, key
from codenames.engine.clues import HYPHENS, board_conflict

# An intended word must beat every card the team must avoid by this much.
MARGIN = 0.15
# Below this a link is too faint to bet a guess (or a clue) on.
CONFIDENT = 0.45
# A clue that evokes the assassin this much is never given.
ASSASSIN_VETO = 0.3


def rank(table: Table, clue: str, words: list[str]) -> list[tuple[str, float]]:
    """The board's words from the most to the least likely meant by ``clue``."""
    scores = table.score(clue, words)
    return sorted(((w, scores[w]) for w in words), key=lambda pair: (-pair[1], words.index(pair[0])))


def guesses(table: Table, clue: str, number: int | None, words: list[str]) -> list[str]:
    """The cards an operative touches, in order: at least one, then only while confident,
    and no more than the clue's number (the CN-13 extra guess is left to humans)."""
    ranked = rank(table, clue, words)
    limit = len(words) if number in (None, 0) else number
    chosen = [ranked[0][0]]
    chosen += [w for w, s in ranked[1:limit] if s >= CONFIDENT]
    return chosen


@dataclass(frozen=True)
class Clue:
    word: str
    number: int
    intended: tuple[str, ...]

    def explain(self) -> str:
        """ "SEAT 2 → saddle, bench": what the clue meant, for the log after the game."""
        return f"{self.word.upper()} {self.number} → {', '.join(self.intended)}"


def choose_clue(
    table: Table,
    visible: list[str],
    identities: dict[str, str],
    team: str,
    *,
    multi_word: bool = False,
    lethal: frozenset[str] = frozenset({"assassin"}),
) -> Clue:
    """The clue linking the most of ``team``'s visible agents, each clearly ahead of every
    card to avoid, never evoking the assassin; a legal clue for one agent at worst.

    ``identities`` maps each visible word to ``red``, ``blue``, ``bystander`` or
    ``assassin`` (the key, as the spymaster's view shows it). ``lethal``: the identities a
    clue must never evoke, the assassin always (in the co-operative game the opponent's
    agents too, once touching one could lose the game, CN-32).
    """
    own = [w for w in visible if identities.get(w) == team]
    if not own:
        raise ValueError("no agent of this team is left")

    # A visible card's spelling and lemma: a clue sharing one would point at that card by
    # its form alone ("capelli" with CAPELLO on the board), whatever it meant.
    on_board = frozenset().union(*(table.lemmas(w) for w in visible))

    def legal(clue: str) -> bool:
        # CN-10 as the engine checks it: one word, no hyphen, unless the house allows more.
        if not multi_word and (" " in clue or any(char in HYPHENS for char in clue)):
            return False
        return board_conflict(clue, visible, multi_word=multi_word) is None and not (
            table.lemmas(clue) & on_board
        )

    candidates = {
        association: None
        for word in own
        for association, _weight in table.words.get(table.by_key.get(key(word), word), [])
        if legal(association)
    }
    if not candidates:
        # The team's words are not in the table (a room's own words): any legal clue that
        # keeps clear of the assassin, for one word; the turn goes on.
        candidates = dict.fromkeys(_common_clues(table, legal))
    best: tuple[float, Clue] | None = None
    fallback: tuple[float, Clue] | None = None
    # When every candidate evokes the assassin, the least dangerous one, for one word: a
    # spymaster must give some clue (CN-9), and a stalled seat is worse than a weak clue.
    desperate: tuple[float, Clue] | None = None
    for candidate in candidates:
        scores = table.score(candidate, visible)
        danger = max((s for w, s in scores.items() if identities.get(w) != team), default=0.0)
        assassin = max((s for w, s in scores.items() if identities.get(w) in lethal), default=0.0)
        if assassin >= ASSASSIN_VETO:
            strongest = max(own, key=lambda w: scores[w])
            if desperate is None or (scores[strongest] - assassin) > desperate[0]:
                desperate = (scores[strongest] - assassin, Clue(candidate, 1, (strongest,)))
            continue
        strongest = max(own, key=lambda w: scores[w])
        safe_one = scores[strongest] - danger
        if fallback is None or safe_one > fallback[0]:
            fallback = (safe_one, Clue(candidate, 1, (strongest,)))
        intended = sorted(
            (w for w in own if scores[w] >= CONFIDENT and scores[w] >= danger + MARGIN),
            key=lambda w: -scores[w],
        )
        if not intended:
            continue
        value = len(intended) + 0.2 * sum(scores[w] for w in intended) - 0.5 * danger
        if best is None or value > best[0]:
            best = (value, Clue(candidate, len(intended), tuple(intended)))
    if best is not None:
        return best[1]
    if fallback is not None:
        return fallback[1]
    for candidate in (a for a in _common_clues(table, legal) if a not in candidates):
        # Any legal word that keeps clear of the assassin beats one that evokes it.
        scores = table.score(candidate, visible)
        if max((s for w, s in scores.items() if identities.get(w) in lethal), default=0.0) < ASSASSIN_VETO:
            return Clue(candidate, 1, (max(own, key=lambda w: scores[w]),))
    if desperate is not None:
        return desperate[1]
    raise ValueError("no legal clue at all: the table is empty")


def _common_clues(table: Table, legal: Any) -> list[str]:
    """Legal clues from anywhere in the table: the strongest few links of every word."""
    return [a for linked in table.words.values() for a, _w in linked[:3] if legal(a)]


def decide(
    view: dict[str, Any], me: str, team: str, role: str, table: Table
) -> tuple[dict[str, Any], Clue | None] | None:
    """The bot's next move from its seat's view, or None when it has nothing to do.

    ``me`` is the bot's public id (its proposals), ``team`` and ``role`` its seat. Returns
    the room message and, for a clue, the Clue (to explain it after the game).
    """
    phase, turn, cards = view["phase"], view["turn"], view["cards"]
    visible = [c for c in cards if not c["covered"]]
    if phase == "over" or not visible:
        return None
    if role == "spymaster":
        if phase == "clue" and view["team"] == team:
            identities = {c["word"]: c["identity"] for c in visible}
            words = [c["word"] for c in visible]
            lethal = {"assassin"}
            if view["mode"] == "coop":
                # CN-32: the players lose when the opponent's last agent is covered; with
                # two left, one touched now and the opponent's own turn end the game.
                theirs = [c for c in visible if c["identity"] not in (team, "bystander", "assassin")]
                if len(theirs) <= 2:
                    lethal |= {c["identity"] for c in theirs}
            clue = choose_clue(
                table,
                words,
                identities,
                team,
                multi_word=view["rules"]["multi_word_clues"],
                lethal=frozenset(lethal),
            )
            return {"action": "give_clue", "turn": turn, "word": clue.word, "number": clue.number}, clue
        if phase == "opponent" and view["mode"] == "coop" and team == view["rules"]["coop_team"]:
            # CN-31: the simulated opponent covers one of its agents; any will do.
            theirs = [c for c in visible if c["identity"] not in (team, "bystander", "assassin")]
            if theirs:
                return {"action": "opponent_cover", "turn": turn, "position": theirs[0]["position"]}, None
        return None
    if role != "operative" or phase != "guess" or (view["mode"] != "three" and view["team"] != team):
        return None
    mine = view["proposals"].get(me)
    if mine is not None:
        return {"action": "confirm", "turn": turn, "position": mine}, None
    clue, made = view["clue"], view["guesses_made"]
    ranked = rank(table, clue["word"], [c["word"] for c in visible])
    allowed = clue["number"] in (None, 0) or made < clue["number"]
    if made == 0 or (allowed and ranked[0][1] >= CONFIDENT):
        position = next(c["position"] for c in visible if c["word"] == ranked[0][0])
        return {"action": "propose", "turn": turn, "position": position}, None
    return {"action": "end_turn", "turn": turn}, None
