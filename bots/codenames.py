"""Codenames teammates: an operative that ranks the board for a clue, and a spymaster that
chooses a clue for its agents.

Both take only what their seat's view holds (the board's words, which are covered, and
for the spymaster the key); neither ever sees the engine's state.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bots import stems
from bots.associations import Table, key
from bots.people import People
from bots.people import people as people_of
from codenames.engine.clues import HYPHENS, board_conflict

# An intended word must beat every card the team must avoid by this much.
MARGIN = 0.15
# Below this a link is too faint to bet a guess (or a clue) on.
CONFIDENT = 0.45
# What a person's link (``bots.people``) adds to the table's: half its nearness, so a
# card both know wins, and either alone still ranks (tuned on the first blind sets).
HEARD = 0.5
# A clue that evokes the assassin this much is never given.
ASSASSIN_VETO = 0.3


def _lot(clue: str, word: str) -> int:
    # Ties are broken by a draw fixed by the clue and the word, never by where a card lies:
    # the board's order is the dealer's, and a first card touched by default is a blind guess.
    return zlib.crc32(f"{key(clue)}\0{key(word)}".encode())


def rank(table: Table, clue: str, words: list[str], people: People | None = None) -> list[tuple[str, float]]:
    """The board's words from the most to the least likely meant by ``clue``: by the
    bot's own table and, when given, by what a person may know (``bots.people``: the
    names, sayings and compounds people's clues lean on, issue 32)."""
    scores = table.score(clue, words)
    if people:
        heard = people.score(clue, words)
        scores = {w: scores[w] + HEARD * heard[w] for w in words}
    return sorted(((w, scores[w]) for w in words), key=lambda pair: (-pair[1], _lot(clue, pair[0])))


def first_guess(
    table: Table,
    clue: str,
    words: list[str],
    log: Sequence[dict[str, Any]] = (),
    team: str | None = None,
    people: People | None = None,
) -> str:
    """The card an operative touches first (CN-12 makes one guess compulsory).

    When the clue links no card at all, the table's faint layers included, the board is
    read through the earlier clues of the log (CN-15): a card an earlier clue of ``team``
    still points at may be a leftover agent, a card the opponents' clues point at is
    likely theirs. Only then a draw, fixed by clue and word, never the first card dealt.
    """
    ranked = rank(table, clue, words, people)
    if ranked[0][1] > 0:
        return ranked[0][0]
    ours: dict[str, float] = dict.fromkeys(words, 0.0)
    theirs: dict[str, float] = dict.fromkeys(words, 0.0)
    earlier = [entry for entry in log if entry.get("word") and key(entry["word"]) != key(clue)]
    for entry in earlier:
        side = ours if entry.get("team") == team else theirs
        for word, score in table.score(entry["word"], words).items():
            side[word] = max(side[word], score)
    return min(words, key=lambda w: (-(ours[w] - theirs[w]), _lot(clue, w)))


def guesses(
    table: Table, clue: str, number: int | None, words: list[str], people: People | None = None
) -> list[str]:
    """The cards an operative touches, in order: at least one, then only while confident,
    and no more than the clue's number (the CN-13 extra guess is left to humans)."""
    ranked = rank(table, clue, words, people)
    limit = len(words) if number in (None, 0) else number
    chosen = [first_guess(table, clue, words, people=people)]
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
    people: People | None = None,
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
    guard = stems.Guard(visible, table.language)
    # The cards a person must not be led to ahead of ours: the opponents' and the lethal.
    neutral = {team, "bystander"}
    avoid = [w for w in visible if identities.get(w) in lethal or identities.get(w) not in neutral]
    nearness = people.board([*own, *avoid]) if people else None

    def legal(clue: str) -> bool:
        # CN-10 as the engine checks it: one word, no hyphen, unless the house allows more.
        if not multi_word and (" " in clue or any(char in HYPHENS for char in clue)):
            return False
        return (
            board_conflict(clue, visible, multi_word=multi_word) is None
            and not (table.lemmas(clue) & on_board)
            # CN-9 in spirit: a form, a derivation or a compound sharing a stem with a
            # visible card (FLYGA with FLYGPLATS, BARBA with BARBEIRO) names that card.
            and guard.near(clue) is None
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
        # Our agents count through exact and verified links only (a collision of spellings
        # or a loose half-word never makes an intended card); what to avoid counts through
        # every link a reader might follow.
        scores = table.score(candidate, visible, strict=True)
        wide = table.score(candidate, visible)
        danger = max((s for w, s in wide.items() if identities.get(w) != team), default=0.0)
        assassin = max((s for w, s in wide.items() if identities.get(w) in lethal), default=0.0)
        if assassin >= ASSASSIN_VETO:
            strongest = max(own, key=lambda w: scores[w])
            if desperate is None or (scores[strongest] - assassin) > desperate[0]:
                desperate = (scores[strongest] - assassin, Clue(candidate, 1, (strongest,)))
            continue
        strongest = max(own, key=lambda w: scores[w])
        safe_one = scores[strongest] - danger
        if fallback is None or safe_one > fallback[0]:
            fallback = (safe_one, Clue(candidate, 1, (strongest,)))
        # A person reads the clue with links the table lacks (issue 32): an opponent's card
        # or the assassin the independent reader puts as near as an intended card may be
        # touched first, so that card is not counted on.
        intended = sorted(
            (w for w in own if scores[w] >= CONFIDENT and scores[w] >= danger + MARGIN),
            key=lambda w: -scores[w],
        )
        if intended and nearness is not None:
            near = nearness(candidate)
            reach = max((near[w] for w in avoid), default=0.0)
            if reach > 0.0:
                intended = [w for w in intended if near[w] > reach]
        if not intended:
            continue
        value = len(intended) + 0.2 * sum(scores[w] for w in intended) - 0.5 * danger
        if best is None or value > best[0]:
            best = (value, Clue(candidate, len(intended), tuple(intended)))
    if best is not None:
        return best[1]
    if fallback is not None and fallback[0] > 0:
        return fallback[1]
    # No link of the team's words puts one of them ahead of every card to avoid: a clue
    # whose strongest card is the opponents' or a bystander would send the operative there
    # first. Any legal word of the table that points at an agent of ours first will do;
    # else one that points at nothing, which the operative reads by elimination; only then
    # the least bad link of our own.
    blank: str | None = None
    clear: Clue | None = None
    for candidate in (a for a in _common_clues(table, legal) if a not in candidates):
        scores = table.score(candidate, visible, strict=True)
        wide = table.score(candidate, visible)
        if max((s for w, s in wide.items() if identities.get(w) in lethal), default=0.0) >= ASSASSIN_VETO:
            continue
        danger = max((s for w, s in wide.items() if identities.get(w) != team), default=0.0)
        strongest = max(own, key=lambda w: scores[w])
        if scores[strongest] > danger:
            return Clue(candidate, 1, (strongest,))
        if blank is None and danger == 0:
            blank = candidate
        clear = clear or Clue(candidate, 1, (strongest,))
    if blank is not None:
        return Clue(blank, 1, (own[0],))
    if fallback is not None:
        return fallback[1]
    if clear is not None:
        # Any legal word that keeps clear of the assassin beats one that evokes it.
        return clear
    if desperate is not None:
        return desperate[1]
    raise ValueError("no legal clue at all: the table is empty")


def _common_clues(table: Table, legal: Any) -> list[str]:
    """Legal clues from anywhere in the table: the strongest few links of every word, then
    the pack words off the board (each evokes its own list)."""
    found = [a for linked in table.words.values() for a, _w in linked[:3] if legal(a)]
    return found + [w for w in table.words if legal(w)]


def decide(
    view: dict[str, Any], me: str, team: str, role: str, table: Table, *, shared: bool = True
) -> tuple[dict[str, Any], Clue | None] | None:
    """The bot's next move from its seat's view, or None when it has nothing to do.

    ``me`` is the bot's public id (its proposals), ``team`` and ``role`` its seat. Returns
    the room message and, for a clue, the Clue (to explain it after the game).
    ``shared``: a person guesses alongside the bot. The bot then proposes each card before
    confirming it (CN-16), so they can see it coming and object; alone, it confirms at once.
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
                people=people_of(table.language),
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
    words = [c["word"] for c in visible]
    heard = people_of(table.language)
    ranked = rank(table, clue["word"], words, heard)
    allowed = clue["number"] in (None, 0) or made < clue["number"]
    if made == 0 or (allowed and ranked[0][1] >= CONFIDENT):
        # The first guess is owed (CN-12); later ones only on a confident link: past the
        # first, ending the turn beats guessing (the else branch below).
        chosen = (
            ranked[0][0] if made else first_guess(table, clue["word"], words, view["log"][:-1], team, heard)
        )
        position = next(c["position"] for c in visible if c["word"] == chosen)
        # CN-16 lets any operative confirm an unproposed card; the proposal is only a pause
        # for teammates, and a bot with none would spend a think time per card on it.
        return {"action": "propose" if shared else "confirm", "turn": turn, "position": position}, None
    return {"action": "end_turn", "turn": turn}, None
