"""Decrypto teammates: an Encryptor that hints at its team's keywords, a decipherer that
reads its own team's clues, and an interceptor that reads the opponents' public sheet.

Every decision is taken from the seat's own view (``decrypto.engine.view_for``): the
Encryptor's code and its team's keywords only when that view holds them. An interceptor
never knows the opponents' keywords; it links each new clue to the clues already given
at each position, through the words both bring to mind.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bots.associations import Table, forms, key
from decrypto.engine import codes
from decrypto.engine.model import CLUE_MAX_CHARS, DIGITS
from decrypto.engine.text import clue_key, loose_key

# A clue must point at its keyword more than at any other keyword of the team by this much.
MARGIN = 0.15
# Below this, two clues sharing a word in mind is no evidence that they share a position.
FAINT = 0.2
# The first eight associations of a word (weight 1.0 down to 0.79) are the obvious ones.
OBVIOUS = 0.6
# How much the Encryptor gives up in clarity to keep a clue away from its position's
# earlier clues (what an interceptor reads).
DISCRETION = 0.6
# A clue chosen among the best few, so that the same keyword is not hinted the same way.
SPREAD = 0.08


@dataclass(frozen=True)
class Hint:
    """One clue and the keyword it stands for (the bot's reasoning, kept server-side)."""

    clue: str
    keyword: str


def evokes(table: Table, clue: str) -> dict[str, float]:
    """The pack words ``clue`` brings to mind, the clue itself included when it is one."""
    found = table.brings_to_mind(clue)  # shared: never changed here
    own = table.by_key.get(key(clue))
    return found if own is None else {**found, own: 1.0}


def link(table: Table, one: str, other: str, ignore: Iterable[str] = (), *, obvious: bool = False) -> float:
    """How strongly two clues seem to stand for the same hidden word (0..1).

    ``obvious``: only through links anyone would see (the first few of a word's list).
    That is what an interceptor can count on: the deeper associations are a team's own.
    """
    first, second = evokes(table, one), evokes(table, other)
    if obvious:
        first = {w: s for w, s in first.items() if s >= OBVIOUS}
        second = {w: s for w, s in second.items() if s >= OBVIOUS}
    skip = {table.by_key.get(key(word), word) for word in ignore}
    shared = [
        min(weight, second[word]) for word, weight in first.items() if word in second and word not in skip
    ]
    strongest = max(shared, default=0.0)
    return strongest if strongest >= FAINT else 0.0


def position_links(
    table: Table,
    clue: str,
    by_position: dict[str, list[dict[str, Any]]],
    ignore: Iterable[str] = (),
    *,
    obvious: bool = False,
) -> list[float]:
    """For positions 1..4, how strongly ``clue`` links to the clues already given there."""
    ignored = list(ignore)
    return [
        max(
            (link(table, clue, row["clue"], ignored, obvious=obvious) for row in by_position.get(str(d), [])),
            default=0.0,
        )
        for d in DIGITS
    ]


def best_code(scores: Sequence[Sequence[float]]) -> tuple[int, ...]:
    """The code (three different digits) whose clue-to-position scores add up the most.

    ``scores[i][d - 1]`` is how well clue ``i`` fits position ``d``. Ties go to the first
    code in deck order, so the same clues always give the same guess.
    """
    return max(codes(), key=lambda code: sum(scores[i][d - 1] for i, d in enumerate(code)))


def decipher(
    table: Table, clues: Sequence[str], keywords: Sequence[str], sheet: dict[str, Any]
) -> tuple[int, ...]:
    """The team's own code read from its keywords, and from the clues it gave before."""
    scores = []
    for clue in clues:
        direct = table.score(clue, list(keywords)) if clue else {}
        earlier = position_links(table, clue, sheet["by_position"]) if clue else [0.0] * 4
        scores.append(
            [direct.get(word, 0.0) + 0.5 * earlier[d - 1] for d, word in enumerate(keywords, start=1)]
        )
    return best_code(scores)


def intercept(
    table: Table,
    clues: Sequence[str],
    their_sheet: dict[str, Any],
    own_keywords: Sequence[str] = (),
    *,
    obvious: bool = True,
) -> tuple[int, ...]:
    """The opponents' code read from their public sheet (DC-19).

    Their keywords are never ours (DC-2): a link through one of our own keywords is no
    evidence. A clue that links to nothing given before likely stands for a position
    not hinted yet. ``obvious``: read only the links anyone would see. A bot reading
    another bot's clues shares its whole table, which no opposing team shares; against
    a person's clues, the table is just what the bot knows, and all of it counts.
    """
    fresh = [not their_sheet["by_position"].get(str(d)) for d in DIGITS]
    scores = []
    for clue in clues:
        links = (
            position_links(table, clue, their_sheet["by_position"], own_keywords, obvious=obvious)
            if clue
            else [0.0] * 4
        )
        nothing = max(links) == 0.0
        scores.append([links[d - 1] + (0.05 if nothing and fresh[d - 1] else 0.0) for d in DIGITS])
    return best_code(scores)


def encrypt(
    table: Table,
    keywords: Sequence[str],
    code: Sequence[int],
    used: Iterable[str],
    sheet: dict[str, Any],
    rng: random.Random,
) -> tuple[Hint, ...]:
    """Three legal clues for ``code`` (DC-7, DC-17): each clearly nearer its own keyword
    than the team's other three, and as far as the team can afford from the clues it
    gave before at that position (which the opponents read, DC-19)."""
    taken = {clue_key(c) for c in used if c}
    own_loose = [loose_key(word) for word in keywords]
    hints: list[Hint] = []
    for digit in code:
        keyword = keywords[digit - 1]

        def legal(clue: str) -> bool:
            loose = loose_key(clue)
            return (
                0 < len(clue) <= CLUE_MAX_CHARS
                and clue_key(clue) not in taken
                # DC-17 and DC-18: never a keyword, nor a word built on one ("fire" → "fireman").
                and not any(word in loose or loose in word for word in own_loose)
            )

        scored: list[tuple[float, str]] = []
        for clue in _candidates(table, keyword):
            if not legal(clue):
                continue
            score = table.score(clue, list(keywords))
            mine = score.get(keyword, 0.0)
            rival = max((s for w, s in score.items() if w != keyword), default=0.0)
            if mine <= 0.0 or mine - rival < MARGIN:
                continue
            seen = position_links(table, clue, sheet["by_position"], obvious=True)[digit - 1]
            scored.append((mine - rival - DISCRETION * seen, clue))
        if scored:
            scored.sort(key=lambda pair: -pair[0])
            top = [clue for value, clue in scored if value >= scored[0][0] - SPREAD]
            chosen = rng.choice(top)
        else:
            chosen = _any_legal(table, legal, rng)
        taken.add(clue_key(chosen))
        hints.append(Hint(chosen, keyword))
    return tuple(hints)


def _candidates(table: Table, keyword: str) -> list[str]:
    """A keyword's associations; for a word not in the table (a room's own keyword), the
    pack words that list it among theirs."""
    listed = table.words.get(table.by_key.get(key(keyword), keyword))
    if listed:
        return [association for association, _weight in listed]
    evoked = table.brings_to_mind(keyword)
    return sorted(evoked, key=lambda word: -evoked[word])


def _any_legal(table: Table, legal: Any, rng: random.Random) -> str:
    # No association at all (a room's own keyword the table does not know): a legal clue
    # still goes in, so the round goes on; the team will likely misread it.
    words = sorted({*table.words, *(a for linked in table.words.values() for a, _w in linked)})
    rng.shuffle(words)
    numbered = (f"? {n}" for n in range(1, 100))  # only for a table with nothing legal left
    return next(word for word in (*words, *numbered) if legal(word))


def guess_keywords(table: Table, their_sheet: dict[str, Any], own_keywords: Sequence[str]) -> list[str]:
    """DC-25: per opponents' position, the pack word its clues bring to mind most together."""
    mine = {table.by_key.get(key(word), word) for word in own_keywords}
    words: list[str] = []
    for digit in DIGITS:
        totals: dict[str, float] = {}
        for row in their_sheet["by_position"].get(str(digit), []):
            for word, weight in evokes(table, row["clue"]).items():
                if word not in mine and word not in words:
                    totals[word] = totals.get(word, 0.0) + weight
        words.append(max(sorted(totals), key=lambda w: totals[w]) if totals else "")
    return words


def accept(table: Table, guesses: Sequence[str], keywords: Sequence[str], hits: Sequence[bool]) -> list[int]:
    """DC-25: the positions where the opponents' guess is our keyword in another form
    (a plural, a feminine): what a fair team accepts."""
    return [
        position
        for position, (guess, word, hit) in enumerate(zip(guesses, keywords, hits, strict=False), start=1)
        if guess and not hit and forms(guess, table.language) & forms(word, table.language)
    ]


def decide(view: dict[str, Any], table: Table, *, bots: Iterable[str]) -> dict[str, Any] | None:
    """The bot's next move from its seat's view, or None when it has nothing to do.

    ``bots``: the public ids of the room's bots (public, as ``players[].bot``). A team task
    that people share with the bot is theirs to finish: the bot drafts the team's guess and
    leaves locking it, and the tie-breaks, to them.
    """
    seat, stamp = view["seat"], view["stamp"]
    tasks, team = seat["tasks"], seat["team"]
    if view["outcome"] is not None or team is None or not tasks:
        return None
    machines = set(bots)
    sharing = {p for task in view["to_act"] if task["team"] == team for p in task["players"]}
    team_of_bots = sharing <= machines
    own = view["teams"][team]
    keywords = own["keywords"] or []
    other = "black" if team == "white" else "white"
    if "clues" in tasks and view["encryptor"] is not None:
        panel = view["encryptor"]
        used = [clue for row in view["sheets"][team]["rows"] for clue in row["clues"]]
        rng = random.Random(f"{view['round']}:{team}:{seat['player']}:{panel['code']}")
        hints = encrypt(table, keywords, panel["code"], used, view["sheets"][team], rng)
        return {"action": "submit_clues", **_moment(stamp), "clues": [h.clue for h in hints]}
    current = view["current"]
    if current is not None and current["guess"] is not None and current["guess"]["can_edit"]:
        guess = current["guess"]
        if guess["locked"]:
            return None
        if guess["task"] == "decipher":
            code = decipher(table, current["clues"], keywords, view["sheets"][team])
        else:
            sheet = view["sheets"][current["team"]]
            code = intercept(
                table, current["clues"], sheet, keywords, obvious=current["encryptor"] in machines
            )
        if team_of_bots:
            return {
                "action": "lock_guess",
                **_moment(stamp),
                "guessing_for": current["team"],
                "code": list(code),
            }
        if any(digit is not None for digit in guess["draft"]):
            return None  # a person is writing the team's guess: the bot has said its piece
        return {"action": "edit_guess", **_moment(stamp), "guessing_for": current["team"], "code": list(code)}
    tiebreak = view["tiebreak"]
    if not team_of_bots or tiebreak is None:
        return None
    if "guess_keywords" in tasks:
        words = guess_keywords(table, view["sheets"][other], keywords)
        return {"action": "tiebreak_guess", **_moment(stamp), "words": words}
    if "judge" in tasks:
        guesses = tiebreak["guesses"][other] or []
        hits = tiebreak["matches"][other] or [False] * len(guesses)
        return {"action": "judge", **_moment(stamp), "accept": accept(table, guesses, keywords, hits)}
    return None


def _moment(stamp: dict[str, Any]) -> dict[str, Any]:
    return {"round": stamp["round"], "phase": stamp["phase"]}
