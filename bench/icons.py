"""The app icons, drawn from the mark: static/img/icon.svg to the PNGs a phone asks for.

    python -m bench.icons      # writes static/img/icon-192.png, icon-512.png, apple-touch-icon.png

The PNGs are full-bleed squares (a home screen cuts its own shape: iOS rounds the corners,
Android may cut a circle), the mark's cards shrunk into the middle 80 % so no mask cuts
them ("purpose": "any maskable" in the manifest). Rendered by Debian's Chromium through
Playwright, as the browser tests are, then committed: the app never renders them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = ROOT / "static" / "img" / "icon.svg"
OUT = ROOT / "static" / "img"
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180}
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
# The mark's tile: its first shape, the rest drawn on it.
TILE = re.compile(r'(<rect width="64" height="64") rx="\d+"( fill="[^"]+"/>)')


def full_bleed(svg: str) -> str:
    """The mark as a square tile with its drawing scaled into the maskable safe zone."""
    match = TILE.search(svg)
    if match is None:
        raise SystemExit(f"{MARK} does not start with its 64×64 tile")
    head, tail = svg[: match.end()], svg[match.end() :]
    head = TILE.sub(r"\1\2", head)
    body, close = tail.rsplit("</svg>", 1)
    return f'{head}<g transform="translate(32 32) scale(.8) translate(-32 -32)">{body}</g></svg>{close}'


def main() -> int:
    from playwright.sync_api import sync_playwright

    svg = full_bleed(MARK.read_text("utf-8"))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for name, size in SIZES.items():
                page = browser.new_page(viewport={"width": size, "height": size})
                sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
                page.set_content(f"<style>body{{margin:0}} svg{{display:block}}</style>{sized}")
                page.screenshot(path=str(OUT / name), omit_background=True)
                page.close()
                print(f"{name}: {(OUT / name).stat().st_size} bytes")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
