"""Seat rules, shuffling and names, straight through the services."""

import random

import pytest

from rooms.errors import RoomError
from rooms.models import Player, Room
from rooms.services import clean_name, room_join, room_set_game, room_shuffle, room_sit

pytestmark = pytest.mark.django_db(transaction=True)


def _room_with(names: list[str], game: str = "codenames") -> list[str]:
    uids = []
    for name in names:
        uid = f"uid-{name}"
        room_join(slug="seats", uid=uid, name=name, game=game)
        uids.append(uid)
    return uids


def test_one_spymaster_per_team() -> None:
    ada, bob = _room_with(["ada", "bob"])
    room_sit(slug="seats", uid=ada, team="red", role="spymaster")
    with pytest.raises(RoomError) as error:
        room_sit(slug="seats", uid=bob, team="red", role="spymaster")
    assert error.value.code == "seat_taken"
    room_sit(slug="seats", uid=bob, team="blue", role="spymaster")
    assert Player.objects.get(uid=bob).team == "blue"


def test_seat_must_exist_in_the_rooms_game() -> None:
    (ada,) = _room_with(["ada"])
    for team, role in [("white", "player"), ("red", "encryptor"), ("", "operative"), (None, None)]:
        with pytest.raises(RoomError) as error:
            room_sit(slug="seats", uid=ada, team=team, role=role)
        assert error.value.code == "bad_seat"
    assert Player.objects.get(uid=ada).role == "spectator"


def test_seat_change_bumps_the_version() -> None:
    (ada,) = _room_with(["ada"])
    before = Room.objects.get().version
    room_sit(slug="seats", uid=ada, team="red", role="operative")
    assert Room.objects.get().version == before + 1


def test_not_joined_cannot_sit() -> None:
    _room_with(["ada"])
    with pytest.raises(RoomError) as error:
        room_sit(slug="seats", uid="stranger", team="red", role="operative")
    assert error.value.code == "not_joined"


def test_shuffle_deals_balanced_teams_with_one_spymaster_each() -> None:
    uids = _room_with(["a", "b", "c", "d", "e"])
    for uid in uids:
        room_sit(slug="seats", uid=uid, team="red", role="operative")
    spectator = _room_with(["watcher"])[0]
    room_shuffle(slug="seats", uid=uids[0], rng=random.Random(3))
    seated = Player.objects.exclude(uid=spectator)
    red = [p for p in seated if p.team == "red"]
    blue = [p for p in seated if p.team == "blue"]
    assert sorted([len(red), len(blue)]) == [2, 3]
    assert [p.role for p in red].count("spymaster") == 1
    assert [p.role for p in blue].count("spymaster") == 1
    assert Player.objects.get(uid=spectator).role == "spectator"


def test_switching_game_maps_seats_by_team_order() -> None:
    ada, bob = _room_with(["ada", "bob"])
    room_sit(slug="seats", uid=ada, team="red", role="spymaster")
    room_sit(slug="seats", uid=bob, team="blue", role="operative")
    room_set_game(slug="seats", uid=ada, game="decrypto")
    seats = {p.name: (p.team, p.role) for p in Player.objects.all()}
    assert seats == {"ada": ("white", "player"), "bob": ("black", "player")}
    assert Room.objects.get().game == "decrypto"


def test_unknown_game_is_refused() -> None:
    (ada,) = _room_with(["ada"])
    with pytest.raises(RoomError):
        room_set_game(slug="seats", uid=ada, game="chess")


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("Zoe\u0301", "Zoé"),
        ("a\u200bb", "ab"),
        ("👩\u200d💻", "👩\u200d💻"),
    ],
)
def test_clean_name(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw", ["", " \t", "\u202e", "x" * 25, 7, None])
def test_clean_name_refuses(raw: object) -> None:
    with pytest.raises(RoomError):
        clean_name(raw)


def _arrive(uid: str) -> None:
    """The player's page is open (a socket counted), as presence_open records it."""
    from rooms import beat
    from rooms.presence import Process, presence_open

    process = Process()
    presence_open(slug="seats", uid=uid, device_token=None, process=process)
    beat.BEATER.processes.discard(process)  # no thread beats for it after this test


def test_join_takes_the_chosen_team_in_one_step() -> None:
    room_join(slug="seats", uid="uid-ada", name="ada", game="codenames", seat="blue")
    room_join(slug="seats", uid="uid-bob", name="bob", seat="watch")
    room_join(slug="seats", uid="uid-cy", name="cy", seat="purple")
    seats = {p.name: (p.team, p.role, p.watching) for p in Player.objects.all()}
    assert seats == {
        "ada": ("blue", "operative", False),
        "bob": ("", "spectator", True),
        "cy": ("", "spectator", False),
    }


def test_join_with_a_team_keeps_an_existing_seat() -> None:
    room_join(slug="seats", uid="uid-ada", name="ada", seat="red")
    room_sit(slug="seats", uid="uid-ada", team="red", role="spymaster")
    room_join(slug="seats", uid="uid-ada", name="ada", seat="blue")  # the form sent again
    assert (Player.objects.get().team, Player.objects.get().role) == ("red", "spymaster")


def test_shuffle_deals_a_fresh_group_nobody_seated_yet() -> None:
    uids = _room_with(["a", "b", "c", "d"])
    watcher = _room_with(["watcher"])[0]
    room_sit(slug="seats", uid=watcher, team="", role="spectator")
    away = _room_with(["away"])[0]  # joined, then closed the page: not present
    for uid in [*uids, watcher]:
        _arrive(uid)
    room_shuffle(slug="seats", uid=uids[0], rng=random.Random(1))
    players = {p.uid: p for p in Player.objects.all()}
    dealt = [players[uid] for uid in uids]
    assert sorted(p.team for p in dealt) == ["blue", "blue", "red", "red"]
    assert sorted(p.role for p in dealt) == ["operative", "operative", "spymaster", "spymaster"]
    assert (players[watcher].role, players[watcher].watching) == ("spectator", True)
    assert players[away].role == "spectator"


def test_shuffle_refuses_when_everyone_chose_to_watch() -> None:
    ada, bob = _room_with(["ada", "bob"])
    for uid in (ada, bob):
        _arrive(uid)
        room_sit(slug="seats", uid=uid, team="", role="spectator")
    with pytest.raises(RoomError) as error:
        room_shuffle(slug="seats", uid=ada)
    assert error.value.code == "too_few_players"
    assert not Player.objects.exclude(role="spectator").exists()


def test_taking_a_seat_ends_watching() -> None:
    (ada,) = _room_with(["ada"])
    room_sit(slug="seats", uid=ada, team="", role="spectator")
    assert Player.objects.get().watching
    room_sit(slug="seats", uid=ada, team="red", role="operative")
    assert not Player.objects.get().watching
