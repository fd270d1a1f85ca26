"""The room pages over HTTP: creation by URL, joining, and that GET writes nothing."""

import json
import re
from typing import Any

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from rooms.models import Player, Room

pytestmark = pytest.mark.django_db


def test_home_page_offers_both_games(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'value="codenames"' in body and 'value="decrypto"' in body


def test_new_room_gets_a_memorable_slug_for_the_chosen_game(client: Client) -> None:
    response = client.get("/new/", {"game": "decrypto"})
    assert response.status_code == 302
    assert re.fullmatch(r"/r/[a-z]+-[a-z]+-\d{2}/\?game=decrypto", response["Location"])


def test_typed_room_name_is_normalised(client: Client) -> None:
    assert client.get("/go/", {"name": "  Game Night "})["Location"] == "/r/game-night/"
    assert client.get("/go/", {"name": "x"})["Location"] == "/?error=1"


def test_room_page_opens_for_any_valid_slug_and_writes_nothing(client: Client) -> None:
    response = client.get("/r/friday-fun/")
    assert response.status_code == 200
    assert b'id="join-name"' in response.content
    assert Room.objects.count() == 0
    assert Session.objects.count() == 0
    assert response["Cache-Control"] == "no-store"


def test_capitals_redirect_to_the_lowercase_room(client: Client) -> None:
    response = client.get("/r/Friday-Fun/")
    assert response.status_code == 301
    assert response["Location"] == "/r/friday-fun/"


@pytest.mark.parametrize("slug", ["ab", "a" * 41, "no_underscores", "sp%20ace", "ünï"])
def test_invalid_slug_gets_a_friendly_404(client: Client, slug: str) -> None:
    response = client.get(f"/r/{slug}/")
    assert response.status_code == 404
    assert "Back to the start" in response.content.decode()


def test_join_stores_the_room_and_the_player(client: Client) -> None:
    response = client.post("/r/friday-fun/join/", {"name": "  Ada  ", "game": "decrypto"})
    assert response.status_code == 302
    room = Room.objects.get(slug="friday-fun")
    assert room.game == "decrypto"
    player = Player.objects.get(room=room)
    assert player.name == "Ada"
    assert player.role == "spectator"
    page = client.get("/r/friday-fun/").content.decode()
    assert 'id="join-name"' not in page
    assert 'id="rename-input"' in page


def test_join_requires_csrf_token() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/r/friday-fun/join/", {"name": "Ada"})
    assert response.status_code == 403
    assert Room.objects.count() == 0


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "\u202e\u200b"])
def test_join_rejects_bad_names_and_stores_nothing(client: Client, name: str) -> None:
    response = client.post("/r/friday-fun/join/", {"name": name})
    assert response.status_code == 400
    assert Room.objects.count() == 0


def test_names_are_escaped_in_the_page(client: Client) -> None:
    client.post("/r/friday-fun/join/", {"name": "<b>bold</b>"})
    body = client.get("/r/friday-fun/").content.decode()
    assert "<b>bold</b>" not in body
    assert "\\u003Cb\\u003Ebold" in body  # json_script escapes it for the page's state


def test_coming_back_restores_the_seat(client: Client) -> None:
    client.post("/r/friday-fun/join/", {"name": "Ada"})
    Player.objects.filter(name="Ada").update(team="red", role="spymaster")
    client.post("/r/friday-fun/join/", {"name": "Ada L"})
    player = Player.objects.get()
    assert (player.name, player.team, player.role) == ("Ada L", "red", "spymaster")


def test_session_remembers_the_name_for_the_next_room(client: Client) -> None:
    client.post("/r/friday-fun/join/", {"name": "Ada"})
    body = client.get("/r/another-room/").content.decode()
    assert 'value="Ada"' in body


def test_room_page_has_a_share_link_and_server_rendered_qr(client: Client) -> None:
    body = client.get("/r/friday-fun/").content.decode()
    assert 'value="http://testserver/r/friday-fun/"' in body
    assert "<svg" in body and "QR code" in body


def test_table_view_is_the_game_without_the_lobby(client: Client) -> None:
    client.post("/r/friday-fun/join/", {"name": "Ada"})
    body = Client().get("/r/friday-fun/table/").content.decode()
    assert "table-view" in body and 'data-table="1"' in body
    assert 'id="lobby"' not in body and 'id="join-name"' not in body
    assert 'id="play"' in body


def test_table_view_from_a_players_browser_is_a_visitors(client: Client) -> None:
    """The host opens the table view from their own browser: the page is not theirs."""
    client.post("/r/friday-fun/join/", {"name": "Ada"})
    assert 'href="/r/friday-fun/table/"' in client.get("/r/friday-fun/").content.decode()
    response = client.get("/r/friday-fun/?table=1")
    assert response.status_code == 302 and response["Location"] == "/r/friday-fun/table/"
    body = client.get("/r/friday-fun/table/").content.decode()
    state = json.loads(
        re.search(r'<script id="room-state" type="application/json">(.*?)</script>', body, re.S)[1]
    )
    assert state["you"] is None
    assert [p["name"] for p in state["players"]] == ["Ada"]
    assert 'value="Ada"' not in body  # not even the name the session remembers


def test_table_view_of_a_bad_room_is_not_found(client: Client) -> None:
    assert client.get("/r/Bad Slug!/table/").status_code == 404


def test_pages_forbid_inline_scripts_and_foreign_sources(client: Client) -> None:
    response = client.get("/r/friday-fun/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy
    assert "unsafe-inline" not in policy
    body = response.content.decode()
    assert " onchange=" not in body and " onclick=" not in body


@pytest.mark.parametrize("path", ["/r/Bad Slug!/", "/nowhere/", "/r/ab/"])
def test_debug_still_shows_the_players_404_page(client: Client, settings: Any, path: str) -> None:
    """`make run` runs with DEBUG on: a mistyped room must not show Django's technical page."""
    settings.DEBUG = True
    response = client.get(path)
    assert response.status_code == 404
    body = response.content.decode()
    assert "Back to the start" in body and "URLconf" not in body and "technical" not in body.lower()


@pytest.mark.django_db
def test_a_huge_join_form_is_refused_and_stores_nothing(client: Client) -> None:
    response = client.post("/r/huge-form/join/", {"name": "Ada", "padding": "x" * 1_000_000})
    assert response.status_code == 400
    assert not Room.objects.filter(slug="huge-form").exists()


@pytest.mark.django_db(transaction=True)
def test_one_browser_joining_four_times_at_once_is_one_player() -> None:
    """The same form sent four times at once (a double-tapping browser) makes one player."""
    import threading

    barrier = threading.Barrier(4)
    statuses: list[int] = []

    def join() -> None:
        browser = Client()
        browser.cookies["csrftoken"] = "c" * 32  # the one cookie the room page gave it
        barrier.wait()
        statuses.append(browser.post("/r/double-tap/join/", {"name": "Ada"}).status_code)

    threads = [threading.Thread(target=join) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert statuses == [302] * 4
    assert Player.objects.filter(room__slug="double-tap").count() == 1


def test_join_form_offers_each_team_and_watching(client: Client) -> None:
    body = client.get("/r/friday-fun/?game=decrypto").content.decode()
    for seat in ("white", "black", "watch"):
        assert f'name="seat" value="{seat}"' in body
    client.post("/r/friday-fun/join/", {"name": "Ada", "game": "decrypto", "seat": "black"})
    player = Player.objects.get()
    assert (player.team, player.role) == ("black", "player")


SECTIONS = {
    "codenames": ["standard", "coop", "three", "on-screen"],
    "decrypto": ["standard", "tiebreak", "interceptor", "on-screen"],
}


@pytest.mark.parametrize("language", ["en", "it", "pt-br", "ca", "sv"])
@pytest.mark.parametrize("game", ["codenames", "decrypto"])
def test_how_to_play_exists_for_every_game_variant_and_language(
    client: Client, game: str, language: str
) -> None:
    client.cookies["django_language"] = language
    page = client.get(f"/how-to-play/{game}/")
    assert page.status_code == 200
    assert f'<html lang="{language}">' in page.content.decode()
    bare = client.get(f"/how-to-play/{game}/", {"bare": "1"}).content.decode()
    assert "<html" not in bare  # the room's dialog takes the rules alone
    for section in SECTIONS[game]:
        assert f'<section id="{section}">' in bare
    english = client.get(f"/how-to-play/{game}/", {"bare": "1"}, HTTP_COOKIE="django_language=en").content
    assert language == "en" or english != bare.encode()  # really translated, not the English page


def test_how_to_play_for_an_unknown_game_is_404(client: Client) -> None:
    assert client.get("/how-to-play/chess/").status_code == 404


def test_home_page_says_who_can_play_and_links_the_rules(client: Client) -> None:
    body = client.get("/").content.decode()
    assert "2–3 players" in body and "Interceptor" in body
    assert 'href="/how-to-play/codenames/"' in body and 'href="/how-to-play/decrypto/"' in body


def test_table_view_typed_with_capitals_is_still_a_visitors(client: Client) -> None:
    """The 301 to the lowercase room keeps ?table=1's meaning: never the opener's own view."""
    client.post("/r/friday-fun/join/", {"name": "Ada"})
    response = client.get("/r/Friday-Fun/?table=1")
    assert response.status_code == 301 and response["Location"] == "/r/friday-fun/table/"
    response = client.get("/r/Friday-Fun/table/")
    assert response.status_code == 301 and response["Location"] == "/r/friday-fun/table/"
    # Other parameters survive the lowercasing.
    response = client.get("/r/Friday-Fun/?game=decrypto")
    assert response.status_code == 301 and response["Location"] == "/r/friday-fun/?game=decrypto"


@pytest.mark.parametrize("game", ["codenames", "decrypto"])
def test_only_the_table_view_loads_the_table_stylesheets(client: Client, game: str) -> None:
    """A phone never downloads the TV's rules; the table view gets the site's and its game's."""
    client.get(f"/r/tv-styles-{game}/?game={game}")
    room = client.get(f"/r/tv-styles-{game}/").content.decode()
    table = client.get(f"/r/tv-styles-{game}/table/").content.decode()
    assert "css/table.css" in table and f"css/{game}-table.css" in table
    assert not re.search(r"<link[^>]*table\.css", room)  # (named in the assets, never loaded)
    assets = json.loads(re.search(r'id="game-assets"[^>]*>(.*?)</script>', table, re.S).group(1))  # type: ignore[union-attr]
    assert all(entry["table_css"].endswith("-table.css") for entry in assets.values())
