"""Decrypto teammates: an Encryptor that hints at its team's keywords, a decipherer that
reads its own team's clues, and an interceptor that reads the opponents' public sheet.

Every decision is taken from the seat's own view (``decrypto.engine.view_for``): the
Encryptor's code and its team's keywords only when that view holds them. An interceptor
never knows the opponents' keywords; it links each new clue to the clues already given
at each position, through the words both bring to mind.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from bots import lemmas, stems
from bots.associations import Table, forms, key
from bots.people import People
from bots.people import people as people_of
from decrypto.engine import codes
from decrypto.engine.model import CLUE_MAX_CHARS, DIGITS
from decrypto.engine.text import clue_key, loose_key

# ``key`` of the same few hundred words, many times a move.
_key = lru_cache(maxsize=65_536)(key)

# A clue must point at its keyword more than at any other keyword of the team by this much.
MARGIN = 0.15
# Below this, two clues sharing a word in mind is no evidence that they share a position.
FAINT = 0.2
# The first eight associations of a word (weight 1.0 down to 0.79) are the obvious ones.
OBVIOUS = 0.6
# How much the Encryptor gives up in clarity to shrink the lead of the true code for an
# interceptor holding the whole table and the team's earlier clues (what the opponents read),
# and what people know beside it (``bots.people``). Issue 32, against an interceptor holding
# both (``bots selfplay --against reader+person``, 150 games, rounds 2-4, en): 1.0 let it
# intercept 0.260 per try, 2.0 0.244, 3.0 0.227, own-team miscommunication 0 throughout.
DISCRETION = 3.0
# Nearness to a keyword, by the independent reader (``bots.reader``), that gives it away.
GIVEAWAY = 0.7
# A clue chosen among the best few, so that the same keyword is not hinted the same way.
SPREAD = 0.08


@dataclass(frozen=True)
class Hint:
    """One clue and the keyword it stands for (the bot's reasoning, kept server-side)."""

    clue: str
    keyword: str


def evokes(table: Table, clue: str) -> dict[str, float]:
    """The pack words ``clue`` brings to mind, the clue itself included when it is one."""
    memo = _memo(table)[1]
    known = memo.get(clue)
    if known is None:
        found = table.brings_to_mind(clue)  # shared: never changed here
        own = table.by_key.get(key(clue))
        known = memo[clue] = found if own is None else {**found, own: 1.0}
    return known


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
    obvious: bool = False,
) -> tuple[int, ...]:
    """The opponents' code read from their public sheet (DC-19).

    Their keywords are never ours (DC-2): a link through one of our own keywords is no
    evidence. A clue that links to nothing given before likely stands for a position
    not hinted yet. Every clue, a person's or a bot's, is read with all the table
    knows (issue 23: the first eight links alone read a person's clues far worse);
    ``obvious``: only the links anyone would see, for measuring that difference.
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


def reader_links(
    people: People,
    clue: str,
    by_position: dict[str, list[dict[str, Any]]],
    ignore: Iterable[str] = (),
) -> tuple[float, ...]:
    """For positions 1..4, how surely an interceptor holding the independent reader
    (``bots.reader``, not the bots' tables) ties ``clue`` to the clues already there.

    It takes each position to stand for the words its earlier clues are all near (a
    word two clues are near is surer than one near a single clue), an earlier clue
    itself among them; a new clue fits the position as near as it is to the likeliest
    of those words. ``ignore``: the interceptor's own keywords, never the opponents'
    (DC-2).
    """
    skip = {key(word) for word in ignore}
    mine = people.around(clue)
    found = []
    for digit in DIGITS:
        doubt: dict[str, float] = {}
        for row in by_position.get(str(digit), []):
            for word, value in people.around(row["clue"]).items():
                if word not in skip:
                    doubt[word] = doubt.get(word, 1.0) * (1.0 - value)
        found.append(max((mine[w] * (1.0 - d) for w, d in doubt.items() if w in mine), default=0.0))
    return tuple(found)


def read_intercept(
    people: People,
    clues: Sequence[str],
    their_sheet: dict[str, Any],
    own_keywords: Sequence[str] = (),
    also: Table | None = None,
) -> tuple[int, ...]:
    """The opponents' code as an interceptor holding only the public sheet (DC-19) and
    the independent source would read it (issue 32): a measure of the Encryptor, never
    a bot's move. A clue near nothing given before likely stands for a position not
    hinted yet. ``also``: a person-like table (``bots.person``) read beside it, each
    position taking the surer of the two links: a person who knows the common
    associations as well as the names, sayings and nearness the source holds."""
    by_position = their_sheet["by_position"]
    fresh = [not by_position.get(str(d)) for d in DIGITS]
    scores = []
    for clue in clues:
        links = reader_links(people, clue, by_position, own_keywords) if clue else (0.0,) * 4
        if clue and also is not None:
            table_links = position_links(also, clue, by_position, own_keywords)
            links = tuple(max(a, b) for a, b in zip(links, table_links, strict=True))
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
    public: Iterable[str] = (),
    *,
    people: bool = False,
) -> tuple[Hint, ...]:
    """Three legal clues for ``code`` (DC-7, DC-17) that the team reads and an
    interceptor does not.

    Each clue points at its keyword more clearly than at the team's other three, from a
    sense of the keyword not hinted yet (``senses``), never a near-synonym of a clue
    already given for that keyword nor another form of any public clue (``sheet``: the
    team's own, which the opponents read, DC-19; ``public``: the opponents' sheet). The
    three together must decipher back to the code with the team's table, and are chosen
    to give a reader holding the whole table and the team's earlier clues (``intercept``)
    the least lead for the true code. Links anyone knows (a word's first associations)
    tie a clue to its position for every later round: the middle and end of a list are
    preferred; ``people``: the team's readers are people, who see a word's familiar links
    more surely than its last ones (``FAMILIAR``). Only the seat's view is used: the
    keywords, the code, the public sheets.
    """
    taken = {clue_key(c) for c in used if c}
    own_loose = [loose_key(word) for word in keywords]
    by_position = sheet["by_position"]
    echoes = [_Echo(c, forms(c, table.language), loose_key(c)) for c in sorted({*used, *public}) if c]

    def legal(clue: str) -> bool:
        loose = loose_key(clue)
        return (
            0 < len(clue) <= CLUE_MAX_CHARS
            and clue_key(clue) not in taken
            # DC-17 and DC-18: never a keyword, nor a word built on one ("fire" → "fireman").
            and not any(word in loose or loose in word for word in own_loose)
            # DC-17 in spirit (issue 32): no word of the clue a form, a derivation or a
            # compound sharing a stem with a keyword ("vetri" for VETRO, "portone" for PORTA).
            and not any(_names_keyword(part) for part in clue.split())
        )

    guard = stems.Guard(list(keywords), table.language)
    # A clue the independent reader puts this near a keyword gives it away to anyone
    # (PIG → hog): issue 32, never given. The reader's nearness, not people's knowledge:
    # a name or a saying tied to the keyword is a clue, a near-synonym is the answer.
    source = people_of(table.language)
    giveaway = source.reader.board(keywords)

    def _names_keyword(part: str) -> bool:
        return (
            guard.near(part) is not None
            or max(giveaway(part).values(), default=0.0) >= GIVEAWAY
            or any(lemmas.same_word(part, word, table.language) for word in keywords)
        )

    options: list[list[_Option]] = []
    for digit in code:
        found = _options(table, keywords, digit, legal, by_position, echoes, people, source)
        if not found:
            found = [_Option(_any_legal(table, legal, rng), 0.0, (0.0,) * 4, (0.0,) * 4)]
        options.append(found[:WIDTH])
    fresh = [not by_position.get(str(d)) for d in DIGITS]
    combos: list[tuple[float, tuple[_Option, ...]]] = []
    for combo in itertools.product(*options):
        if len({clue_key(o.clue) for o in combo}) < len(combo):
            continue
        seen = [
            [o.links[d - 1] + (0.05 if max(o.links) == 0.0 and fresh[d - 1] else 0.0) for d in DIGITS]
            for o in combo
        ]
        edge = _edge(seen, tuple(code))
        value = sum(o.value for o in combo) - DISCRETION * max(edge, 0.0)
        if _edge([o.reads for o in combo], tuple(code)) <= 0.0:
            value -= MISREAD  # the team would read another code, or hesitate between two
        combos.append((value, combo))
    if not combos:  # every way repeats a clue (a table that knows almost nothing)
        clues: list[str] = []
        for found in options:
            fits = [o.clue for o in found if clue_key(o.clue) not in {clue_key(c) for c in clues}]
            clues.append(fits[0] if fits else _any_legal(table, lambda c: legal(c) and c not in clues, rng))
        return tuple(Hint(clue, keywords[d - 1]) for clue, d in zip(clues, code, strict=True))
    combos.sort(key=lambda pair: -pair[0])
    top = [combo for value, combo in combos if value >= combos[0][0] - SPREAD]
    chosen = rng.choice(top)
    return tuple(Hint(o.clue, keywords[d - 1]) for o, d in zip(chosen, code, strict=True))


_CODES = tuple(codes())
# How many clues per digit the Encryptor weighs together (WIDTH³ rounds at most).
WIDTH = 5
# A round its own team would misread: only when nothing else is left.
MISREAD = 10.0
# Margin over the team's other keywords past which a clue is clear enough.
CLEAR = 0.4
# What a link's weight (how many people make it) costs a clue: a link everyone makes ties
# the clue's keyword to every later clue at its position (measured against person-like
# opponents, ``bots.selfplay.versus_person``: the middle and end of a list fare best).
PLAIN = 0.5
# For a team of people, the weight a clue's link is best near: past a word's first few
# links, well before its last ones (a person reads a link it would not have thought of
# less surely; measured with person-like teammates, ``versus_person(teammate="person")``).
FAMILIAR = 0.7
# What a clue linked to its keyword only through the thesaurus layer costs: a person may
# well not see the link (issue 23: "cheque" for "kite").
OBSCURE = 0.3
# Two associations of a keyword this alike are one sense of it.
SAME_SENSE = 0.3
# A clue this alike to an earlier one is a near-synonym: never given.
NEAR = 0.6


@dataclass(frozen=True)
class _Option:
    clue: str
    value: float
    # how the team reads the clue (per position: its keyword, and the earlier clues there)
    reads: tuple[float, ...]
    # how likely a reader is to link it to the team's earlier clues at each position
    links: tuple[float, ...]


def _seen(table: Table, clue: str, by_position: dict[str, list[dict[str, Any]]]) -> tuple[float, ...]:
    """For positions 1..4, how likely an opponent holding the whole table is to tie
    ``clue`` to the clues already there: through a word both bring to mind, each link
    weighed by how common it is (its weight), so two plain links make a strong tie and
    two deep ones a faint one."""
    mine = evokes(table, clue)
    found = []
    for digit in DIGITS:
        best = 0.0
        for row in by_position.get(str(digit), []):
            theirs = evokes(table, row["clue"])
            for word, weight in mine.items():
                other = theirs.get(word)
                if other is not None and weight * other > best:
                    best = weight * other
        found.append(best)
    return tuple(found)


def _edge(scores: Sequence[Sequence[float]], code: tuple[int, ...]) -> float:
    """How far the true code leads every other code for a reader with ``scores``
    (below zero: that reader picks another code)."""
    first, second, third = scores
    best_other = max(first[a - 1] + second[b - 1] + third[c - 1] for a, b, c in _CODES if (a, b, c) != code)
    return first[code[0] - 1] + second[code[1] - 1] + third[code[2] - 1] - best_other


def _options(
    table: Table,
    keywords: Sequence[str],
    digit: int,
    legal: Any,
    by_position: dict[str, list[dict[str, Any]]],
    echoes: Sequence[_Echo],
    people: bool,
    source: People | None = None,
) -> list[_Option]:
    """The clues worth weighing for one digit, best first. ``source``: what people know
    apart from the bots' table (``bots.people``); an interceptor may tie a clue to the
    earlier clues at a position through it, so each option's links count it too."""
    keyword = keywords[digit - 1]
    earlier = [row["clue"] for row in by_position.get(str(digit), [])]
    clusters = senses(table, keyword)
    spent = {clusters[c] for c in earlier if c in clusters}
    spent |= {
        sense
        for clue, sense in clusters.items()
        if any(similarity(table, clue, old, keyword) >= SAME_SENSE for old in earlier if old not in clusters)
    }
    scored: list[tuple[bool, _Option]] = []
    for clue in _candidates(table, keyword):
        if not legal(clue):
            continue
        shapes, loose = forms(clue, table.language), loose_key(clue)
        # Never a near-synonym of a clue already given for this keyword, nor another form
        # of any public clue.
        if any(_near(table, clue, shapes, loose, old, old.clue in earlier and keyword) for old in echoes):
            continue
        evoked = table.brings_to_mind(clue)
        score = {word: evoked.get(table.by_key.get(_key(word), word), 0.0) for word in keywords}
        mine = score.get(keyword, 0.0)
        rival = max((s for w, s in score.items() if w != keyword), default=0.0)
        if mine <= 0.0 or mine - rival < MARGIN:
            continue
        earlier_links = position_links(table, clue, by_position)
        reads = tuple(
            score.get(word, 0.0) + 0.5 * earlier_links[d - 1] for d, word in enumerate(keywords, start=1)
        )
        # Enough margin is enough; past it, a plainer link only helps the opponents: every
        # later clue at this position will be read through it.
        value = min(mine - rival, CLEAR) - PLAIN * (abs(mine - FAMILIAR) if people else mine)
        if mine < 0.4:
            value -= OBSCURE  # a thesaurus link only: a person may well not see it
        links = _seen(table, clue, by_position)
        if source:
            # Issue 32: a person ties clues through names, sayings and nearness the table
            # lacks (ELEPHANT: peanuts, then safari); the rounds are weighed against the
            # surer of the two readings, so a clue that leads such a reader to another
            # position (misdirection) is worth as much as one the table alone hides.
            heard = reader_links(source, clue, by_position)
            links = tuple(max(a, b) for a, b in zip(links, heard, strict=True))
        scored.append((clusters.get(clue) in spent, _Option(clue, value, reads, links)))
    # A sense already hinted only while no other is left.
    fresh_senses = [o for repeated, o in scored if not repeated]
    chosen = fresh_senses or [o for _r, o in scored]
    return sorted(chosen, key=lambda o: -o.value)


# Per table (by id, the table kept alongside so that the id stays its own): what each clue
# evokes and the similarities already worked out (the same clues recur every round), and
# the senses of each keyword.
_MEMO: dict[int, tuple[Table, dict[Any, Any], dict[str, dict[str, int]]]] = {}


def _memo(table: Table) -> tuple[Table, dict[Any, Any], dict[str, dict[str, int]]]:
    held = _MEMO.get(id(table))
    if held is None or held[0] is not table:
        if len(_MEMO) > 32:
            _MEMO.clear()
        held = _MEMO[id(table)] = (table, {}, {})
    return held


def senses(table: Table, keyword: str) -> dict[str, int]:
    """The keyword's associations grouped by sense (association → group number).

    The tables list a word's associations without their senses; two associations share
    one when the words they bring to mind, the keyword aside, overlap (``similarity``).
    Each joins the group it is on average most alike, in list order.
    """
    cache = _memo(table)[2]
    known = cache.get(keyword)
    if known is not None:
        return known
    groups: list[list[str]] = []
    for association in _candidates(table, keyword):
        best, best_value = None, SAME_SENSE
        for group in groups:
            value = sum(similarity(table, association, other, keyword) for other in group) / len(group)
            if value >= best_value:
                best, best_value = group, value
        if best is None:
            groups.append([association])
        else:
            best.append(association)
    found = {association: number for number, group in enumerate(groups) for association in group}
    cache[keyword] = found
    return found


def similarity(table: Table, one: str, other: str, keyword: str = "") -> float:
    """How alike two clues are (0..1), through the words they bring to mind besides
    ``keyword``: a direct link, or the overlap of what both evoke (cosine)."""
    memo = _memo(table)[1]
    found = memo.get((one, other, keyword))
    if found is None:
        if len(memo) > 200_000:
            memo.clear()  # a bound for a long-lived server
        found = memo[(one, other, keyword)] = memo[(other, one, keyword)] = _similarity(
            table, one, other, keyword
        )
    return found


def _similarity(table: Table, one: str, other: str, keyword: str) -> float:
    skip = table.by_key.get(_key(keyword), keyword)
    first, first_norm = _vector(table, one, skip)
    second, second_norm = _vector(table, other, skip)
    direct = max(
        first.get(table.by_key.get(_key(other), ""), 0.0), second.get(table.by_key.get(_key(one), ""), 0.0)
    )
    if len(first) > len(second):
        first, second = second, first
    dot = sum(weight * second[word] for word, weight in first.items() if word in second)
    if not dot:
        return direct
    return max(direct, dot / (first_norm * second_norm))


def _vector(table: Table, clue: str, skip: str) -> tuple[dict[str, float], float]:
    """What ``clue`` evokes besides ``skip``, and the length of that as a vector."""
    memo = _memo(table)[1]
    found = memo.get((clue, skip))
    if found is None:
        vector = {w: s for w, s in evokes(table, clue).items() if w != skip}
        found = memo[(clue, skip)] = (vector, math.sqrt(sum(w * w for w in vector.values())))
    return found


class _Echo(NamedTuple):
    """A clue already public, with its comparison forms."""

    clue: str
    forms: set[str]
    loose: str


def _near(table: Table, clue: str, shapes: set[str], loose: str, old: _Echo, keyword: str | bool) -> bool:
    """``clue`` is ``old`` in another form or, for a ``keyword`` they both hint at, has
    nearly the same links besides it."""
    if shapes & old.forms:
        return True
    if min(len(loose), len(old.loose)) >= 4 and (loose.startswith(old.loose) or old.loose.startswith(loose)):
        return True
    return isinstance(keyword, str) and similarity(table, clue, old.clue, keyword) >= NEAR


def _candidates(table: Table, keyword: str) -> list[str]:
    """A keyword's associations; for a word not in the table (a room's own keyword), the
    pack words that list it among theirs."""
    listed = table.words.get(table.by_key.get(_key(keyword), keyword))
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
    mine = {table.by_key.get(_key(word), word) for word in own_keywords}
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
    that people share with the bot is theirs to finish: the bot suggests a guess beside the
    team's draft and leaves writing and locking it, and the tie-breaks, to them.
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
        public = [clue for row in view["sheets"][other]["rows"] for clue in row["clues"]]
        people = any(p not in machines for p in own["players"] if p != seat["player"])
        sheet = view["sheets"][team]
        hints = encrypt(table, keywords, panel["code"], used, sheet, rng, public, people=people)
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
            # A person's clues are read with all the table knows (issue 23); a bot's with
            # the links anyone would see: two bots share one table, and a bot reading its
            # twin's mind would intercept a bot Encryptor partnering people 3 times in 4.
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
        if any(s["player"] == seat["player"] for s in guess["suggestions"]):
            return None  # the bot has said its piece: its people decide (issue 29)
        return {
            "action": "suggest_guess",
            **_moment(stamp),
            "guessing_for": current["team"],
            "code": list(code),
        }
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
