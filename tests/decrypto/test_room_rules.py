"""Decrypto's room settings: the Encryptor timer (DC-8) and a room's own keywords."""

from __future__ import annotations

import pytest

from decrypto.models import DecryptoGame
from rooms import changes
from rooms.errors import RoomError
from rooms.models import Room
from rooms.services import room_join, room_set_words, room_sit

pytestmark = pytest.mark.django_db(transaction=True)


def _table(slug: str) -> None:
    for name, team in [("wa", "white"), ("wb", "white"), ("ba", "black"), ("bb", "black")]:
        room_join(slug=slug, uid=f"{slug}-{name}", name=name, game="decrypto")
        room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role="player")


def _act(slug: str, name: str, message: dict) -> None:
    from decrypto.game import GAME

    with changes.locked_room(slug) as room:
        GAME.act(room, room.players.get(name=name), message)


def test_dc8_timer_setting_applies_to_the_next_deal() -> None:
    _table("dc-timer")
    _act("dc-timer", "wa", {"action": "house_rules", "timer": True, "timer_seconds": 45})
    _act("dc-timer", "wa", {"action": "start_game"})
    assert DecryptoGame.objects.get(room__slug="dc-timer").state["rules"]["timer_seconds"] == 45
    _act("dc-timer", "wa", {"action": "house_rules", "timer": False})
    assert Room.objects.get(slug="dc-timer").settings["decrypto"]["timer_seconds"] is None


@pytest.mark.parametrize(
    "options", [{"timer_seconds": 14}, {"timer_seconds": 121}, {"timer": 1}, {"speed": 2}]
)
def test_dc8_bad_timer_settings_are_refused(options: dict) -> None:
    _table("dc-timer-bad")
    with pytest.raises(RoomError) as error:
        _act("dc-timer-bad", "wa", {"action": "house_rules", **options})
    assert error.value.code == "bad_rules"
    assert Room.objects.get(slug="dc-timer-bad").settings == {}


def test_dc2_own_keywords_are_dealt_and_never_on_both_screens() -> None:
    _table("dc-own")
    own = [
        "the old oak",
        "grandma's kitchen",
        "lighthouse",
        "jazz",
        "comet",
        "bicycle",
        "harbor",
        "kite",
        "ferry",
    ]
    room_set_words(slug="dc-own", uid="dc-own-wa", game="decrypto", mode="own", text="\n".join(own))
    _act("dc-own", "wa", {"action": "start_game"})
    teams = DecryptoGame.objects.get(room__slug="dc-own").state["teams"]
    white, black = teams["white"]["keywords"], teams["black"]["keywords"]
    assert set(white) | set(black) <= set(own)
    assert not set(white) & set(black)
