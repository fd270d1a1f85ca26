"""The one client pattern (static/js/view.js): a push redraws only what changed, and never
takes away what a player is doing (typed text, focus, caret, an open panel)."""

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _join(page: Any, url: str, name: str, team: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click(f"#join-{team}")
    page.wait_for_selector("#conn[data-state='open']")


def test_typing_and_open_panels_survive_other_players_moves(daphne_server: Any, open_page: Any) -> None:
    url = f"{daphne_server.url}/r/parts-keep/"
    ada, bob = open_page(), open_page()
    _join(ada, url, "Ada", "red")
    ada.click("#take-spymaster")
    ada.wait_for_selector("[data-team='red'] [data-role='spymaster'] .person.me")
    ada.click(".deal .house-rules summary")
    ada.fill("#hr-notes", "No rhymes")
    ada.press("#hr-notes", "ArrowLeft")
    words = ada.query_selector("#words-panel details")
    # Someone else's move: the lobby's slice changes (a second player, a new deal mode).
    _join(bob, url, "Bob", "red")
    ada.wait_for_selector("#deal:text('Deal a co-operative game')")
    assert ada.input_value("#hr-notes") == "No rhymes"
    assert ada.evaluate("document.activeElement.id") == "hr-notes"
    assert ada.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]") == [
        8,
        8,
    ]
    assert ada.eval_on_selector(".deal .house-rules", "d => d.open")
    # A part whose slice did not change is not redrawn: the words panel is the same node.
    assert words is not None and ada.evaluate("(node) => node.isConnected", words)

    # The lobby gives way to the dealt game: the house rules panel stays open.
    bob.click("#deal")
    ada.wait_for_selector(".board .card")
    assert ada.eval_on_selector("#play .house-rules", "d => d.open")
