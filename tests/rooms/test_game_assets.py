"""Each game's page loads only its own script and stylesheet; switching game loads the other."""

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_FILES = {
    "codenames": ("/js/codenames.js", "/css/codenames.css"),
    "decrypto": ("/js/decrypto.js", "/css/decrypto.css"),
}
# A screen of each game; both are grids by their own stylesheet's rule (not app.css's).
SCREENS = {"codenames": ".deal", "decrypto": ".dc-lobby"}


def _files(urls: list[str], game: str) -> set[str]:
    return {url.split("?")[0] for url in urls if url.split("?")[0].endswith(GAME_FILES[game])}


@pytest.mark.parametrize(("first", "second"), [("codenames", "decrypto"), ("decrypto", "codenames")])
def test_a_room_loads_its_game_only_and_the_other_when_it_switches(
    daphne_server: Any, open_page: Any, first: str, second: str
) -> None:
    page = open_page()
    requested: list[str] = []
    page.goto(f"{daphne_server.url}/r/assets-{first}/?game={first}")
    page.fill("#join-name", "Ada")
    # A room nobody has joined has no game yet (its page shows the default one): count
    # from the room's own page, once joined.
    page.on("request", lambda request: requested.append(request.url))
    page.click("#join-button")
    page.wait_for_selector("#conn[data-state='open']")
    page.wait_for_selector(SCREENS[first])
    assert len(_files(requested, first)) == 2, requested
    assert _files(requested, second) == set(), requested

    page.select_option("#game-select", second)
    page.wait_for_selector(SCREENS[second])
    assert len(_files(requested, second)) == 2, requested
    # The other game's stylesheet no longer applies: only the playing game's is on.
    enabled = page.eval_on_selector_all(
        "link[data-game-css]", "links => links.filter(l => !l.disabled).map(l => l.dataset.gameCss)"
    )
    assert enabled == [second]
    # Its rules really apply: both games' lobby panels are grids by their own stylesheet.
    assert page.eval_on_selector(SCREENS[second], "el => getComputedStyle(el).display") == "grid"
