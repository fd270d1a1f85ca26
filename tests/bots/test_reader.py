"""Issue 32, item 2: a spymaster that sees danger through an independent reader.

The bots' table may score an opponent's card 0 for a clue a person links to it at once
(WATER → MILK); the reader (``bots.reader``, built from another source) supplies that
nearness, and the spymaster does not count on a card the reader puts behind an
opponent's card or the assassin.
"""

from __future__ import annotations

import random

from bots import reader
from bots.associations import parse
from bots.codenames import choose_clue
from bots.decrypto import GIVEAWAY, encrypt

TABLE = parse("kettle\twater; steam; tea\nfloat\twater; boat; raft\nmilk\tcow; cream\nraft\tlog\n", "en")
BOARD = ["kettle", "float", "milk", "raft"]
KEY = {"kettle": "red", "float": "red", "milk": "blue", "raft": "bystander"}


def test_cn11_without_a_reader_the_table_alone_decides() -> None:
    clue = choose_clue(TABLE, BOARD, KEY, "red")
    assert clue.word == "water" and clue.number == 2


def test_cn11_a_card_the_reader_puts_behind_an_opponent_card_is_not_counted_on() -> None:
    # A person finds WATER nearer to MILK than to FLOAT: WATER 2 would send them to MILK.
    people = reader.Reader("en", {"milk": {"water": 0.6}, "kettle": {"water": 0.7}, "float": {"water": 0.5}})
    clue = choose_clue(TABLE, BOARD, KEY, "red", people=people)
    assert reader.ahead(people, clue.word, clue.intended, KEY, ("blue", "assassin")) == []
    assert not (clue.word == "water" and "float" in clue.intended)


def test_cn18_the_assassin_counts_as_an_opponent_card_for_the_reader() -> None:
    key = {**KEY, "milk": "assassin"}
    people = reader.Reader("en", {"milk": {"water": 0.6}, "kettle": {"water": 0.7}, "float": {"water": 0.5}})
    assert reader.ahead(people, "water", ("kettle", "float"), key, ("blue", "assassin")) == ["milk"]
    clue = choose_clue(TABLE, BOARD, key, "red", people=people)
    assert reader.ahead(people, clue.word, clue.intended, key, ("blue", "assassin")) == []


def test_the_reader_table_round_trips_and_is_silent_without_one() -> None:
    text = reader.render("en", "test", {"milk": {"water": 0.61, "cow": 0.7}})
    parsed = reader.parse(text, "en")
    assert parsed.score("Water", ["milk", "kettle"]) == {"milk": 0.61, "kettle": 0.0}
    assert not reader.reader("xx")


def test_the_committed_english_reader_knows_what_the_table_missed() -> None:
    people = reader.reader("en")
    assert people.score("hog", ["pig"])["pig"] >= reader.FLOOR


def test_dc18_the_encryptor_never_gives_a_clue_the_reader_puts_next_to_its_keyword() -> None:
    # "hog" is PIG's strongest link in this table, and a near-synonym any interceptor reads.
    table = parse(
        "pig\thog; mud; farm; truffle\nfire\tflame; smoke; ash\n"
        "clock\ttick; hour; alarm\nbread\tloaf; crust; yeast\n",
        "en",
    )
    assert reader.reader("en").score("hog", ["pig"])["pig"] >= GIVEAWAY
    sheet = {"rows": [], "by_position": {"1": [], "2": [], "3": [], "4": []}}
    for seed in range(8):
        hints = encrypt(table, ["pig", "fire", "clock", "bread"], (1, 2, 3), (), sheet, random.Random(seed))
        assert hints[0].keyword == "pig" and hints[0].clue != "hog", hints
