"""Two real browsers in one room, through the production server command."""

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _join(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#conn[data-state='open']")


def test_two_browsers_see_each_other_arrive_and_change_seats(
    daphne_server: Any, open_page: Any, shots_dir: str
) -> None:
    url = f"{daphne_server.url}/r/browser-lobby/"
    ada = open_page()
    bob = open_page(viewport={"width": 390, "height": 844})
    _join(ada, url, "Ada")
    _join(bob, url, "Bob")

    ada.wait_for_selector(".person:has-text('Bob')")
    bob.wait_for_selector(".person:has-text('Ada')")
    # Both are spectators for now: the panel lists them, with no stray "null" (issue 12).
    assert "null" not in ada.inner_text("#spectators")

    bob.click("[data-team='blue'] [data-role='spymaster'] button.sit")
    ada.wait_for_selector("[data-team='blue'] [data-role='spymaster'] .person:has-text('Bob')")
    # The seat is taken now: Ada is offered no button for it.
    assert ada.locator("[data-team='blue'] [data-role='spymaster'] button.sit").count() == 0

    ada.click("[data-team='red'] [data-role='operative'] button.sit")
    bob.wait_for_selector("[data-team='red'] [data-role='operative'] .person:has-text('Ada')")
    assert "null" not in bob.inner_text("#spectators") and "null" not in ada.inner_text("#spectators")

    bob.close()
    ada.wait_for_selector(".person.away:has-text('Bob')")
    ada.screenshot(path=f"{shots_dir}/lobby.png", full_page=True)


def test_a_name_with_markup_is_shown_as_text(daphne_server: Any, open_page: Any) -> None:
    page = open_page()
    _join(page, f"{daphne_server.url}/r/browser-escape/", "<img src=x onerror=1>")
    chip = page.wait_for_selector(".person .name")
    assert chip.text_content() == "<img src=x onerror=1>"
    assert page.locator(".person img").count() == 0
