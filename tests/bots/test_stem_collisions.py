"""Issue 32, item 1: forms, derivations and compounds sharing a stem.

CN-9 forbids a visible codename as a clue; a player also hears the card in a form, a
derivation or a compound of it (TÄNDER with TAND on the board, BARBA with BARBEIRO), so
the spymaster never gives one. DC-17 forbids a keyword as a clue; the Encryptor never
gives a form of one either ("vetri" for VETRO). The judgment (``bots.stems``) only ever
removes a clue, never links one.
"""

from __future__ import annotations

import random

import pytest

from bots import stems
from bots.associations import parse
from bots.codenames import choose_clue
from bots.decrypto import encrypt
from rooms.words import load_pack

# (clue, visible card): the examples, and more the measure found.
RELATED = [
    ("sv", "tänder", "tand"),
    ("sv", "flyga", "flygplats"),
    ("sv", "pianist", "piano"),
    ("sv", "bollar", "fotboll"),
    ("sv", "tandläkare", "tänder"),
    ("pt-br", "barba", "barbeiro"),
    ("pt-br", "cavalo", "cavaleiro"),
    ("pt-br", "camiseta", "camisa"),
    ("pt-br", "churrasqueira", "churrasco"),
    ("it", "orecchini", "orecchio"),
    ("it", "orecchie", "orecchio"),
    ("it", "campanile", "campana"),
    ("it", "cavaliere", "cavallo"),
    ("it", "vetri", "vetro"),
    ("ca", "fuster", "fusta"),
    ("en", "pianist", "piano"),
    ("en", "balls", "football"),
]
# Words alike in their first letters that a player does not hear as one.
APART = [
    ("en", "train", "trait"),
    ("en", "card", "care"),
    ("en", "moon", "month"),
    ("it", "mare", "marte"),
    ("it", "cane", "canestro"),
    ("it", "pasta", "pesto"),
    ("ca", "planta", "planeta"),
    ("ca", "platja", "plata"),
    ("ca", "sal", "saló"),
    ("pt-br", "tronco", "trono"),
    ("pt-br", "camarão", "cama"),
    ("sv", "säng", "sång"),
]


@pytest.mark.parametrize(("language", "clue", "card"), RELATED)
def test_cn9_a_form_derivation_or_compound_shares_a_stem_with_the_card(
    language: str, clue: str, card: str
) -> None:
    assert stems.related(clue, card, language)
    assert stems.related(card, clue, language)
    assert stems.Guard(["hund", card, "sol"], language).near(clue) == card


@pytest.mark.parametrize(("language", "one", "other"), APART)
def test_cn9_words_that_only_begin_alike_are_apart(language: str, one: str, other: str) -> None:
    assert not stems.related(one, other, language)
    assert stems.Guard([other], language).near(one) is None


@pytest.mark.parametrize("language", ["en", "it", "ca", "pt-br", "sv"])
def test_cn9_the_board_index_agrees_with_the_pairwise_rule(language: str) -> None:
    # The spymaster asks the index (fast); the measure asks the pairwise rule: one answer.
    pack = list(load_pack("codenames/words", language))
    rng = random.Random(language)
    for _ in range(5):
        board = rng.sample(pack, 25)
        guard = stems.Guard(board, language)
        for clue in rng.sample(pack, 120):
            found = guard.near(clue)
            assert (found is not None) == (stems.near_any(clue, board, language) is not None), clue
            assert found is None or stems.related(clue, found, language)


@pytest.mark.parametrize(
    ("language", "rows", "card", "form"),
    [
        # FLYGA links both red cards, but FLYGPLATS (the opponents') is heard in it.
        (
            "sv",
            "fågel\tflyga; vinge; näbb\nplan\tflyga; vinge; pilot\nflygplats\tresa\n",
            "flygplats",
            "flyga",
        ),
        (
            "pt-br",
            "navalha\tbarba; corte; lâmina\nespuma\tbarba; sabão; mar\nbarbeiro\tloja\n",
            "barbeiro",
            "barba",
        ),
        (
            "it",
            "gioiello\torecchini; oro; anello\nperla\torecchini; mare; ostrica\norecchio\tudito\n",
            "orecchio",
            "orecchini",
        ),
        ("ca", "serra\tfuster; tallar; dent\nbanc\tfuster; seure; parc\nfusta\tarbre\n", "fusta", "fuster"),
    ],
)
def test_cn9_the_spymaster_never_gives_a_form_of_a_visible_card(
    language: str, rows: str, card: str, form: str
) -> None:
    table = parse(rows, language)
    red = [word for word in table.words if word != card]
    visible = [*red, card]
    identities = {**dict.fromkeys(red, "red"), card: "blue"}
    clue = choose_clue(table, visible, identities, "red")
    assert clue.word != form
    assert not stems.related(clue.word, card, language)
    # With the card covered the form links both red cards again.
    clue = choose_clue(table, red, dict.fromkeys(red, "red"), "red")
    assert clue.word == form and clue.number == 2


def test_dc17_the_encryptor_never_gives_a_form_of_a_keyword() -> None:
    # "vetri" (glasses) is the strongest link of VETRO, and the plural of the keyword.
    table = parse(
        "vetro\tvetri; finestra; bottiglia; trasparente\n"
        "fuoco\tfiamma; fumo; cenere\n"
        "orologio\tore; lancette; sveglia\n"
        "pane\tfarina; forno; crosta\n",
        "it",
    )
    sheet = {"rows": [], "by_position": {"1": [], "2": [], "3": [], "4": []}}
    for seed in range(8):
        hints = encrypt(
            table, ["vetro", "fuoco", "orologio", "pane"], (1, 2, 3), (), sheet, random.Random(seed)
        )
        assert hints[0].keyword == "vetro"
        assert all(not stems.related(hint.clue, "vetro", "it") for hint in hints), hints
