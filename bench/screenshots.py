"""Every screen of both games, for every role, as PNGs for people to review.

    python -m bench.screenshots                   # English and Italian, phone and laptop (+ TV)
    python -m bench.screenshots --languages en --out /tmp/shots
    python -m bench.screenshots --scenes codenames-lobby-seated --pages /,/design/ --schemes light,dark \
        --sizes phone,laptop                      # the site's pages too, in both colour schemes

Seeds each scene of ``bench/scenes.py`` (``tests/test_screens.py`` checks the same
scenes) in a throwaway SQLite database, serves it with
the production command (Daphne, in-memory channel layer, no game clock so no timer
moves a scene on) and writes ``<out>/<language>/<size>/<scene>.png`` (full page);
``--pages`` adds the site's own pages (the home page, the design sheet ``/design/``) as
``<out>/<language>/<size>/page-<name>.png``, and ``--schemes light,dark`` shoots each screen
in both colour schemes (the dark one as ``<name>-dark.png``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def _configure(database: Path) -> None:
    """Settings for this process and the server: the throwaway database, no Redis, no clock."""
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    os.environ["GAME_CLOCK"] = "0"
    os.environ["RATE_LIMITS"] = "false"
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _chat_open(page: Any) -> None:
    """The chat drawer open over a game in play, with a few lines said in it."""
    page.click("#chat-toggle")
    page.wait_for_selector("#chat-drawer:not([hidden])")
    if page.is_visible("#chat-input"):
        for text in ("Mexico is 4, surely", "agreed 👍"):
            page.fill("#chat-input", text)
            page.press("#chat-input", "Enter")
            page.wait_for_selector(f".chat-line:has-text('{text}')")


def _tap_pending(page: Any) -> None:
    """A card tapped on a line that just went silent: the tap shows as pending."""
    page.evaluate("() => { WebSocket.prototype.send = function () {}; }")  # nothing leaves now
    page.locator(".board .card:not(.covered):not(.proposed)").first.click()
    page.wait_for_selector("body.sending")


# Moments of a scene shot besides the scene itself, as <scene>+<moment>.png: the page after
# a person's step (issue 29: the chat open over play, a tap pending).
MOMENTS: dict[str, dict[str, Callable[[Any], None]]] = {
    "decrypto-decipher": {"chat-open": _chat_open},
    "codenames-operative-guess": {"chat-open": _chat_open, "tap-pending": _tap_pending},
}


def _scheme(scheme: str, timed: bool) -> Callable[[Any], None]:
    """Before a scene's page loads: its colour scheme, and a timed scene's clock frozen as
    ``open_scene`` does when given no ``prepare`` of its own."""

    def prepare(page: Any) -> None:
        page.emulate_media(color_scheme=scheme)
        if timed:
            page.clock.set_fixed_time(time.time())

    return prepare


def _page_name(path: str) -> str:
    """``/`` is ``page-home``, ``/design/`` is ``page-design``."""
    return "page-" + (path.strip("/").replace("/", "-") or "home")


def _shoot_pages(
    browser: Any,
    url: str,
    paths: list[str],
    languages: list[str],
    sizes: list[str],
    schemes: list[str],
    out: Path,
    full_page: bool = True,
) -> tuple[int, int]:
    """The site's pages (no room, no cookies), in each language, size and colour scheme."""
    from bench import scenes as screens

    count, failed = 0, 0
    for language in languages:
        for size in sizes:
            for scheme in schemes:
                for path in paths:
                    suffix = "" if scheme == "light" else f"-{scheme}"
                    target = out / language / size / f"{_page_name(path)}{suffix}.png"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    context = browser.new_context(
                        **screens.SIZES[size],
                        locale="it-IT" if language == "it" else "en-GB",
                        color_scheme=scheme,
                    )
                    try:
                        page = context.new_page()
                        # The language is the session's: the home page's switcher posts it.
                        page.goto(f"{url}{path}")
                        if language != "en":
                            page.select_option("#lang-select", language)
                            page.wait_for_load_state("load")
                        page.goto(f"{url}{path}")
                        page.evaluate("() => document.fonts.ready")
                        page.screenshot(path=str(target), full_page=full_page)
                        count += 1
                    except Exception as error:  # one broken page should not lose the others
                        failed += 1
                        print(f"{language}/{size}/{target.stem}: {error}", file=sys.stderr)
                    finally:
                        context.close()
    return count, failed  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out", default=str(ROOT / "screenshots"), help="output folder (default: screenshots/)"
    )
    parser.add_argument("--languages", default="en,it", help="comma-separated (default: en,it)")
    parser.add_argument("--scenes", default="", help="comma-separated scene names (default: all)")
    parser.add_argument(
        "--pages", default="", help="comma-separated site paths, e.g. /,/design/ (default: none)"
    )
    parser.add_argument(
        "--first-screen", action="store_true", help="the first screenful only, not the full page"
    )
    parser.add_argument("--schemes", default="light", help="colour schemes: light,dark (default: light)")
    parser.add_argument(
        "--sizes", default="", help="comma-separated sizes: phone,laptop,tv,tv720 (default: all)"
    )
    args = parser.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        print(f"{CHROMIUM} is missing: `sudo apt-get install chromium`", file=sys.stderr)
        return 1

    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="screenshots-"))
    try:
        _configure(workdir / "screens.sqlite3")
        from django.core.management import call_command
        from django.db import connections

        from bench import scenes as screens
        from bench.scenes import CHROMIUM_ARGS
        from bench.servers import free_port, wait_port

        call_command("migrate", interactive=False, verbosity=0)
        names = tuple(n for n in args.scenes.split(",") if n) or screens.SCENE_NAMES + screens.REPLAY_SCENES
        if args.pages and not args.scenes:
            names = ()  # only the pages asked for
        languages = [lang for lang in args.languages.split(",") if lang]
        paths = [path for path in args.pages.split(",") if path]
        schemes = [scheme for scheme in args.schemes.split(",") if scheme]
        only_sizes = {size for size in args.sizes.split(",") if size}
        scenes = [scene for lang in languages for scene in screens.build_scenes(lang, names=names)]
        connections.close_all()
        print(f"seeded {len(scenes)} scenes in {time.monotonic() - started:.1f} s")

        out = Path(args.out)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        # The production command, without its access log, on the throwaway database.
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
        server = subprocess.Popen(
            [*command, "config.asgi:application"], cwd=ROOT, env=dict(os.environ), stdout=subprocess.DEVNULL
        )
        wait_port(port, 30)
        count, failed = 0, 0
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                shots = [
                    (each, size, scheme)
                    for each in scenes
                    for size in screens.iter_sizes(each)
                    if not only_sizes or size in only_sizes
                    for scheme in schemes
                ]
                for scene, size, scheme in shots:
                    suffix = "" if scheme == "light" else f"-{scheme}"
                    target = out / scene.language / size / f"{scene.name}{suffix}.png"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    moments: dict[str, Callable[[Any], None] | None] = {"": None}
                    if not scene.table:
                        moments.update(MOMENTS.get(scene.name, {}))
                    for moment, step in moments.items():
                        shot = target.with_name(f"{scene.name}+{moment}{suffix}.png") if moment else target
                        try:
                            prepare = _scheme(scheme, scene.timed) if scheme != "light" else None
                            context, page = screens.open_scene(
                                browser, url, scene, screens.SIZES[size], prepare
                            )
                            try:
                                if step is not None:
                                    step(page)
                                page.screenshot(path=str(shot), full_page=not args.first_screen)
                                count += 1
                            finally:
                                context.close()
                        except Exception as error:  # one broken scene should not lose the others
                            failed += 1
                            print(f"{scene.language}/{size}/{shot.stem}: {error}", file=sys.stderr)
                if paths:
                    sizes = [size for size in ("phone", "laptop") if not only_sizes or size in only_sizes]
                    taken, broken = _shoot_pages(
                        browser, url, paths, languages, sizes, schemes, out, not args.first_screen
                    )
                    count, failed = count + taken, failed + broken
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
        print(f"{count} screenshots in {out.resolve()} ({time.monotonic() - started:.0f} s)")
        if failed:
            print(f"{failed} screens could not be shot (above)", file=sys.stderr)
        return 1 if failed else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
