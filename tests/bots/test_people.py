"""Issue 32: the independent source of what a person knows (``bots.people``), the reader
and the hand-written knowledge layer, and the operative that reads people's clues with it.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from bots import people as people_module
from bots.associations import key, parse
from bots.codenames import HEARD, first_guess, rank
from bots.people import People, parse_knowledge, people
from bots.reader import Reader
from rooms.words import load_pack

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "it", "pt-br", "ca", "sv")
TABLE = parse("fountain\twater; coin; square\nwolf\thowl; pack; moon\nsnow\tcold; white\n", "en")
BOARD = ["fountain", "wolf", "snow", "winter"]


def _source(knows: str = "", near: dict[str, dict[str, float]] | None = None) -> People:
    return People("en", Reader("en", near or {}), parse_knowledge(knows))


def test_issue32_knowledge_entries_weigh_by_rank_and_keep_the_strongest_card() -> None:
    knows = parse_knowledge(
        "# header\nwolf\tcrepi|idiom; romulus|name\nfountain\ttrevi|name; romulus|assoc\n"
    )
    assert knows["crepi"] == {"wolf": people_module.FIRST}
    assert knows["romulus"] == {
        "wolf": people_module.FIRST - people_module.STEP,
        "fountain": people_module.FIRST - people_module.STEP,
    }
    deep = parse_knowledge("wolf\t" + "; ".join(f"w{n}|assoc" for n in range(30)))
    assert deep["w29"]["wolf"] == people_module.LEAST


def test_cn12_the_operative_reads_a_name_the_table_lacks() -> None:
    source = _source("fountain\ttrevi|name\nwolf\tcrepi|idiom\n")
    assert TABLE.score("Trevi", BOARD)["fountain"] == 0.0
    assert rank(TABLE, "Trevi", BOARD)[0][1] == 0.0  # the table alone reads nothing
    assert rank(TABLE, "Trevi", BOARD, source)[0] == ("fountain", pytest.approx(HEARD * people_module.FIRST))
    assert first_guess(TABLE, "crepi", BOARD, people=source) == "wolf"


def test_cn12_the_table_and_a_person_agreeing_beat_either_alone() -> None:
    # "moon" is WOLF's in the table, and a person also finds it near WINTER (a card the
    # table knows nothing of): the card both read wins.
    source = _source(near={"winter": {"moon": 0.9}, "wolf": {"moon": 0.5}})
    ranked = rank(TABLE, "moon", BOARD, source)
    assert [w for w, _s in ranked[:2]] == ["wolf", "winter"]


def test_cn12_a_compound_clue_no_source_knows_is_read_by_its_halves() -> None:
    source = _source("winter\tsnow|assoc\n", near={"winter": {"frost": 0.6}})
    assert source.evokes("snowman") == {}  # "man" is not a word the source knows
    source = _source("winter\tsnow|assoc; man|assoc\n")
    halves = source.evokes("snowman")
    assert halves["winter"] == pytest.approx(people_module.FIRST * people_module.HALF)


def test_cn10_a_clue_typed_without_its_accent_is_read_when_it_can_only_be_one_entry() -> None:
    source = _source("fountain\ttrévi|name\n")
    assert source.score("trevi", ["fountain"]) == {"fountain": people_module.FIRST}
    both = _source("fountain\ttrévi|name\nwolf\ttrevì|name\n")
    assert both.score("trevi", ["fountain", "wolf"]) == {"fountain": 0.0, "wolf": 0.0}


def test_dc19_the_interceptor_reads_knowledge_both_ways() -> None:
    source = _source("wolf\tcrepi|idiom; romulus|name\n")
    assert source.around("crepi")["wolf"] == people_module.FIRST
    # A keyword brings its names and sayings to mind, so two clues meet through it.
    assert source.around("wolf")["romulus"] == people_module.FIRST - people_module.STEP


@pytest.mark.parametrize("language", LANGUAGES)
def test_issue32_every_language_has_an_independent_source_over_its_whole_pack(language: str) -> None:
    source = people(language)
    cards = {key(w) for w in load_pack(str(ROOT / "codenames" / "words"), language)}
    keywords = {key(w) for w in load_pack(str(ROOT / "decrypto" / "words"), language)}
    assert len(cards & set(source.reader.near)) >= 0.97 * len(cards)
    assert len(keywords & set(source.reader.near)) >= 0.97 * len(keywords)
    known = {card for found in source.knows.values() for card in found}
    assert len(cards & known) >= 0.97 * len(cards)
    for path in (ROOT / "bots" / "data" / "people").glob(f"*{language}.tsv"):
        header = path.read_text(encoding="utf-8")[:600]
        assert "blind" in header and "never the bots'" in header and "CC0" in header, path


def test_issue32_the_reader_places_other_languages_by_their_english_glosses() -> None:
    # Italian and Catalan words meet where their translations do; none is in the other's row
    # by spelling.
    assert people("it").score("lupi", ["lupo"])["lupo"] >= 0.9
    assert people("ca").score("gossos", ["gos"])["gos"] >= 0.9
    assert people("sv").score("flygplan", ["flygplats"])["flygplats"] > 0.0
    assert people("pt-br").score("chuvoso", ["chuva"])["chuva"] > 0.0


@pytest.mark.parametrize("language", ("it", "sv"))
def test_issue32_evaluate_reports_the_operative_with_and_without_peoples_knowledge(language: str) -> None:
    path = ROOT / "bots" / "eval" / f"blind-codenames-{language}.tsv"
    figures = {}
    for flags in ((), ("--table-only",)):
        out = io.StringIO()
        call_command("bots", "evaluate", str(path), "--boards", "1", *flags, stdout=out)
        first = out.getvalue().splitlines()[0]
        figures[flags] = float(first.split("top1 ")[1].split()[0])
    assert figures[()] > figures[("--table-only",)]
