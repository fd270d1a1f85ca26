"""CN-1, CN-2, CN-27 and CN-29 by name: the seats a standard game needs, one spymaster a
team, the room's language choosing the word pack, and house notes kept as written."""

from __future__ import annotations

import pytest

from codenames import engine, services
from rooms.errors import RoomError
from rooms.models import Player, Room


def _seat(team: str, role: str) -> Player:
    return Player(team=team, role=role, name=f"{team}-{role}")


def test_cn1_a_standard_game_needs_two_teams_of_two() -> None:
    four = [
        _seat("red", "spymaster"),
        _seat("red", "operative"),
        _seat("blue", "spymaster"),
        _seat("blue", "operative"),
    ]
    assert services.seats_ready(four) == (engine.Mode.STANDARD, True)
    # Blue has a spymaster and no operative: not a standard game, nor a variant (CN-30, CN-34).
    without_blue_operative = [*four[:2], _seat("red", "operative"), four[2], _seat("blue", "spectator")]
    mode, ready = services.seats_ready(without_blue_operative)
    assert not ready
    with pytest.raises(RoomError) as refused:
        services.check_seats([p for p in without_blue_operative if p.is_seated], engine.Mode.STANDARD)
    assert refused.value.code == "seats_incomplete"


def test_cn2_each_team_has_exactly_one_spymaster() -> None:
    two_red_spymasters = [
        _seat("red", "spymaster"),
        _seat("red", "spymaster"),
        _seat("red", "operative"),
        _seat("blue", "spymaster"),
        _seat("blue", "operative"),
    ]
    with pytest.raises(RoomError) as refused:
        services.check_seats(two_red_spymasters, engine.Mode.STANDARD)
    assert refused.value.code == "seats_incomplete"
    # Everyone else seated is an operative; people without a seat are spectators.
    assert not _seat("", Player.SPECTATOR).is_seated


@pytest.mark.parametrize("language", ["en", "it", "ca", "pt-br", "sv"])
def test_cn27_the_rooms_language_chooses_the_word_pack(language: str) -> None:
    pack = services.load_pack(services.WORDS_DIR, language)
    english = set(services.load_pack(services.WORDS_DIR, "en"))
    assert len(pack) >= services.BOARD_SIZE
    assert len(set(pack)) == len(pack)
    if language != "en":
        # The language's own words, not the English pack: few words are spelled alike.
        assert len(set(pack) & english) < len(pack) * 0.1


def test_cn29_house_notes_are_kept_as_agreed_with_line_breaks() -> None:
    room = Room(slug="notes", game="codenames", settings={})
    services.set_house_rules(room, {"notes": "Acronyms OK\nno rhymes\x07 "})
    assert room.settings["codenames"]["notes"] == "Acronyms OK\nno rhymes"
    with pytest.raises(RoomError) as refused:
        services.set_house_rules(room, {"notes": "x" * (services.NOTES_MAX + 1)})
    assert refused.value.code == "bad_rules"
    assert room.settings["codenames"]["notes"] == "Acronyms OK\nno rhymes"
