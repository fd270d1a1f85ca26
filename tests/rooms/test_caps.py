"""Caps per room: people (MAX_PLAYERS_PER_ROOM) and bots (MAX_BOTS_PER_ROOM), refused with a code."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client as HttpClient

from bots import seats
from rooms import services
from rooms.errors import RoomError
from rooms.models import Player

pytestmark = pytest.mark.django_db


def test_a_full_room_refuses_newcomers_but_not_its_own_players(settings: Any) -> None:
    settings.MAX_PLAYERS_PER_ROOM = 3
    for name in ("ada", "bo", "cy"):
        services.room_join(slug="cap-people", uid=f"cap-{name}", name=name)
    with pytest.raises(RoomError) as refused:
        services.room_join(slug="cap-people", uid="cap-dee", name="Dee")
    assert refused.value.code == "room_full" and refused.value.params == {"limit": 3}
    assert Player.objects.filter(room__slug="cap-people").count() == 3
    # Someone already in comes back (a second tab, a new name): still welcome.
    services.room_join(slug="cap-people", uid="cap-ada", name="Ada again")
    assert Player.objects.get(uid="cap-ada").name == "Ada again"
    # Through the join form: the room's page again, saying why, and nothing stored.
    page = HttpClient().post("/r/cap-people/join/", {"name": "Eve"})
    assert page.status_code == 400 and "This room is full (3 people)" in page.content.decode()
    assert Player.objects.filter(room__slug="cap-people").count() == 3


def test_bots_are_capped_per_room_and_do_not_count_as_people(settings: Any) -> None:
    settings.MAX_BOTS_PER_ROOM = 2
    settings.MAX_PLAYERS_PER_ROOM = 2
    services.room_join(slug="cap-bots", uid="cap-host", name="Host")
    seats.add_bot(slug="cap-bots", uid="cap-host", team="red", role="operative")
    seats.add_bot(slug="cap-bots", uid="cap-host", team="blue", role="operative")
    with pytest.raises(RoomError) as refused:
        seats.add_bot(slug="cap-bots", uid="cap-host", team="red", role="operative")
    assert refused.value.code == "too_many_bots" and refused.value.params == {"limit": 2}
    assert Player.objects.filter(room__slug="cap-bots", bot=True).count() == 2
    services.room_join(slug="cap-bots", uid="cap-guest", name="Guest")  # two people: room for one more
