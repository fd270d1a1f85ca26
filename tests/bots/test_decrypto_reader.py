"""Issue 32: the Decrypto Encryptor measured against an interceptor holding the public
sheet and the independent reader (``bots.reader``), not the bots' own tables."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from bots import decrypto, reader
from bots.associations import parse
from bots.decrypto import read_intercept, reader_links
from bots.people import People
from bots.people import people as people_of
from bots.selfplay import versus_reader

PEOPLE = reader.Reader(
    "en",
    {
        "archer": {"bow": 0.67, "arrow": 0.63},
        "gold": {"golden": 0.68, "silver": 0.68},
        "globe": {"sphere": 0.74, "equator": 0.6},
    },
)


def _sheet(by_position: dict[int, list[str]]) -> dict[str, Any]:
    return {"by_position": {str(d): [{"clue": c} for c in by_position.get(d, [])] for d in range(1, 5)}}


def test_dc19_the_reader_interceptor_places_each_clue_with_the_earlier_clues_it_is_nearest() -> None:
    sheet = _sheet({1: ["bow"], 2: ["golden"], 3: ["sphere"]})
    # silver and golden are both near GOLD, equator and sphere near GLOBE, arrow and bow near ARCHER.
    assert read_intercept(PEOPLE, ["silver", "equator", "arrow"], sheet) == (2, 3, 1)
    links = reader_links(PEOPLE, "silver", sheet["by_position"])
    assert links[1] > 0.0 and links[0] == links[2] == links[3] == 0.0


def test_dc19_two_earlier_clues_near_one_word_tie_a_new_clue_more_surely() -> None:
    one = reader_links(PEOPLE, "arrow", _sheet({1: ["bow"]})["by_position"])[0]
    two = reader_links(PEOPLE, "arrow", _sheet({1: ["bow", "quiver"]})["by_position"])[0]
    both = reader.Reader("en", {"archer": {"bow": 0.67, "arrow": 0.63, "quiver": 0.6}})
    stronger = reader_links(both, "arrow", _sheet({1: ["bow", "quiver"]})["by_position"])[0]
    assert one == two and stronger > one > 0.0


def test_dc2_a_link_through_the_interceptors_own_keyword_is_no_evidence() -> None:
    sheet = _sheet({1: ["bow"], 2: ["golden"], 3: ["sphere"]})
    assert reader_links(PEOPLE, "silver", sheet["by_position"], ["gold"]) == (0.0, 0.0, 0.0, 0.0)


def test_dc11_selfplay_against_the_reader_counts_its_tries_from_round_two(monkeypatch: Any) -> None:
    calls: list[tuple[str, ...]] = []

    def spy(people: Any, clues: Any, sheet: Any, own: Any = (), also: Any = None) -> tuple[int, ...]:
        assert people is people_of("en") and also is None
        calls.append(tuple(clues))
        return read_intercept(people, clues, sheet, own, also)

    monkeypatch.setattr(decrypto, "read_intercept", spy)
    tally = versus_reader("en", 2, seed=3)
    assert tally.games == 2 and tally.stalled == 0
    assert 1 not in tally.tries and min(tally.tries) == 2
    # Every interception was the reader's: one call per try.
    assert len(calls) == sum(tally.tries.values()) >= 4
    assert tally.decipher_tries >= 2 * len(tally.rounds) and tally.miscommunication_rate <= 0.1
    lines = "\n".join(tally.lines())
    assert "round 2 " in lines and "rounds 2-4" in lines and "own-team miscommunication" in lines
    assert "ms per clue" in lines


def test_dc11_the_reader_mode_of_the_command_reports_rounds_two_to_four(monkeypatch: Any) -> None:
    out = io.StringIO()
    call_command("bots", "selfplay", "--game", "decrypto", "--against", "reader", "--games", "1", stdout=out)
    assert "rounds 2-4" in out.getvalue()
    # A language with no source at all (none ships without one now) is refused, not played.
    silent = People("it", reader.Reader("it", {}), {})
    monkeypatch.setattr("bots.management.commands.bots.people_of", lambda language: silent)
    with pytest.raises(CommandError, match="no reader table"):
        call_command("bots", "selfplay", "--game", "decrypto", "--against", "reader", "--lang", "it")


def test_dc19_the_encryptor_keeps_clear_of_ties_a_person_sees_through_the_independent_source(
    monkeypatch: Any,
) -> None:
    # Round 2: the table ties any FIRE or CLOCK clue to SMOKE or TICK, given in round 1
    # (the code's digits 2 and 3 are plain to an interceptor). PEANUTS, ELEPHANT's clue, is
    # a word the table does not know (a person gave it), so for the table ELEPHANT's new
    # clue could be at 1 or 4 and the code stays hidden. A person finds SAFARI and CIRCUS
    # as near ELEPHANT as PEANUTS is: either would complete the code for them (issue 32).
    table = parse(
        "elephant\tsafari; circus; trunk; tusk\nfire\tsmoke; flame; ash; ember\n"
        "clock\ttick; hour; alarm; dial\nbread\tloaf; crust; yeast; toast\n",
        "en",
    )
    keywords = ["elephant", "fire", "clock", "bread"]
    earlier = {"1": "peanuts", "2": "smoke", "3": "tick", "4": "loaf"}
    sheet = {"rows": [], "by_position": {d: [{"clue": c}] for d, c in earlier.items()}}
    near = {"elephant": {"peanuts": 0.6, "safari": 0.6, "circus": 0.6}}
    source = People("en", reader.Reader("en", near), {})
    assert reader_links(source, "safari", sheet["by_position"])[0] > 0.0
    assert reader_links(source, "trunk", sheet["by_position"]) == (0.0, 0.0, 0.0, 0.0)

    def first_clues(given: People) -> set[str]:
        monkeypatch.setattr(decrypto, "people_of", lambda language: given)
        used = list(earlier.values())
        return {
            decrypto.encrypt(table, keywords, (1, 2, 3), used, sheet, random.Random(seed))[0].clue
            for seed in range(12)
        }

    blind = first_clues(People("en", reader.Reader("en", {}), {}))
    heard = first_clues(source)
    assert blind & {"safari", "circus"}  # the table alone sees no reason to avoid them
    assert heard and not heard & {"safari", "circus"}
