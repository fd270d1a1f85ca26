"""Every screen of both games, the site's pages and the TV, as PNGs for people to review.

    python -m bench.screenshots                   # everything: see below (issue 30's matrix)
    python -m bench.screenshots --list            # the plan, one file a line, nothing shot
    python -m bench.screenshots --languages en --schemes dark --sizes phone --out /tmp/shots
    python -m bench.screenshots --scenes codenames-lobby-seated --pages /,/design/ --first-screen

By default: every scene of ``bench/scenes.py`` (``tests/test_screens.py`` checks the same
scenes; the table view, the TV, and each game's replay on both TV sizes too), the home page,
both how-to-play pages and the design sheet ``/design/`` (phone and laptop), in English and
Italian, light and dark, as ``<out>/<language>/<scheme>/<size>/<name>.png`` (full page);
a page is ``page-<name>.png`` (``page-home``, ``page-how-to-play-codenames``), a scene's moment
(the chat open, a tap pending) ``<scene>+<moment>.png``. ``--scenes`` alone shoots those
scenes and no page, ``--pages`` alone those pages and no scene.

Scenes are seeded in a throwaway SQLite database and served by the production command
(Daphne, in-memory channel layer, no game clock so no timer moves a scene on) on a free
port; each screen is loaded once and shot in each scheme in turn. Two runs at once
(``--languages en`` and ``--languages it`` in two terminals, say) do not meet, and write
different files.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
LANGUAGES = ("en", "it")
SCHEMES = ("light", "dark")
# The site's own pages: the home page, the rules of both games, the design sheet.
PAGES = ("/", "/how-to-play/codenames/", "/how-to-play/decrypto/", "/design/")
PAGE_SIZES = ("phone", "laptop")


def _configure(database: Path) -> None:
    """Settings for this process and the server: the throwaway database, no Redis, no clock."""
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.screenshot_settings"
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
    # A card this operative may tap: under load the page may still be drawing the turn.
    card = page.locator(".board .card:not(.covered):not(.proposed):not([aria-disabled='true'])").first
    card.wait_for()
    page.evaluate("() => { WebSocket.prototype.send = function () {}; }")  # nothing leaves now
    card.click()
    page.wait_for_selector("body.sending")


# Moments of a scene shot besides the scene itself, as <scene>+<moment>.png: the page after
# a person's step (issue 29: the chat open over play, a tap pending).
MOMENTS: dict[str, dict[str, Callable[[Any], None]]] = {
    "decrypto-decipher": {"chat-open": _chat_open},
    "codenames-operative-guess": {"chat-open": _chat_open, "tap-pending": _tap_pending},
}


@dataclass(frozen=True)
class Shot:
    """One PNG of the plan: a scene (with a moment, or none) or a site page (``path``)."""

    language: str
    scheme: str
    size: str
    name: str
    moment: str = ""
    path: str = ""

    @property
    def file(self) -> str:
        """Where it goes under the output folder."""
        stem = f"{self.name}+{self.moment}" if self.moment else self.name
        return f"{self.language}/{self.scheme}/{self.size}/{stem}.png"


def page_name(path: str) -> str:
    """``/`` is ``page-home``, ``/how-to-play/decrypto/`` is ``page-how-to-play-decrypto``."""
    return "page-" + (path.strip("/").replace("/", "-") or "home")


def scene_sizes(name: str) -> tuple[str, ...]:
    """The sizes a scene is shown at (``bench.scenes.iter_sizes`` by the scene's name): phone
    and laptop; the table view and a replay on both TVs too."""
    from bench.scenes import REPLAY_SCENES, TABLE_SCENES, TV_SIZES

    return (
        ("phone", "laptop", *TV_SIZES)
        if name in TABLE_SCENES or name in REPLAY_SCENES
        else ("phone", "laptop")
    )


def plan(
    names: tuple[str, ...],
    paths: tuple[str, ...],
    languages: tuple[str, ...] = LANGUAGES,
    schemes: tuple[str, ...] = SCHEMES,
    sizes: tuple[str, ...] = (),
) -> list[Shot]:
    """Every shot of a run, scene by scene: a timed scene's shots follow each other (its
    timer starts as its first page opens). ``sizes`` empty: every size each one is shown at."""
    shots = []
    for language in languages:
        for name in names:
            for size in scene_sizes(name):
                if sizes and size not in sizes:
                    continue
                moments = ("", *MOMENTS.get(name, {}))
                shots += [
                    Shot(language, scheme, size, name, moment) for moment in moments for scheme in schemes
                ]
        for path in paths:
            for size in PAGE_SIZES:
                if not sizes or size in sizes:
                    shots += [Shot(language, scheme, size, page_name(path), path=path) for scheme in schemes]
    return shots


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out", default=str(ROOT / "screenshots"), help="output folder (default: screenshots/)"
    )
    parser.add_argument("--languages", default=",".join(LANGUAGES), help="comma-separated (default: en,it)")
    parser.add_argument("--scenes", default="", help="comma-separated scene names (default: all)")
    parser.add_argument(
        "--pages", default="", help=f"comma-separated site paths (default: {','.join(PAGES)})"
    )
    parser.add_argument(
        "--first-screen", action="store_true", help="the first screenful only, not the full page"
    )
    parser.add_argument("--schemes", default=",".join(SCHEMES), help="colour schemes (default: light,dark)")
    parser.add_argument(
        "--sizes", default="", help="comma-separated sizes: phone,laptop,tv,tv720 (default: all)"
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=0.0,
        help="image pixels per CSS pixel, e.g. 0.5 for small pictures (default: each size's own)",
    )
    parser.add_argument("--list", action="store_true", help="print the plan's files and shoot nothing")
    return parser.parse_args(argv)


def plan_of(args: argparse.Namespace) -> list[Shot]:
    """The shots the command line asks for."""
    from bench.scenes import REPLAY_SCENES, SCENE_NAMES

    def split(text: str) -> tuple[str, ...]:
        return tuple(part for part in text.split(",") if part)

    names, paths = split(args.scenes), split(args.pages)
    if not names and not paths:
        names, paths = SCENE_NAMES + REPLAY_SCENES, PAGES
    return plan(names, paths, split(args.languages), split(args.schemes), split(args.sizes))


def _prepare(scheme: str, timed: bool) -> Callable[[Any], None]:
    """Before a scene's page loads: its colour scheme, and a timed scene's clock frozen as
    ``open_scene`` does when given no ``prepare`` of its own."""

    def prepare(page: Any) -> None:
        page.emulate_media(color_scheme=scheme)
        if timed:
            page.clock.set_fixed_time(time.time())

    return prepare


def _size(name: str, scale: float) -> dict[str, Any]:
    """A size's browser context, at ``scale`` image pixels per CSS pixel if given."""
    from bench import scenes as screens

    return {**screens.SIZES[name], "device_scale_factor": scale} if scale else screens.SIZES[name]


# Every running animation and transition that ends at its end: a scheme's colours switched
# while the page is open, a deal or a reveal, are shot as they settle (a pulse never ends).
SETTLED = """() => document.fonts.ready
    .then(() => Promise.all(document.getAnimations()
        .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
        .map((a) => Promise.race([a.finished.catch(() => null), new Promise((r) => setTimeout(r, 3000))]))))
    .then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0)))))"""


def _shoot_schemes(page: Any, group: list[Shot], out: Path, full_page: bool) -> int:
    """The open page in each scheme of ``group`` in turn (one page load for all of them)."""
    for shot in group:
        page.emulate_media(color_scheme=shot.scheme)
        page.evaluate(SETTLED)
        target = out / shot.file
        target.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target), full_page=full_page)
    return len(group)


def _shoot_scene(browser: Any, url: str, scene: Any, group: list[Shot], out: Path, args: Any) -> int:
    from bench import scenes as screens

    first = group[0]
    step = MOMENTS[scene.name][first.moment] if first.moment else None
    prepare = _prepare(first.scheme, scene.timed)
    context, page = screens.open_scene(browser, url, scene, _size(first.size, args.scale), prepare)
    try:
        if step is not None:
            step(page)
        return _shoot_schemes(page, group, out, not args.first_screen)
    finally:
        context.close()


def _shoot_page(browser: Any, url: str, group: list[Shot], out: Path, args: Any) -> int:
    """A site page (no room, no session), in the language of its cookie."""
    from django.conf import settings

    first = group[0]
    context = browser.new_context(
        **_size(first.size, args.scale),
        locale="it-IT" if first.language == "it" else "en-GB",
        color_scheme=first.scheme,
    )
    try:
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": first.language, "url": url}])
        page = context.new_page()
        page.goto(f"{url}{first.path}")
        return _shoot_schemes(page, group, out, not args.first_screen)
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # A run stopped with SIGTERM stops its server too (the ``finally`` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    started = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="screenshots-"))
    try:
        _configure(workdir / "screens.sqlite3")
        shots = plan_of(args)
        if args.list:
            print("\n".join(shot.file for shot in shots))
            print(f"{len(shots)} shots", file=sys.stderr)
            return 0
        if not os.path.exists(CHROMIUM):
            print(f"{CHROMIUM} is missing: `sudo apt-get install chromium`", file=sys.stderr)
            return 1
        from django.core.management import call_command
        from django.db import connections

        from bench import scenes as screens
        from bench.scenes import CHROMIUM_ARGS
        from bench.servers import free_port, wait_port

        call_command("migrate", interactive=False, verbosity=0)
        wanted: dict[str, list[str]] = {}
        for shot in shots:
            if not shot.path and shot.name not in wanted.setdefault(shot.language, []):
                wanted[shot.language].append(shot.name)
        scenes = {
            (scene.language, scene.name): scene
            for language, names in wanted.items()
            for scene in screens.build_scenes(language, names=tuple(names))
        }
        connections.close_all()
        print(
            f"seeded {len(scenes)} scenes in {time.monotonic() - started:.1f} s; {len(shots)} shots to take"
        )

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
                # One page load per screen, shot in each scheme (half the loads of one each).
                for _, grouped in itertools.groupby(shots, key=lambda shot: replace(shot, scheme="")):
                    group = list(grouped)
                    try:
                        if group[0].path:
                            count += _shoot_page(browser, url, group, out, args)
                        else:
                            scene = scenes[group[0].language, group[0].name]
                            count += _shoot_scene(browser, url, scene, group, out, args)
                    except Exception as error:  # one broken screen should not lose the others
                        failed += len(group)
                        print(f"{group[0].file}: {error}", file=sys.stderr)
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
