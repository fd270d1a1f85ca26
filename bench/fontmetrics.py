"""The site font's metric-matched fallback: the numbers of its ``@font-face`` in app.css.

    python -m bench.fontmetrics            # prints the fallback faces
    python -m bench.fontmetrics --write    # and rewrites them in static/css/app.css

While the web font loads (or if it never does) the page is drawn in a local font made to
take the same room: ``size-adjust`` scales the local font so an average line of the site's
text is as wide as in the web font, and the ascent, descent and line-gap overrides give
it the web font's vertical metrics, so nothing moves when the web font arrives.

Measured by the browser the site is tested in (Debian's Chromium, through Playwright),
from the committed font file and the local fonts (fontTools is not a dependency of the
project, and WOFF2 needs Brotli to read in Python): a canvas gives the advance widths and
the ascent and descent the browser uses, a ``line-height: normal`` box the line gap.
Arial's metrics are Liberation Sans's (made metric-compatible), so one face serves both.
"""

from __future__ import annotations

import argparse
import base64
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FONT = ROOT / "static" / "fonts" / "figtree" / "figtree-latin-wght-normal.woff2"
FAMILY = "Figtree"
CSS = ROOT / "static" / "css" / "app.css"
CHROMIUM = "/usr/bin/chromium"
# bench/scenes.py's launch arguments (that module needs Django set up; this one does not).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
# The local fonts a fallback face may stand on, and the names that find them, per weight
# range: a bold line is wider than a regular one by a different factor in each family, so the
# bold text (buttons, headings, labels) gets its own face, matched at Figtree's 700.
FALLBACKS: dict[tuple[str, int], list[str]] = {
    ("300 549", 400): ["Arial", "ArialMT", "Liberation Sans", "LiberationSans", "Arimo"],
    ("550 900", 700): [
        "Arial Bold",
        "Arial-BoldMT",
        "Liberation Sans Bold",
        "LiberationSans-Bold",
        "Arimo Bold",
    ],
}
# Android has no Arial: its own sans, Roboto, gets faces of its own, the next family in the
# stack (where Arial exists its face is used first). Roboto is not on the machines we test
# on, so it is measured from its files: `npm pack @fontsource/roboto`, unpacked, and
# `--roboto <package>/files`; without it, the Roboto faces already in app.css are kept.
ROBOTO: dict[tuple[str, int], tuple[list[str], str]] = {
    ("300 549", 400): (["Roboto", "Roboto Regular", "Roboto-Regular"], "roboto-latin-400-normal.woff2"),
    ("550 900", 700): (["Roboto Bold", "Roboto-Bold"], "roboto-latin-700-normal.woff2"),
}
# What the site's text is made of: every English source string and its translations in the
# four other languages (the catalogues), so the widths are matched on the words people read.
LOCALE = ROOT / "locale"


def sample_text() -> str:
    import polib

    texts: list[str] = []
    for catalogue in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        for entry in polib.pofile(str(catalogue)).translated_entries():
            if catalogue.parent.parent.name == "it":  # the English once, beside the Italian
                texts.append(entry.msgid)
            texts.append(entry.msgstr)
    # Placeholders are not text: "%(name)s", "{n}".
    return re.sub(r"%\(\w+\)[sd]|\{\w*\}|<[^>]+>", "", " ".join(texts))


BEGIN = "/* fallback faces: python -m bench.fontmetrics --write */"
END = "/* end of fallback faces */"

MEASURE_JS = """async ([sample, family, local, weight]) => {
  const size = 1000;
  await document.fonts.load(`${weight} ${size}px "${family}"`, sample);
  const canvas = document.createElement("canvas").getContext("2d");
  const measure = (font) => {
    canvas.font = `${weight} ${size}px ${font}`;
    const m = canvas.measureText(sample);
    const box = document.createElement("span");
    box.style.cssText = `font: ${weight} ${size}px/normal ${font}; display: inline-block`;
    box.textContent = "Hg";
    document.body.append(box);
    const height = box.getBoundingClientRect().height;
    box.remove();
    return { width: m.width, ascent: m.fontBoundingBoxAscent, descent: m.fontBoundingBoxDescent, height };
  };
  return { web: measure(`"${family}"`), local: measure(`"${local}"`), size };
}"""


def _data_url(path: Path) -> str:
    return f"url(data:font/woff2;base64,{base64.b64encode(path.read_bytes()).decode()}) format('woff2')"


def measure(browser: Any, source: str, weight: int) -> dict[str, Any]:
    """The web font's and another font's metrics at 1000 px and ``weight``, as the browser
    reads them (``source``: a local() or url(); the face is declared at that weight, so it is
    not synthesised)."""
    data = base64.b64encode(FONT.read_bytes()).decode()
    page = browser.new_page()
    try:
        page.set_content(
            f"<style>@font-face {{ font-family: '{FAMILY}'; font-weight: 300 900;"
            f" src: url(data:font/woff2;base64,{data}) format('woff2'); }}</style>"
            f"<style>@font-face {{ font-family: 'Probe'; font-weight: {weight};"
            f" src: {source}; }}</style><body></body>"
        )
        result: dict[str, Any] = page.evaluate(MEASURE_JS, [sample_text(), FAMILY, "Probe", weight])
        return result
    finally:
        page.close()


def _face(browser: Any, family: str, weights: str, weight: int, locals_: list[str], source: str) -> str:
    """A fallback face: the local font resized to the web font's metrics."""
    m = measure(browser, source, weight)
    web, local, size = m["web"], m["local"], m["size"]
    adjust = web["width"] / local["width"]
    # Overrides are fractions of the used font size, which size-adjust has already scaled.
    ascent = web["ascent"] / size / adjust
    descent = web["descent"] / size / adjust
    gap = max(0.0, web["height"] - web["ascent"] - web["descent"]) / size / adjust
    sources = ", ".join(f'local("{local_name}")' for local_name in locals_)
    return (
        f'@font-face {{ font-family: "{family}"; font-weight: {weights}; src: {sources};\n'
        f"  size-adjust: {adjust * 100:.2f}%; ascent-override: {ascent * 100:.2f}%;"
        f" descent-override: {descent * 100:.2f}%; line-gap-override: {gap * 100:.2f}%; }}"
    )


def fallback_css(browser: Any, roboto: Path | None) -> str:
    """One ``@font-face`` per fallback and weight range."""
    faces = [BEGIN]
    for (weights, weight), locals_ in FALLBACKS.items():
        found = next((local for local in locals_ if _present(browser, local)), None)
        if found is None:
            raise SystemExit(f"no local font for weight {weight}: tried {', '.join(locals_)}")
        faces.append(_face(browser, f"{FAMILY} Fallback", weights, weight, locals_, f"local('{found}')"))
    if roboto is None:
        kept = re.findall(
            r'@font-face \{ font-family: "' + FAMILY + r' Fallback Roboto".*?\}', CSS.read_text("utf-8"), re.S
        )
        faces.extend(kept)
    else:
        for (weights, weight), (locals_, name) in ROBOTO.items():
            faces.append(
                _face(
                    browser, f"{FAMILY} Fallback Roboto", weights, weight, locals_, _data_url(roboto / name)
                )
            )
    faces.append(END)
    return "\n".join(faces)


def _present(browser: Any, local: str) -> bool:
    page = browser.new_page()
    try:
        page.set_content(f"<style>@font-face {{ font-family: 'Probe'; src: local('{local}'); }}</style>")
        script = "() => document.fonts.load('16px Probe').then((faces) => faces.length > 0, () => false)"
        return bool(page.evaluate(script))
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help="rewrite the faces in static/css/app.css")
    parser.add_argument("--roboto", type=Path, help="the files/ folder of the @fontsource/roboto package")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            css = fallback_css(browser, args.roboto)
        finally:
            browser.close()
    print(css)
    if args.write:
        text = CSS.read_text("utf-8")
        block = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
        if not block.search(text):
            print(f"{CSS} has no fallback block to replace", file=sys.stderr)
            return 1
        CSS.write_text(block.sub(lambda _: css, text), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
