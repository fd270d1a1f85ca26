"""The how-to-play pages (issue 30): a contents list, diagrams with a text alternative in the
page's own language, a worked example, and drawings that tell the rules truly.

The diagrams are HTML and inline SVG, drawn by each game's templates (<game>/templates/howto/
<game>/fig/ and <language>.html); their stylesheet, static/css/howto.css, comes with the rules
only: on the page and inside the room's rules dialog, never before."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

LANGUAGES = ["en", "it", "ca", "pt-br", "sv"]
FIGURES = {
    "codenames": ["hw-fig-board", "hw-fig-turn", "hw-fig-example"],
    "decrypto": ["hw-fig-screen", "hw-fig-code", "hw-fig-tokens", "hw-fig-sheet"],
}
# A rules page stays light on a phone (the budget: about 60 KB of HTML).
PAGE_BUDGET = 60_000


class Page(HTMLParser):
    """What the tests read of a rules page: ids, figures and their captions, text
    alternatives, links within the page and the worked example's steps."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.labels: list[str] = []  # aria-label of every role="img"
        self.figures: dict[str, dict[str, str]] = {}
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.steps = 0
        self.key_squares: list[str] = []
        self._figure: str | None = None
        self._caption: list[str] | None = None
        self._example = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: value or "" for name, value in attrs}
        if "id" in attr:
            self.ids.add(attr["id"])
        if tag == "a" and attr.get("href", "").startswith("#"):
            self.links.append(attr["href"][1:])
        if attr.get("role") == "img":
            self.labels.append(attr.get("aria-label", "").strip())
        if tag == "figure":
            self._figure = attr.get("id", "")
            self.figures[self._figure] = {"caption": ""}
        if tag == "figcaption":
            self._caption = []
        if tag == "section":
            self._example = attr.get("id") == "hw-example"
        if tag == "li" and self._example and self.stack and "hw-steps" in self.stack[-1][1].get("class", ""):
            self.steps += 1
        if tag == "rect" and attr.get("class", "") in {"k-r", "k-b", "k-y", "k-a"}:
            self.key_squares.append(attr["class"][2:])
        if tag not in {"rect", "path", "circle", "br", "img", "input", "link", "meta"}:
            self.stack.append((tag, attr))

    def handle_endtag(self, tag: str) -> None:
        if tag == "figcaption" and self._caption is not None and self._figure is not None:
            self.figures[self._figure]["caption"] = "".join(self._caption).strip()
            self._caption = None
        if tag == "figure":
            self._figure = None
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._caption is not None:
            self._caption.append(data)


def rules(client: Client, game: str, language: str, bare: bool = False) -> tuple[str, Page]:
    client.cookies["django_language"] = language
    response = client.get(f"/how-to-play/{game}/", {"bare": "1"} if bare else {})
    assert response.status_code == 200
    body = response.content.decode()
    page = Page()
    page.feed(body)
    return body, page


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["codenames", "decrypto"])
def test_every_rules_page_has_its_diagrams_with_a_text_alternative_in_its_language(
    client: Client, game: str, language: str
) -> None:
    body, page = rules(client, game, language)
    for figure in FIGURES[game]:
        assert figure in page.figures, f"{game}/{language}: no diagram #{figure}"
        assert len(page.figures[figure]["caption"]) > 20, f"{game}/{language}: #{figure} has no caption"
    assert page.labels and all(len(label) > 8 for label in page.labels), page.labels
    if language != "en":
        _english, english = rules(client, game, "en")
        shared = set(page.labels) & set(english.labels)
        # Only a label with no words in it (a code card's digits) may read the same.
        assert all(not re.search(r"[^\W\d]{4}", label) for label in shared), shared
        captions = {f["caption"] for f in page.figures.values()}
        assert not captions & {f["caption"] for f in english.figures.values()}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", ["codenames", "decrypto"])
def test_rules_page_has_contents_that_lead_somewhere_and_a_worked_example(
    client: Client, game: str, language: str
) -> None:
    body, page = rules(client, game, language)
    assert "hw-toc" in page.ids or 'class="hw-toc"' in body
    assert len(page.links) >= 6
    assert not [link for link in page.links if link not in page.ids], "contents link to nowhere"
    assert "hw-example" in page.ids and page.steps >= 4
    assert "<details>" in body  # the details fold away: not a wall
    assert len(body.encode()) <= PAGE_BUDGET, f"{len(body.encode())} bytes"


def test_cn4_cn5_the_drawn_key_card_deals_as_the_game_does(client: Client) -> None:
    """9 agents for the starting team (red, shown on the card's edge), 8 for the other,
    7 bystanders and 1 assassin; and the board beside it has the 25 words it maps."""
    body, page = rules(client, "codenames", "en")
    squares = page.key_squares
    assert len(squares) == 25
    assert {kind: squares.count(kind) for kind in "rbya"} == {"r": 9, "b": 8, "y": 7, "a": 1}
    assert 'class="hw-key-start"' in body
    board = re.search(r'<div class="hw-board"[^>]*>(.*?)</div>', body, re.S)
    assert board and len(re.findall(r"<span>", board.group(1))) == 25


@pytest.mark.parametrize("language", LANGUAGES)
def test_dc3_dc7_the_drawn_code_has_three_different_digits_and_one_clue_each_in_order(
    client: Client, language: str
) -> None:
    body, _page = rules(client, "decrypto", language)
    code = re.search(r'<span class="hw-code"[^>]*>((?:<span>\d</span>)+)</span>', body)
    assert code
    digits = [int(d) for d in re.findall(r"<span>(\d)</span>", code.group(1))]
    assert len(digits) == 3 and len(set(digits)) == 3 and set(digits) <= {1, 2, 3, 4}
    table = re.search(r'<table class="hw-encrypt">.*?<tbody>(.*?)</tbody>', body, re.S)
    assert table
    rows = re.findall(r"<tr><td>(\d)</td><td>([^<]+)</td><td>([^<]+)</td></tr>", table.group(1))
    assert [int(row[0]) for row in rows] == digits
    screen = re.findall(r"<span><b>(\d)</b>([^<]+)</span>", body)
    keywords = {int(n): word for n, word in screen}
    assert [row[1] for row in rows] == [keywords[d] for d in digits]  # the clue's keyword is the digit's


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["codenames", "decrypto"])
def test_the_rules_stylesheet_comes_with_the_rules_only(client: Client, game: str) -> None:
    """The page links howto.css; the dialog's fragment carries it inside its body (a
    DOMParser moves a leading <link> into <head>, where the dialog never takes it); the
    room page does not load it before "?" is pressed."""
    page, _ = rules(client, game, "en")
    assert re.search(r'<link rel="stylesheet" href="[^"]*css/howto\.css">', page)
    bare, _ = rules(client, game, "en", bare=True)
    assert bare.lstrip().startswith('<div class="howto-doc"><link rel="stylesheet"')
    client.get(f"/r/howto-css-{game}/?game={game}")
    room = client.get(f"/r/howto-css-{game}/").content.decode()
    assert "howto.css" not in room
