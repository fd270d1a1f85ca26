"""The home page (issue 30): each game's card with its small board, who it is for and how
long it takes, one tap into a new room of that game; and that room's landing."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from rooms.models import Player, Room

LANGUAGES = ["en", "it", "ca", "pt-br", "sv"]
GAMES = ["codenames", "decrypto"]


class _Facts(HTMLParser):
    """The text of each ``li.fact-*`` of each ``article.game-card``, by the card's title id."""

    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, dict[str, str]] = {}
        self.card: str | None = None
        self.fact: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "article" and "game-card" in classes:
            self.card = (found.get("aria-labelledby") or "").removeprefix("title-")
            self.cards[self.card] = {}
        elif tag == "li" and self.card is not None:
            self.fact = next((c for c in classes if c.startswith("fact-")), None)
            if self.fact:
                self.cards[self.card][self.fact] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self.fact = None
        elif tag == "article":
            self.card = None

    def handle_data(self, data: str) -> None:
        if self.card is not None and self.fact:
            self.cards[self.card][self.fact] += data


def _facts(language: str) -> dict[str, dict[str, str]]:
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/").content.decode()
    parser = _Facts()
    parser.feed(page)
    return parser.cards


@pytest.mark.django_db
def test_home_cards_say_who_each_game_is_for_and_how_long_in_every_language() -> None:
    english = _facts("en")
    for language in LANGUAGES:
        cards = _facts(language)
        for game in GAMES:
            facts = {name: text.strip() for name, text in cards[game].items()}
            assert set(facts) == {"fact-players", "fact-time", "fact-feel"}, (language, game, facts)
            # A number of players and of minutes, in the page's language (each is worded
            # differently from the English one in every other language).
            assert re.search(r"\d", facts["fact-players"]) and re.search(r"\d", facts["fact-time"]), facts
            if language != "en":
                for name in ("fact-players", "fact-time", "fact-feel"):
                    assert facts[name] != english[game][name].strip(), (language, game, name, facts[name])


@pytest.mark.django_db
def test_home_page_draws_its_boards_without_inline_styles(client: Client) -> None:
    """The boards are drawn by css/home.css (loaded by the home page alone): the site's
    Content-Security-Policy allows no inline style, so none is written."""
    body = client.get("/").content.decode()
    assert "css/home.css" in body
    assert body.count('class="mini-tile') == 25
    assert body.count('class="mini-slot ') == 4
    assert " style=" not in body and "<style" not in body
    assert "css/home.css" not in client.get("/r/friday-fun/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_one_tap_makes_a_room_of_that_game_and_lands_in_it(client: Client, game: str) -> None:
    home = client.get("/").content.decode()
    # The card's one button: a form to /new/ carrying the game, nothing else to fill in.
    form = re.search(
        rf'<form class="game-go" action="([^"]+)" method="get">\s*'
        rf'<input type="hidden" name="game" value="{game}">\s*<button type="submit" class="primary"',
        home,
    )
    assert form, home
    response = client.get(form.group(1), {"game": game})
    assert response.status_code == 302
    landing = response["Location"]
    slug = re.fullmatch(rf"/r/([a-z]+-[a-z]+-\d{{2}})/\?game={game}", landing).group(1)  # type: ignore[union-attr]
    page = client.get(landing).content.decode()
    # The landing is that game's, ready to join, with the link to share.
    title = {"codenames": "Codenames", "decrypto": "Decrypto"}[game]
    assert f"Your {title} room is ready" in page
    assert f'data-game-css="{game}"' in page and f'<input type="hidden" name="game" value="{game}">' in page
    assert 'class="room fresh"' in page and f"/r/{slug}/" in page
    assert Room.objects.count() == 0  # opening a room writes nothing: joining does
    joined = client.post(f"/r/{slug}/join/", {"name": "Ada", "game": game})
    assert joined.status_code == 302
    assert Room.objects.get(slug=slug).game == game
    assert Player.objects.get(room__slug=slug).name == "Ada"
    inside = client.get(f"/r/{slug}/").content.decode()
    assert 'id="rename-input"' in inside and 'class="room fresh"' not in inside


@pytest.mark.django_db
def test_a_shared_link_says_who_is_already_there(client: Client) -> None:
    for name in ("Ada", "Bo", "Cy", "Dee", "Eve"):
        Client().post("/r/friday-fun/join/", {"name": name, "game": "decrypto"})
    page = client.get("/r/friday-fun/?game=codenames").content.decode()
    # The stored room's game wins over the link's.
    assert "Join the Decrypto game" in page and 'data-game-css="decrypto"' in page
    assert "5 people here: Ada, Bo, Cy, Dee…" in page


# ---- in a browser --------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_one_tap_from_the_home_page_to_a_seat(daphne_server: Any, open_page: Any) -> None:
    """On a phone: the card's button opens a new Decrypto room; a name and a team later the
    player sits in that game's lobby."""
    page = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page.goto(daphne_server.url + "/")
    page.click("#new-decrypto")
    page.wait_for_url(re.compile(r"/r/[a-z]+-[a-z]+-\d{2}/\?game=decrypto$"))
    # The room's first state (the socket's, which names the default game) changes nothing.
    page.wait_for_selector("#conn[data-state='open']")
    assert "Decrypto" in page.inner_text("#join-title") and page.title().endswith("· Decrypto · Wordrooms")
    # No other game's lobby under the join form of a room nobody has joined.
    assert page.locator("#lobby").is_hidden() and page.locator("#play").is_hidden()
    page.fill("#join-name", "Ada")
    page.click("#join-white")
    page.wait_for_selector("#conn[data-state='open']")
    page.wait_for_selector(".dc-lobby")
    assert page.locator("[data-team='white'] .person:has-text('Ada')").count() == 1
    assert page.locator("#lobby").is_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_home_boards_move_unless_asked_not_to(daphne_server: Any, open_page: Any, motion: str) -> None:
    page = open_page(reduced_motion=motion)
    page.goto(daphne_server.url + "/")
    tile = page.evaluate(
        """() => { const s = getComputedStyle(document.querySelector(".mini-tile.is-red"), "::after");
                   return [s.animationName, s.opacity]; }"""
    )
    bar = page.evaluate("() => getComputedStyle(document.querySelector('.mini-bar')).animationName")
    if motion == "reduce":
        # Still, and finished: the turned card shows its colour, the clue line is written.
        assert tile == ["none", "1"] and bar == "none", (tile, bar)
    else:
        assert tile[0] == "mini-turn" and bar == "mini-write", (tile, bar)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "shown"), [(360, False), (1280, True)])
def test_the_invitation_qr_code_shows_beside_the_link_on_a_wide_screen(
    daphne_server: Any, open_page: Any, width: int, shown: bool
) -> None:
    """A laptop shows the room's QR code without a tap; a phone keeps it folded (a tap on
    "Show QR code" away), the link and its Copy button first."""
    page = open_page(viewport={"width": width, "height": 800})
    page.goto(daphne_server.url + "/r/qr-landing/?game=codenames")
    page.wait_for_selector("#copy-link")
    assert page.locator(".share .qr-code svg").is_visible() is shown
    if not shown:
        page.click(".share .qr summary")
        assert page.locator(".share .qr-code svg").is_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/", "/r/dark-landing/?game=decrypto"])
@pytest.mark.parametrize("width", [360, 1280])
def test_home_and_landing_read_in_the_dark(daphne_server: Any, open_page: Any, path: str, width: int) -> None:
    """The boards, the cards and the landing's team buttons hold the screen checks (axe,
    14 px text, no sideways scroll) in the dark colour scheme too."""
    from tests.test_screens import axe_violations, horizontal_scroll, small_text

    page = open_page(viewport={"width": width, "height": 800}, color_scheme="dark")
    page.goto(daphne_server.url + path)
    problems = axe_violations(page) + small_text(page) + horizontal_scroll(page, width)
    assert problems == [], problems


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", ["en-GB", "it-IT"])
def test_the_first_games_one_tap_is_in_a_phones_first_screen(
    daphne_server: Any, open_page: Any, locale: str
) -> None:
    from tests.test_screens import primary_out_of_reach

    page = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale=locale)
    page.goto(daphne_server.url + "/")
    assert primary_out_of_reach(page, (".game-go button",), 360, 740) == []
