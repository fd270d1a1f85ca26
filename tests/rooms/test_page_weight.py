"""What a room page costs a phone on a deployed site: every byte the browser fetches to
show it (HTML, styles, scripts, translations, images, the font), uncompressed, within 150 KB
in English, and within 150 KB besides its translations in Italian (the longest catalogue);
each game's page fetches none of the other game's files; and the minified scripts work.

The server is the production one: ``config.settings`` with DEBUG off, its static files
collected by ``manage.py collectstatic`` (minified, hashed: config/storage.py).
"""

from __future__ import annotations

import itertools
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings

from bench.scenes import CARD, PHONE, build_scene, in_thread, open_scene
from tests.conftest import DaphneServer, close_and_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 100 KB until issue 29 added the token legend, a bot's offered suggestion, the pending state
# of a tap, the key phone's wake lock and the chat opener in the room bar: a Decrypto page
# came to 102.7 KB. Issue 30 set the next budget: 150 KB with the site's font (Figtree, 19.7 KB)
# and the card art, the Decrypto screens and the motion of the new look.
BUDGET = 150 * 1024
_NUMBERS = itertools.count(1)


@pytest.fixture(scope="module")
def production(
    django_db_setup: Any, django_db_blocker: Any, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DaphneServer]:
    static = tmp_path_factory.mktemp("static")
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": django_settings.SECRET_KEY,  # the sessions the tests make
        "STATIC_ROOT": str(static),
        "TLS": "false",
        "RATE_LIMITS": "false",
        # A prefix of its own: the test database may not own the configured one (rooms/deployment.py).
        "REDIS_PREFIX": f"page-weight-{secrets.token_hex(4)}",
    }
    server = DaphneServer(redis_url, extra_env=env)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=django_settings.BASE_DIR,
        env=server.env,
        check=True,
    )
    assert any(Path(static, "js").glob("room.*.js")), "collectstatic wrote the hashed scripts"
    server.start()
    yield server
    server.stop()


def _open(
    browser: Any, server: DaphneServer, name: str, language: str, errors: list[str] | None = None
) -> tuple[Any, Any, Any, dict[str, int]]:
    """The scene's page on the production server, and each same-site URL it fetched with
    its body's length (``errors``: the page's script errors, from the start)."""
    scene = in_thread(lambda: build_scene(name, language, suffix=f"w{next(_NUMBERS)}"))
    sizes: dict[str, int] = {}

    def count(response: Any) -> None:
        if response.url.startswith(server.url) and response.request.resource_type != "websocket":
            sizes[response.url.removeprefix(server.url)] = len(response.body())

    def prepare(page: Any) -> None:
        page.on("response", count)
        if errors is not None:
            page.on("pageerror", lambda error: errors.append(str(error)))

    context, page = open_scene(browser, server.url, scene, PHONE, prepare)
    page.wait_for_load_state("networkidle")
    return scene, context, page, sizes


def _version(slug: str) -> int:
    from rooms.models import Room

    return in_thread(lambda: Room.objects.get(slug=slug).version)


@pytest.mark.parametrize(
    ("name", "own", "other"),
    [
        ("codenames-operative-guess", "codenames", "decrypto"),
        ("codenames-spymaster-clue", "codenames", "decrypto"),
        ("decrypto-intercept", "decrypto", "codenames"),
        ("decrypto-encryptor-clues", "decrypto", "codenames"),
    ],
)
@pytest.mark.parametrize("language", ["en", "it"])
def test_a_room_page_weighs_at_most_150_kb_with_its_font_and_loads_only_its_own_game(
    browser: Any, production: DaphneServer, name: str, own: str, other: str, language: str
) -> None:
    scene, context, _page, sizes = _open(browser, production, name, language)
    close_and_settle(context.close, [scene.slug])
    total = sum(sizes.values())
    biggest = sorted(sizes.items(), key=lambda item: -item[1])[:6]
    print(f"\n{name} ({language}): {total / 1024:.1f} KB in {len(sizes)} files; " + ", ".join(
        f"{url.split('?')[0].rstrip('/').rsplit('/', 1)[-1]} {size / 1024:.1f}" for url, size in biggest
    ))  # fmt: skip
    # The controls: the game's own script (hashed) and its translations were fetched.
    assert any(url.startswith(f"/static/js/{own}.") for url in sizes), sizes
    assert f"/jsi18n/{own}/" in sizes, sizes
    assert not [url for url in sizes if other in url], sizes
    # The font is fetched (preloaded, hashed) and counted in the budget.
    assert [url for url in sizes if url.startswith("/static/fonts/") and url.endswith(".woff2")], sizes
    # The budget is the page's own: the translations (empty in English) come on top.
    translations = sum(size for url, size in sizes.items() if url.startswith("/jsi18n/"))
    assert total - translations <= BUDGET, (translations, biggest)
    if language == "en":
        assert total <= BUDGET, biggest


def test_the_minified_scripts_play(browser: Any, production: DaphneServer) -> None:
    """The production scripts draw the board (open_scene waits for it) and a tap is a move."""
    errors: list[str] = []
    scene, context, page, _sizes = _open(browser, production, "codenames-operative-guess", "it", errors)
    before = _version(scene.slug)
    page.locator(f"{CARD}[data-position='{scene.extra['target']}']").click()
    deadline = time.monotonic() + 10
    while _version(scene.slug) == before and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    # Italian on the page: the game's translations were loaded before its module.
    assert "Conferma" in page.inner_text("#play") or "Passa" in page.inner_text("#play"), page.inner_text(
        "#play"
    )
    close_and_settle(context.close, [scene.slug])
    assert _version(scene.slug) > before
    assert errors == []
