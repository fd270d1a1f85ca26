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


def test_a_fresh_group_sits_in_one_tap_and_shuffles(daphne_server: Any, open_page: Any) -> None:
    """Issue 12: pick a team on the join form; the first of a team is offered the
    spymaster's seat; Shuffle deals the newcomers who have not chosen to watch."""
    url = f"{daphne_server.url}/r/browser-one-tap/"
    phone = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
    ada, bob, cy, dee = (open_page(**phone) for _ in range(4))
    ada.goto(url)
    ada.fill("#join-name", "Ada")
    ada.click("#join-red")  # one tap: named and seated
    ada.wait_for_selector("[data-team='red'] [data-role='operative'] .person.me")
    ada.click("#take-spymaster")  # Red has no spymaster yet: offered, one tap
    ada.wait_for_selector("[data-team='red'] [data-role='spymaster'] .person.me")
    assert ada.locator("#take-spymaster").count() == 0

    for page, name in ((bob, "Bob"), (cy, "Cy")):
        page.goto(url)
        page.fill("#join-name", name)
        page.click("#join-button")  # joins unseated: Shuffle will deal them
        page.wait_for_selector("#conn[data-state='open']")
    dee.goto(url)
    dee.fill("#join-name", "Dee")
    dee.click("#join-watch")
    dee.wait_for_selector("#spectators .person.me")
    ada.wait_for_selector(".person:has-text('Dee')")

    bob.click("#shuffle")
    for name in ("Ada", "Bob", "Cy"):
        ada.wait_for_selector(f"#seats .person:has-text('{name}')")
    assert ada.locator("#seats .person").count() == 3
    assert dee.locator("#spectators .person.me").count() == 1  # chose to watch: not dealt


def test_an_empty_seat_goes_to_a_bot_and_back(daphne_server: Any, open_page: Any) -> None:
    url = f"{daphne_server.url}/r/browser-bots/"
    ada = open_page()
    ada.goto(url)
    ada.fill("#join-name", "Ada")
    ada.click("#join-red")
    ada.wait_for_selector("[data-team='red'] [data-role='operative'] .person.me")
    ada.click("[data-team='blue'] [data-role='spymaster'] button.add-bot")
    chip = "[data-team='blue'] [data-role='spymaster'] .person.bot"
    ada.wait_for_selector(chip)
    assert "Bot 1" in ada.inner_text(chip)
    # The seat is the bot's now: no second bot, nobody else sits there.
    assert ada.locator("[data-team='blue'] [data-role='spymaster'] button.add-bot").count() == 0
    ada.click(f"{chip} .remove-bot")
    ada.wait_for_selector(chip, state="detached")


def test_decrypto_seats_go_to_bots_and_a_game_is_dealt_with_them(daphne_server: Any, open_page: Any) -> None:
    url = f"{daphne_server.url}/r/browser-dc-bots/?game=decrypto"
    ada = open_page()
    ada.goto(url)
    ada.fill("#join-name", "Ada")
    ada.click("#join-white")
    ada.wait_for_selector("[data-team='white'] .person.me")
    for team, count in (("white", 1), ("black", 1), ("black", 2)):
        button = f"[data-team='{team}'] button.add-bot"
        assert ada.inner_text(button) == "Add a bot"  # one role: a bot plays every part
        ada.click(button)
        ada.wait_for_selector(f"[data-team='{team}'] .person.bot >> nth={count - 1}")
    assert ada.locator(".person.bot").count() == 3
    ada.click("#dc-deal")
    # Ada joined first: she is White's Encryptor in round 1 (DC-5), with her bot beside her.
    ada.wait_for_selector("#dc-clue-3")
