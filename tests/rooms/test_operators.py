"""The operators' tools: the admin, closing a room or removing a player live, retention."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import Client as HttpClient
from django.utils import timezone

from rooms import operators, services
from rooms.models import Player, Room
from tests.conftest import joined_client


def _operator() -> HttpClient:
    User.objects.create_superuser("op", "op@example.org", "a-long-operator-password")
    client = HttpClient()
    client.login(username="op", password="a-long-operator-password")
    return client


@pytest.mark.django_db
def test_the_admin_lists_rooms_players_and_games_without_secrets() -> None:
    services.room_join(slug="admin-list", uid="admin-list-ada", name="Ada")
    services.room_device_link(slug="admin-list", uid="admin-list-ada", regenerate=False)
    token = Player.objects.get(name="Ada").device_token
    operator = _operator()
    for path in ("/admin/rooms/room/", "/admin/rooms/player/", "/admin/codenames/codenamesgame/",
                 "/admin/decrypto/decryptogame/", "/admin/rooms/room/?q=admin-list"):  # fmt: skip
        response = operator.get(path)
        assert response.status_code == 200, path
    assert "admin-list" in operator.get("/admin/rooms/room/?q=ada").content.decode()
    player = Player.objects.get(name="Ada")
    page = operator.get(f"/admin/rooms/player/{player.pk}/change/").content.decode()
    assert "Ada" in page and "admin-list-ada" not in page and token not in page
    assert HttpClient().get("/admin/rooms/room/").status_code == 302  # players are not operators


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_closing_a_room_tells_and_closes_its_sockets(channel_layer: str) -> None:
    ada = await joined_client("admin-close", "Ada")
    operator = await sync_to_async(_operator)()
    response = await sync_to_async(operator.post)(
        "/admin/rooms/room/",
        {"action": "close_rooms", "_selected_action": [await _room_pk("admin-close")]},
    )
    assert response.status_code == 302
    error = await ada.receive_type("error")
    assert error["code"] == "room_closed"
    assert (await ada.comm.receive_output(timeout=5))["code"] == 4410
    assert not await sync_to_async(Room.objects.filter(slug="admin-close").exists)()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_removing_a_player_closes_their_socket_and_updates_the_room(channel_layer: str) -> None:
    ada = await joined_client("admin-remove", "Ada")
    bob = await joined_client("admin-remove", "Bob")
    await ada.eventually(lambda s: len(s["players"]) == 2)
    pk = await sync_to_async(lambda: Player.objects.get(room__slug="admin-remove", name="Bob").pk)()
    operator = await sync_to_async(_operator)()
    await sync_to_async(operator.post)(
        "/admin/rooms/player/", {"action": "remove_players", "_selected_action": [pk]}
    )
    assert (await bob.receive_type("error"))["code"] == "removed"
    assert (await bob.comm.receive_output(timeout=5))["code"] == 4403
    seen = await ada.eventually(lambda s: [p["name"] for p in s["players"]] == ["Ada"])
    assert seen["you"]["name"] == "Ada"
    await ada.close()


@pytest.mark.django_db
def test_retention_deletes_idle_rooms_only() -> None:
    for slug in ("old-empty", "old-but-here", "recent"):
        services.room_join(slug=slug, uid=f"{slug}-ada", name="Ada")
    long_ago = timezone.now() - timedelta(days=40)
    Room.objects.filter(slug__in=["old-empty", "old-but-here"]).update(updated_at=long_ago)
    Player.objects.filter(room__slug="old-but-here").update(connections=1, last_seen=timezone.now())
    assert operators.purge_rooms(days=30) == 1
    assert sorted(Room.objects.values_list("slug", flat=True)) == ["old-but-here", "recent"]


async def _room_pk(slug: str) -> Any:
    return await sync_to_async(lambda: Room.objects.get(slug=slug).pk)()
