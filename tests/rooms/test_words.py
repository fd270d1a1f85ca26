"""Word packs and a room's own words."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from codenames.models import CodenamesGame
from rooms.errors import RoomError
from rooms.models import Room
from rooms.services import room_join, room_set_language, room_set_words, room_sit
from rooms.words import PACK_LANGUAGES, fresh_words, parse_own_words, parse_words
from tests.codenames.test_concurrency import _act

ROOT = Path(__file__).resolve().parents[2]


def _entries(path: Path) -> list[str]:
    return [
        line.strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


@pytest.mark.parametrize("language", PACK_LANGUAGES)
@pytest.mark.parametrize(("game", "minimum"), [("codenames", 400), ("decrypto", 440)])
def test_pack_is_large_distinct_and_normalised(game: str, minimum: int, language: str) -> None:
    entries = _entries(ROOT / game / "words" / f"{language}.txt")
    folded = {unicodedata.normalize("NFC", e).casefold() for e in entries}
    assert len(folded) == len(entries), "duplicates after NFC and case folding"
    assert len(entries) >= minimum
    assert all(unicodedata.is_normalized("NFC", e) for e in entries)
    assert all(e == e.strip() and "  " not in e for e in entries)


@pytest.mark.parametrize("language", PACK_LANGUAGES)
def test_codenames_words_have_no_whitespace(language: str) -> None:
    entries = _entries(ROOT / "codenames" / "words" / f"{language}.txt")
    assert not [e for e in entries if any(ch.isspace() for ch in e)]


def test_parse_words_keeps_first_spelling_and_skips_comments() -> None:
    assert parse_words("# header\nBank\n\nbank\nZoe\u0301\n  river  \n") == ["Bank", "Zoé", "river"]


def test_fresh_words_avoid_recent_games_until_the_pack_runs_out() -> None:
    pack = tuple(f"w{i}" for i in range(60))
    first = [f"w{i}" for i in range(25)]
    second = [f"w{i}" for i in range(25, 50)]
    assert set(fresh_words(pack, [first], 25)) == set(pack) - set(first)
    # Only 10 words are left after two games: the older game stops counting.
    assert set(fresh_words(pack, [second, first], 25)) == set(pack) - set(second)


def test_own_words_are_checked() -> None:
    assert parse_own_words("sun, moon;star\nsun", max_length=20, spaces=False) == ["sun", "moon", "star"]
    for text in ["new york", "x" * 21, "ok\u200bok", "-".join(["a", "b"])]:
        with pytest.raises(ValueError):
            parse_own_words(text, max_length=20, spaces=False)
    with pytest.raises(ValueError):
        parse_own_words("\n".join(f"w{i}" for i in range(501)), max_length=20, spaces=False)
    assert parse_own_words("new york", max_length=30, spaces=True) == ["new york"]


@pytest.mark.django_db(transaction=True)
def test_room_own_words_are_stored_and_dealt() -> None:
    for name, team, role in [("a", "red", "spymaster"), ("b", "red", "operative"),
                             ("c", "blue", "spymaster"), ("d", "blue", "operative")]:  # fmt: skip
        room_join(slug="own-words", uid=f"own-words-{name}", name=name)
        room_sit(slug="own-words", uid=f"own-words-{name}", team=team, role=role)
    with pytest.raises(RoomError) as error:
        room_set_words(slug="own-words", uid="own-words-a", game="codenames", mode="own", text="one\ntwo")
    assert error.value.code == "too_few_words"
    own = [f"mot{i}" for i in range(30)]
    room_set_words(slug="own-words", uid="own-words-a", game="codenames", mode="own", text="\n".join(own))
    assert Room.objects.get(slug="own-words").settings["words"]["codenames"]["list"] == own
    _act("own-words", "a", {"action": "start_game"})
    dealt = CodenamesGame.objects.get(room__slug="own-words").state["words"]
    assert set(dealt) <= set(own)


@pytest.mark.django_db(transaction=True)
def test_word_language_is_a_room_setting() -> None:
    for name, team, role in [("a", "red", "spymaster"), ("b", "red", "operative")]:
        room_join(slug="lingua", uid=f"lingua-{name}", name=name, language="en")
        room_sit(slug="lingua", uid=f"lingua-{name}", team=team, role=role)
    with pytest.raises(RoomError):
        room_set_language(slug="lingua", uid="lingua-a", language="xx")
    room_set_language(slug="lingua", uid="lingua-a", language="it")
    _act("lingua", "a", {"action": "start_game"})
    italian = set(_entries(ROOT / "codenames" / "words" / "it.txt"))
    assert set(CodenamesGame.objects.get(room__slug="lingua").state["words"]) <= italian


@pytest.mark.django_db
def test_room_language_defaults_to_the_creators_interface(client) -> None:  # type: ignore[no-untyped-def]
    client.post("/r/da-capo/join/", {"name": "Ada"}, HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9")
    assert Room.objects.get(slug="da-capo").language == "it"


@pytest.mark.django_db(transaction=True)
def test_own_words_never_go_back_to_browsers_and_an_empty_box_keeps_them() -> None:
    from rooms.state import room_state

    room_join(slug="own-secret", uid="own-secret-a", name="a", game="decrypto")
    own = ["zebulon", "quixotic", "marmalade", "fjord", "kumquat", "yodel", "bivouac", "wyvern"]
    room_set_words(slug="own-secret", uid="own-secret-a", game="decrypto", mode="own", text="\n".join(own))
    state = room_state(slug="own-secret", uid="own-secret-a")
    assert state["settings"]["words"] == {"decrypto": {"mode": "own", "count": 8}}
    assert not [w for w in own if w in json.dumps(state)]
    room_set_words(slug="own-secret", uid="own-secret-a", game="decrypto", mode="mixed", text="  ")
    saved = Room.objects.get(slug="own-secret").settings["words"]["decrypto"]
    assert saved == {"mode": "mixed", "list": own}
