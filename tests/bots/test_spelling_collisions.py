"""Issue 23, item 1: spelling collisions. The bots' matching lets two words meet only when
they are spelled alike or a lemma table verifies one inflects the other; words alike
only once folded of their accents or stripped of an ending stay apart, and the spymaster
never gives a clue that shares a lemma with a visible card.

Each language lists pairs that met before (the issue's examples, and more found by the
``bots collisions`` measure and by comparing the old endings with the lemma tables), and
real inflections that must still meet.
"""

from __future__ import annotations

import pytest

from bots import lemmas
from bots.associations import forms, parse
from bots.codenames import choose_clue

# (clue, association): two different words each time.
APART = {
    "sv": [
        ("roder", "röd"),
        ("säng", "sång"),
        ("horn", "hörn"),
        ("aska", "åska"),
        ("tråd", "träd"),
        ("bank", "bänk"),
        ("nasa", "näsa"),
        ("häl", "hål"),
        ("söt", "sot"),
        ("brunn", "brun"),
        ("flaska", "fläsk"),
        ("ratt", "rätt"),
        ("lås", "läsa"),
        ("mössa", "mossa"),
        ("gas", "gås"),
        ("lok", "lök"),
        ("arm", "ärm"),
        ("skal", "skål"),
        ("kraft", "kräfta"),
        ("vatten", "vattna"),
        ("socka", "socker"),
    ],
    "ca": [
        ("llaç", "llac"),
        ("os", "ós"),
        ("foca", "foc"),
        ("fruita", "fruit"),
        ("coll", "colla"),
        ("capa", "cap"),
        ("graó", "gra"),
        ("romà", "rom"),
        ("porta", "port"),
        ("plata", "plat"),
        ("pati", "patí"),
        ("barca", "barça"),
        ("mel", "meló"),
        ("torre", "torró"),
        ("avi", "avió"),
        ("arc", "arç"),
        ("sal", "saló"),
        ("camió", "camí"),
    ],
    "pt-br": [
        ("pelé", "pele"),
        ("sala", "sal"),
        ("missão", "missa"),
        ("gola", "gol"),
        ("prato", "prata"),
        ("sola", "sol"),
        ("porto", "porta"),
        ("bola", "bolo"),
        ("cascão", "casca"),
        ("novela", "novelo"),
        ("corda", "cordão"),
        ("ações", "aço"),
        ("pássaro", "passar"),
        ("chá", "chão"),
        ("lima", "limão"),
        ("bala", "balão"),
        ("foca", "foco"),
        ("rede", "rédea"),
        ("sela", "selo"),
        ("casa", "caso"),
    ],
    "it": [
        ("foglio", "foglie"),
        ("gola", "gol"),
        ("capello", "cappello"),
        ("tavolo", "tavola"),
        ("opera", "operai"),
        ("asso", "asse"),
        ("pedale", "pedalò"),
        ("pesci", "pesca"),
        ("pizza", "pizzo"),
        ("vela", "velo"),
        ("banca", "banco"),
        ("orca", "orco"),
        ("palma", "palmo"),
        ("colla", "collo"),
        ("arca", "arco"),
        ("polpa", "polpo"),
        ("tram", "trama"),
        ("mostra", "mostro"),
        ("papa", "papà"),
    ],
    "en": [
        ("evening", "even"),
        ("news", "new"),
        ("firing", "fir"),
        ("rating", "rat"),
        ("piping", "pip"),
        ("uniting", "unit"),
        ("moped", "mop"),
        ("clothes", "cloth"),
        ("canvass", "canvas"),
        ("cosmos", "cosmo"),
    ],
}
# (form, the word it inflects)
TOGETHER = {
    "sv": [
        ("flaskor", "flaska"),
        ("katter", "katt"),
        ("hjärtat", "hjärta"),
        ("sånger", "sång"),
        ("sängar", "säng"),
    ],
    "ca": [
        ("gats", "gat"),
        ("óssos", "ós"),
        ("ossos", "os"),
        ("fulles", "fulla"),
        ("cases", "casa"),
        ("focs", "foc"),
    ],
    "pt-br": [
        ("gatos", "gato"),
        ("missões", "missão"),
        ("balões", "balão"),
        ("peles", "pele"),
        ("limões", "limão"),
    ],
    "it": [
        ("gatti", "gatto"),
        ("capelli", "capello"),
        ("foglie", "foglia"),
        ("fogli", "foglio"),
        ("pizze", "pizza"),
    ],
    "en": [
        ("kittens", "kitten"),
        ("vampires", "vampire"),
        ("cities", "city"),
        ("wolves", "wolf"),
        ("boxes", "box"),
    ],
}


def _meets(clue: str, association: str, language: str) -> bool:
    """Whether a clue evokes a card through one association (either way round: the
    spymaster's clue is an association, the player's clue any form)."""
    table = parse(f"card\t{association}\n", language)
    return table.score(clue, ["card"])["card"] > 0


def _check(language: str) -> None:
    assert len(APART[language]) >= 8
    met = [
        (one, other)
        for one, other in APART[language]
        if _meets(one, other, language)
        or _meets(other, one, language)
        or forms(one, language) & forms(other, language)
    ]
    assert not met, met
    missed = [
        (form, word)
        for form, word in TOGETHER[language]
        if not (_meets(form, word, language) and _meets(word, form, language))
    ]
    assert not missed, missed


def test_issue23_spelling_collisions_sv() -> None:
    _check("sv")


def test_issue23_spelling_collisions_ca() -> None:
    _check("ca")


def test_issue23_spelling_collisions_pt_br() -> None:
    _check("pt-br")


def test_issue23_spelling_collisions_it() -> None:
    _check("it")


def test_issue23_spelling_collisions_en() -> None:
    _check("en")


@pytest.mark.parametrize(
    ("language", "typed", "meant"),
    [
        ("sv", "hjartat", "hjärta"),
        ("pt-br", "missoes", "missão"),
        ("ca", "canco", "cançó"),
        ("it", "citta", "città"),
    ],
)
def test_issue23_a_missing_accent_is_restored_when_only_one_word_is_meant(
    language: str, typed: str, meant: str
) -> None:
    assert meant in forms(typed, language)


def test_issue23_a_missing_accent_that_separates_two_words_is_heard_as_neither() -> None:
    # "sang" could be a bed (säng) or a song (sång): neither is heard.
    table = parse("bed\tsäng\nsong\tsång\n", "sv")
    assert table.score("sang", ["bed", "song"]) == {"bed": 0.0, "song": 0.0}


@pytest.mark.parametrize(
    ("language", "typed", "other"), [("ca", "os", "ós"), ("pt-br", "pele", "pelé"), ("it", "papa", "papà")]
)
def test_issue23_a_word_without_its_accent_is_a_word_as_typed(language: str, typed: str, other: str) -> None:
    table = parse(f"plain\t{typed}\naccented\t{other}\n", language)
    assert table.score(typed, ["plain", "accented"]) == {"plain": 1.0, "accented": 0.0}
    assert table.score(other, ["plain", "accented"]) == {"plain": 0.0, "accented": 1.0}


def test_issue23_two_pack_words_differing_by_an_accent_are_two_cards() -> None:
    # ASKA (ash) and ÅSKA (thunder) were one word: a clue for ash evoked the assassin.
    table = parse("aska\teld; rök; urna\nåska\tblixt; dunder; regn\n", "sv")
    assert table.score("eld", ["aska", "åska"]) == {"aska": 1.0, "åska": 0.0}
    assert table.score("blixt", ["aska", "åska"]) == {"aska": 0.0, "åska": 1.0}
    clue = choose_clue(table, ["aska", "åska"], {"aska": "red", "åska": "assassin"}, "red")
    assert clue.word in {"eld", "rök", "urna"} and table.score(clue.word, ["åska"])["åska"] == 0


def test_issue23_the_spymaster_never_gives_an_inflection_of_a_visible_card() -> None:
    # "capelli" is the plural of CAPELLO: a player touches CAPELLO whatever the clue meant.
    table = parse("pettine\tcapelli; spazzola; denti\ncappello\ttesta; capelli; sole\ncapello\tbarba\n", "it")
    visible = ["pettine", "cappello", "capello"]
    clue = choose_clue(table, visible, {"pettine": "red", "cappello": "red", "capello": "blue"}, "red")
    assert clue.word != "capelli"
    assert not lemmas.same_word(clue.word, "capello", "it")
    # With CAPELLO covered, "capelli" links both red cards again.
    clue = choose_clue(table, ["pettine", "cappello"], {"pettine": "red", "cappello": "red"}, "red")
    assert clue.word == "capelli" and clue.number == 2


def test_issue23_the_lemma_table_keeps_accent_neighbours_and_adds_only_unknown_plurals() -> None:
    dictionary = {"säng": "säng", "sängar": "säng", "sång": "sång", "sånger": "sång", "hund": "hund"}
    built = lemmas.build(["säng"], dictionary)
    # "sång" is no form of "säng", but spelled like it bar an accent: kept, so that a
    # typed "sang" is known to be ambiguous.
    assert built["säng"] == {"sängar"} and "sång" in built and "hund" not in built
    italian = lemmas.build(
        ["pesco", "noce"],
        {"pesci": "pesce", "pesce": "pesce"},
        plurals=lambda word: lemmas.regular_plurals(word, "it"),
    )
    # "pesci" is a known form of another word ("pesce"): never made a plural of "pesco".
    assert italian["pesco"] == {"peschi"} and italian["noce"] == {"noci"}


def test_issue23_a_swedish_compound_the_dictionary_lacks_inflects_as_its_head() -> None:
    dictionary = {"ställning": "ställning", "ställningar": "ställning", "ställningen": "ställning"}
    built = lemmas.build(["fröställning"], dictionary, compounds=True)
    assert built["fröställning"] == {"fröställningar", "fröställningen"}
    assert lemmas.build(["fröställning"], dictionary)["fröställning"] == set()
