"""The spymaster's key phone stays awake while a game runs (issue 29): the page asks for a
screen wake lock, and an operative's page asks for none."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench.scenes import PHONE, Scene, build_scene, in_thread, open_scene
from tests.conftest import close_and_settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

_NUMBERS = itertools.count(1)

# Headless Chromium grants no wake lock: a stand-in that records what the page asks.
WAKE_LOG = """
window.__wake = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (type) => {
    window.__wake.push(type);
    const lock = new EventTarget();
    lock.release = async () => { window.__wake.push("release"); };
    return lock;
  },
} });
"""


@pytest.fixture
def opened(browser: Any, daphne_server: Any) -> Iterator[Callable[[str], tuple[Scene, Any]]]:
    contexts: list[tuple[Scene, Any]] = []

    def make(name: str) -> tuple[Scene, Any]:
        scene = in_thread(lambda: build_scene(name, "en", suffix=f"awake{next(_NUMBERS)}"))
        context, page = open_scene(
            browser, daphne_server.url, scene, PHONE, lambda p: p.add_init_script(WAKE_LOG)
        )
        contexts.append((scene, context))
        return scene, page

    yield make
    for scene, context in contexts:
        close_and_settle(context.close, [scene.slug])


def test_the_key_phone_keeps_its_screen_on_and_an_operatives_does_not(opened: Any) -> None:
    _scene, key = opened("codenames-key-phone")
    key.wait_for_function("() => window.__wake.includes('screen')", timeout=5000)
    assert key.evaluate("() => window.__wake") == ["screen"]
    _scene, operative = opened("codenames-operative-guess")
    # Drawn already (open_scene waited for the board), and a page asks while it draws.
    assert operative.evaluate("() => window.__wake") == []
