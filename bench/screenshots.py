"""Every screen of both games, for every role, as PNGs for people to review.

    python -m bench.screenshots                   # English and Italian, phone and laptop (+ TV)
    python -m bench.screenshots --languages en --out /tmp/shots

Seeds each scene of ``bench/scenes.py`` (``tests/test_screens.py`` checks the same
scenes) in a throwaway SQLite database, serves it with
the production command (Daphne, in-memory channel layer, no game clock so no timer
moves a scene on) and writes ``<out>/<language>/<size>/<scene>.png`` (full page).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out", default=str(ROOT / "screenshots"), help="output folder (default: screenshots/)"
    )
    parser.add_argument("--languages", default="en,it", help="comma-separated (default: en,it)")
    parser.add_argument("--scenes", default="", help="comma-separated scene names (default: all)")
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
        languages = [lang for lang in args.languages.split(",") if lang]
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
                for scene in scenes:
                    for size in screens.iter_sizes(scene):
                        target = out / scene.language / size / f"{scene.name}.png"
                        target.parent.mkdir(parents=True, exist_ok=True)
                        try:
                            context, page = screens.open_scene(browser, url, scene, screens.SIZES[size])
                            try:
                                page.screenshot(path=str(target), full_page=True)
                                count += 1
                            finally:
                                context.close()
                        except Exception as error:  # one broken scene should not lose the others
                            failed += 1
                            print(f"{scene.language}/{size}/{scene.name}: {error}", file=sys.stderr)
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
