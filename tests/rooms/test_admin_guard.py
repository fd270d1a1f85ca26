"""The operators' admin: no filter reveals a secret, sign-in is throttled, and closing rooms
while their players move neither fails nor leaves a room behind."""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from django.test import Client as HttpClient

from codenames.models import CodenamesGame
from rooms import limits, services
from rooms.models import Player, Room
from tests.codenames.test_concurrency import _act, _state, _table


def _operator(ip: str = "127.0.0.1") -> HttpClient:
    if not User.objects.filter(username="op").exists():
        User.objects.create_superuser("op", "op@example.org", "a-long-operator-password")
    client = HttpClient(REMOTE_ADDR=ip)
    client.login(username="op", password="a-long-operator-password")
    return client


SECRET_FILTERS = [
    "/admin/rooms/player/?device_token__regex=^[A-Z]",
    "/admin/rooms/player/?device_token__regex=^[^A-Z]",
    "/admin/rooms/player/?device_token__isnull=False",
    "/admin/rooms/player/?uid__startswith=admin",
    "/admin/rooms/player/?uid=admin-guard-ada",
    "/admin/rooms/room/?players__uid__startswith=a",
    "/admin/rooms/room/?players__device_token__gt=A",
    "/admin/codenames/codenamesgame/?state__key__0=assassin",
    "/admin/codenames/codenamesgame/?state__key__0=red",
    "/admin/codenames/codenamesgame/?seed__startswith=1",
    "/admin/codenames/codenamesgame/?seed__gt=5",
    "/admin/decrypto/decryptogame/?state__contains=a",
]


@pytest.mark.django_db
def test_changelist_filters_on_secret_fields_are_refused_whatever_they_match() -> None:
    _table("admin-guard")
    _act("admin-guard", "rosa", {"action": "start_game"})
    services.room_device_link(slug="admin-guard", uid="admin-guard-rosa", regenerate=False)
    assert Player.objects.filter(device_token__isnull=False).exists() and CodenamesGame.objects.exists()
    operator = _operator()
    for path in SECRET_FILTERS:
        response = operator.get(path)
        # The same answer whether the guess is right or wrong: no yes/no to read.
        assert response.status_code == 400, path
        assert b"admin-guard" not in response.content, path
    # The changelists' own filters still work.
    own_filters = [
        "/admin/rooms/room/?game__exact=codenames",
        "/admin/rooms/player/?role__exact=spymaster",
        "/admin/codenames/codenamesgame/?finished__exact=0",
        "/admin/rooms/room/?q=admin-guard",
    ]
    for path in own_filters:
        response = operator.get(path)
        assert response.status_code == 200, path
        assert b"admin-guard" in response.content, path


@pytest.mark.django_db
def test_admin_sign_in_is_throttled_per_address(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = True
    settings.RATE_LIMITS_STORAGE = "memory://"
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "admin_logins_per_ip": "10/minute"}
    limits._limiter = None
    User.objects.create_superuser("op", "op@example.org", "a-long-operator-password")
    # A fresh address each run (the counts may live in a shared Redis).
    ip = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
    guesser = HttpClient(REMOTE_ADDR=ip)
    answers = [
        guesser.post("/admin/login/", {"username": "op", "password": f"guess-{i}"}).status_code
        for i in range(12)
    ]
    assert answers[:10] == [200] * 10 and answers[10:] == [429, 429], answers
    # Even the right password waits now: the address is out of tries for the minute.
    right = {"username": "op", "password": "a-long-operator-password"}
    assert guesser.post("/admin/login/", right).status_code == 429
    # Another address signs in as usual.
    assert HttpClient(REMOTE_ADDR="10.255.0.1").post("/admin/login/", right).status_code == 302
    limits._limiter = None


@pytest.mark.django_db(transaction=True)
def test_closing_rooms_while_their_players_move_fails_nothing_and_leaves_nothing() -> None:
    slugs = [f"close-race-{i}" for i in range(6)]
    for slug in slugs:
        _table(slug)
        _act(slug, "rosa", {"action": "start_game"})
        state = _state(slug)
        spymaster = "rosa" if state["team"] == "red" else "bea"
        _act(slug, spymaster, {"action": "give_clue", "turn": state["turn"], "word": "qzx", "number": 2})
    turns = {slug: _state(slug) for slug in slugs}
    operator = _operator()
    pks = list(Room.objects.filter(slug__in=slugs).values_list("pk", flat=True))
    errors: list[str] = []
    moves = [0]
    start = threading.Barrier(len(slugs) + 1)

    def play(slug: str) -> None:
        state = turns[slug]
        operative = "rui" if state["team"] == "red" else "bo"
        try:
            start.wait()
            for i in range(200):
                message = {"action": "propose", "turn": state["turn"], "position": i % 2}
                try:
                    _act(slug, operative, message)
                    moves[0] += 1
                except services.RoomError as error:
                    if error.code == "no_room":
                        return  # closed: the answer a player's move gets then
                    errors.append(error.code)
                except Player.DoesNotExist:
                    return
        except Exception as error:  # a deadlock, a 500 on the way: counted
            errors.append(repr(error))
        finally:
            connections.close_all()

    def close() -> None:
        try:
            start.wait()
            while moves[0] < 5 * len(slugs) and not errors:  # the players are in full swing
                time.sleep(0.01)
            response = operator.post("/admin/rooms/room/", {"action": "close_rooms", "_selected_action": pks})
            if response.status_code != 302:
                errors.append(f"close answered {response.status_code}")
        except Exception as error:
            errors.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=play, args=(slug,)) for slug in slugs]
    threads.append(threading.Thread(target=close))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    print(f"\nclosed {len(slugs)} rooms during {moves[0]} moves: errors {errors}")
    assert errors == []
    assert not Room.objects.filter(slug__in=slugs).exists()
    assert not Player.objects.filter(room_id__in=pks).exists()
    assert not CodenamesGame.objects.filter(room_id__in=pks).exists()


@pytest.mark.django_db
def test_operators_read_and_delete_lines_in_the_admin() -> None:
    from rooms import chat
    from rooms.models import ChatMessage
    from rooms.services import room_join

    room_join(slug="chat-admin", uid="chat-admin-ada", name="Ada")
    said = chat.chat_say(slug="chat-admin", uid="chat-admin-ada", channel="room", text="zqadmin line")
    operator = _operator()
    page = operator.get("/admin/rooms/chatmessage/?q=chat-admin")
    assert page.status_code == 200 and b"zqadmin line" in page.content
    assert operator.get("/admin/rooms/chatmessage/?author_public_id__startswith=a").status_code == 400
    deleted = operator.post(
        "/admin/rooms/chatmessage/",
        {"action": "delete_selected", "_selected_action": [said["line"]["id"]], "post": "yes"},
    )
    assert deleted.status_code == 302
    assert not ChatMessage.objects.exists()
    assert chat.chat_history(slug="chat-admin", uid="chat-admin-ada") == []


@pytest.mark.django_db
def test_a_running_games_secrets_and_team_lines_stay_hidden_and_nothing_is_editable() -> None:
    from rooms import chat
    from rooms.models import ChatMessage

    slug = "admin-hides"
    _table(slug)
    _act(slug, "rosa", {"action": "start_game"})
    CodenamesGame.objects.filter(room__slug=slug).update(bot_notes={"0": "ZQSAND 3 → coast, crab, reef"})
    record = CodenamesGame.objects.get(room__slug=slug)
    assassin = record.state["words"][record.state["key"].index("assassin")]
    whisper = chat.chat_say(slug=slug, uid=f"{slug}-rui", channel="team", text="zqwhisper on coast")
    chat.chat_say(slug=slug, uid=f"{slug}-rui", channel="room", text="zqroom hello")
    operator = _operator()

    page = operator.get(f"/admin/codenames/codenamesgame/{record.pk}/change/")
    assert page.status_code == 200
    assert b"(hidden until the game is over)" in page.content
    assert b"ZQSAND" not in page.content and b'"assassin"' not in page.content
    assert b'name="steps"' not in page.content and b'name="_save"' not in page.content
    # No change form saves: the record is the engine's.
    steps = record.steps
    saved = operator.post(
        f"/admin/codenames/codenamesgame/{record.pk}/change/", {"steps": 0, "finished": "on"}
    )
    assert saved.status_code == 403
    record.refresh_from_db()
    assert record.steps == steps and not record.finished

    # A team line of the running game: listed without its text, and its text finds nothing.
    listed = operator.get(f"/admin/rooms/chatmessage/?q={slug}")
    assert b"zqroom hello" in listed.content and b"zqwhisper" not in listed.content
    assert listed.content.count(b"(hidden until the game is over)") == 1
    for guess in ("zqwhisper", "zqwhisper on coast", f'"zqwhisper on" {slug}'):
        found = operator.get("/admin/rooms/chatmessage/", {"q": guess})
        assert found.status_code == 200 and b"0 chat messages" in found.content, guess
    line = operator.get(f"/admin/rooms/chatmessage/{whisper['line']['id']}/change/")
    assert line.status_code == 200 and b"zqwhisper" not in line.content
    assert operator.get("/admin/rooms/chatmessage/?text__startswith=zq").status_code == 400
    assert ChatMessage.objects.filter(text__startswith="zqwhisper").exists()

    # A new game closes this one: its notes, state and team lines are shown from then on.
    _act(slug, "rosa", {"action": "start_game", "confirm": True})
    assert CodenamesGame.objects.filter(room__slug=slug, finished=True).count() == 1
    page = operator.get(f"/admin/codenames/codenamesgame/{record.pk}/change/")
    assert b"ZQSAND 3" in page.content and b"assassin" in page.content and assassin.encode() in page.content
    found = operator.get("/admin/rooms/chatmessage/", {"q": "zqwhisper"})
    assert b"zqwhisper on coast" in found.content and b"1 chat message" in found.content
    # A line of the new game is hidden again.
    chat.chat_say(slug=slug, uid=f"{slug}-rui", channel="team", text="zqsecond whisper")
    found = operator.get("/admin/rooms/chatmessage/", {"q": "zqsecond"})
    assert b"0 chat messages" in found.content
