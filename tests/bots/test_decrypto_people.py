"""Issue 23, item 3: Decrypto clues that hold up against people, an interceptor that reads
people with all it knows, and self-play against a person-like team instead of a twin."""

from __future__ import annotations

import random
from typing import Any

from bots import associations
from bots.associations import parse
from bots.decrypto import decide, decipher, encrypt, intercept, senses, similarity
from bots.person import person_table
from bots.selfplay import versus_person
from decrypto import engine

# "bank" has three senses: money (its associations are the first links of "money"), a
# river's side (those of "river") and a seat (those of "seat").
SENSES = parse(
    "bank\tmoney; cash; loan; vault; river; shore; stream; bench; coin; park; chair; fish\n"
    "money\tcash; loan; vault; coin; rich\n"
    "river\tshore; stream; fish; boat; current\n"
    "seat\tbench; chair; park; sofa\n"
    "fire\tflame; smoke; heat; ash; match; camp; burn; red\n"
    "clock\ttime; tick; hour; alarm; hand; tower; watch; cuckoo\n"
    "bread\tloaf; crust; flour; bake; toast; butter; yeast; crumb\n",
    "en",
)
TEAM = ["bank", "fire", "clock", "bread"]
MONEY = {"money", "cash", "loan", "vault", "coin"}
RIVER = {"river", "shore", "stream", "fish"}
SEAT = {"bench", "park", "chair"}


def _sheet(*rounds: tuple[tuple[int, ...], tuple[str, ...]]) -> dict[str, Any]:
    by_position: dict[str, list[dict[str, Any]]] = {"1": [], "2": [], "3": [], "4": []}
    for number, (code, clues) in enumerate(rounds, start=1):
        for digit, clue in zip(code, clues, strict=True):
            by_position[str(digit)].append({"round": number, "clue": clue})
    return {"rows": [{"clues": list(clues)} for _c, clues in rounds], "by_position": by_position}


def _sense(clue: str) -> str:
    return next(name for name, words in (("money", MONEY), ("river", RIVER), ("seat", SEAT)) if clue in words)


def test_issue23_a_keywords_senses_come_from_the_words_its_links_bring_to_mind() -> None:
    groups = senses(SENSES, "bank")
    assert len({groups[w] for w in MONEY - {"money"}}) == 1
    assert len({groups[w] for w in RIVER - {"river"}}) == 1
    assert len({groups[w] for w in SEAT}) == 1
    assert len({groups["cash"], groups["shore"], groups["bench"]}) == 3
    assert similarity(SENSES, "cash", "loan", "bank") > similarity(SENSES, "cash", "shore", "bank")


def test_issue23_a_keywords_clues_over_eight_rounds_change_sense_while_another_is_left() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        rounds: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
        given: list[str] = []
        for number in range(8):
            code = (1, *rng.sample([2, 3, 4], 2))
            sheet = _sheet(*rounds)
            used = [c for _code, clues in rounds for c in clues]
            hints = encrypt(SENSES, TEAM, code, used, sheet, random.Random(f"{seed}:{number}"))
            rounds.append((code, tuple(h.clue for h in hints)))
            given.append(hints[0].clue)
        assert len(set(given)) == 8  # DC-17 still holds
        # The first three clues for "bank" cover its three senses; the eight cover them all.
        assert len({_sense(c) for c in given[:3]}) == 3, given
        # Never a near-synonym of an earlier clue: no other form of one ("coin", "coins").
        assert not any(a != b and (a.startswith(b) or b.startswith(a)) for a in given for b in given)


def test_issue23_the_encryptor_varies_a_real_keyword_across_rounds() -> None:
    table = associations.table("decrypto", "en")
    team = ["tiger", "piano", "bread", "castle"]
    groups = senses(table, "tiger")
    rounds: list[tuple[tuple[int, ...], tuple[str, ...]]] = []
    for number in range(8):
        code = (1, 2 + number % 3, 4 - number % 2 if number % 3 != 2 else 2)
        used = [c for _code, clues in rounds for c in clues]
        hints = encrypt(table, team, code, used, _sheet(*rounds), random.Random(number))
        rounds.append((code, tuple(h.clue for h in hints)))
    tiger = [clues[0] for _code, clues in rounds]
    assert len({groups.get(c) for c in tiger}) == 8, tiger  # eight rounds, eight senses
    assert all(table.score(c, ["tiger"])["tiger"] >= 0.4 for c in tiger)  # never a thesaurus-only link


def test_issue23_a_planted_obvious_clue_is_rejected() -> None:
    # "cobra" and "python" are equally deep links of "snake", but "cobra" is also one of
    # the first links of "viper", as is the earlier clue "hiss": anyone holding the sheet
    # would tie "cobra" to position 1. "python" is linked to "hiss" through "snake" alone.
    table = parse(
        "snake\thiss; slither; venom; scales; fang; reptile; desert; grass; ladder; charmer; python; cobra\n"
        "viper\tcobra; hiss; fang\n"
        "fire\tflame; smoke; heat; ash; match; camp; burn; red\n"
        "clock\ttime; tick; hour; alarm; hand; tower; watch; cuckoo\n"
        "bread\tloaf; crust; flour; bake; toast; butter; yeast; crumb\n",
        "en",
    )
    team = ["snake", "fire", "clock", "bread"]
    sheet = _sheet(((1, 2, 3), ("hiss", "smoke", "tick")))
    used = ["hiss", "smoke", "tick"]
    # Every other link of "snake" already given: the choice is "python" or "cobra".
    spent = ["slither", "venom", "scales", "fang", "reptile", "desert", "grass", "ladder", "charmer"]
    chosen = {
        encrypt(table, team, (1, 4, 2), [*used, *spent], sheet, random.Random(s))[0].clue for s in range(12)
    }
    assert chosen == {"python"}
    # Without the earlier clue, both are fine.
    free = {encrypt(table, team, (1, 4, 2), spent, _sheet(), random.Random(s))[0].clue for s in range(12)}
    assert "cobra" in free


def test_issue23_every_round_the_encryptor_gives_is_read_back_by_its_team() -> None:
    # Deep links, senses changed: still never too obscure for the team's own table.
    sheet = _sheet(((1, 2, 3), ("cash", "smoke", "tick")), ((4, 1, 2), ("loaf", "shore", "ash")))
    used = ["cash", "smoke", "tick", "loaf", "shore", "ash"]
    for seed in range(8):
        hints = encrypt(SENSES, TEAM, (1, 3, 4), used, sheet, random.Random(seed))
        assert decipher(SENSES, [h.clue for h in hints], TEAM, sheet) == (1, 3, 4)
        assert _sense(hints[0].clue) == "seat"  # money and river given: the third sense


def _interceptor_view(sheet: dict[str, Any], clues: list[str]) -> dict[str, Any]:
    """What a black bot's seat sees while it intercepts White's code (round 2)."""
    stamp = {"round": 2, "phase": "guess", "guessing_for": "white"}
    return {
        "seat": {"player": "b1", "team": "black", "tasks": ["guess"]},
        "stamp": stamp,
        "round": 2,
        "outcome": None,
        "to_act": [{"team": "black", "task": "guess", "players": ["b1"]}],
        "teams": {"black": {"keywords": ["snow", "moon", "garden", "piano"]}, "white": {"keywords": None}},
        "encryptor": None,
        "current": {
            "team": "white",
            "encryptor": "w0",
            "clues": clues,
            "guess": {"can_edit": True, "locked": False, "task": "intercept", "draft": [None] * 3},
        },
        "sheets": {"white": sheet, "black": _sheet()},
        "tiebreak": None,
    }


def test_issue23_the_interceptor_reads_a_persons_clues_with_its_whole_table() -> None:
    table = parse(
        "ocean\twave; surf; tide; salt; whale; deep; blue; ship; coral; reef; shore; sailor; atlantic;"
        " pacific; current; abyss\n"
        "fire\tflame; smoke; heat; ash; match; camp; burn; red\n"
        "clock\ttime; tick; hour; alarm; hand; tower; watch; cuckoo\n"
        "bread\tloaf; crust; flour; bake; toast; butter; yeast; crumb\n",
        "en",
    )
    # "abyss" and "current" meet only deep in ocean's list: a reader of the obvious links
    # alone misses the tie (and puts "current" at the position not hinted yet). White's
    # Encryptor w0 is a person: read with the whole table. Were w0 a bot, its twin reads it
    # by the obvious links, as a person would.
    sheet = _sheet(((1, 2, 3), ("abyss", "flame", "time")))
    clues = ["current", "smoke", "tick"]
    assert intercept(table, clues, sheet, obvious=True) == (4, 2, 3)
    message = decide(_interceptor_view(sheet, clues), table, bots={"b1", "w1"})
    assert message is not None and message["action"] == "lock_guess"
    assert message["code"] == [1, 2, 3]
    message = decide(_interceptor_view(sheet, clues), table, bots={"b1", "w0", "w1"})
    assert message is not None and message["code"] == [4, 2, 3]


def test_issue23_a_person_like_table_is_the_bots_table_with_links_forgotten_and_reordered() -> None:
    table = associations.table("decrypto", "it")
    one, again, other = person_table("it", 1), person_table("it", 1), person_table("it", 2)
    assert one.words == again.words  # one seed, one person
    assert one.words != other.words
    bots = sum(len(v) for v in table.words.values())
    kept = sum(len(v) for v in one.words.values())
    assert 0.5 * bots < kept < 0.95 * bots
    reordered = sum(
        [a for a, _w in one.words[w]] != [a for a, _w in table.words[w] if a in {b for b, _v in one.words[w]}]
        for w in table.words
    )
    assert reordered > len(table.words) // 3
    half = person_table("it", 1, "half")
    assert sum(len(v) for v in half.words.values()) < kept


def test_issue23_selfplay_against_a_person_like_team_reports_its_figures() -> None:
    tally = versus_person("en", 4, seed=3)
    assert tally.games == 4 and tally.stalled == 0
    assert tally.decipher_tries >= 4 and 0 < tally.intercept_tries <= tally.decipher_tries
    assert 0.0 <= tally.interception_rate <= 1.0
    # The bot team reads its own Encryptor: each round was checked against its table.
    assert tally.miscommunication_rate <= 0.1
    assert len(tally.encrypt_seconds) * 3 == len(tally.clues) >= 12
    lines = "\n".join(tally.lines())
    assert "intercepted" in lines and "per try" in lines and "miscommunication" in lines
    assert "ms per Encryptor decision" in lines
    with_people = versus_person("sv", 2, seed=3, profile="half", teammate="person")
    assert with_people.games == 2 and with_people.decipher_tries >= 2


def test_issue23_with_people_on_its_team_the_encryptor_gives_more_familiar_links() -> None:
    table = parse(
        "ocean\twave; surf; tide; salt; whale; deep; blue; ship; coral; reef; shore; sailor; atlantic;"
        " pacific; current; abyss\n"
        "fire\tflame; smoke; heat; ash; match; camp; burn; red\n"
        "clock\ttime; tick; hour; alarm; hand; tower; watch; cuckoo\n"
        "bread\tloaf; crust; flour; bake; toast; butter; yeast; crumb\n",
        "en",
    )
    team = ["ocean", "fire", "clock", "bread"]

    def weights(people: bool) -> list[float]:
        clues = [
            encrypt(table, team, (1, 2, 3), [], _sheet(), random.Random(s), people=people)[0].clue
            for s in range(12)
        ]
        return [table.score(c, ["ocean"])["ocean"] for c in clues]

    for_bots, for_people = weights(False), weights(True)
    # Bots read every link of their table: the last ones, which people rarely share.
    assert max(for_bots) < 0.65
    # People read a familiar link more surely, yet never one of the very first (DC-19).
    assert min(for_people) > max(for_bots) and max(for_people) < 0.85


def test_issue23_the_encryptor_knows_from_its_view_whether_people_read_its_clues() -> None:
    from tests.bots.test_decrypto_bots import TABLE

    state = engine.new_game(words=list(TABLE.words), seed=2, white=["w0", "w1"], black=["b0", "b1"])
    encryptor = next(p for p in ("w0", "w1") if "clues" in engine.view_for(state, player=p)["seat"]["tasks"])
    view = engine.view_for(state, player=encryptor)
    keywords, code = view["teams"]["white"]["keywords"], view["encryptor"]["code"]

    def weights(machines: set[str]) -> float:
        message = decide(view, TABLE, bots=machines)
        assert message is not None and message["action"] == "submit_clues"
        return sum(
            TABLE.score(clue, [keywords[d - 1]])[keywords[d - 1]]
            for clue, d in zip(message["clues"], code, strict=True)
        )

    # Its teammate a bot, then a person (not among the room's bots): the same view.
    assert weights({encryptor, "b0", "b1"}) > weights({"w0", "w1", "b0", "b1"})
