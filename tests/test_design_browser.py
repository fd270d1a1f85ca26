"""The design system's budgets in a real browser: nothing moves when the font arrives, and
the home page and a room page are axe-clean in the light and the dark colour scheme."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from bench.scenes import PHONE, build_scene, in_thread
from tests.conftest import close_and_settle
from tests.test_screens import SIZE_OF, axe_violations, show  # noqa: F401  (show: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
_NUMBERS = itertools.count(1)

FONT = "**/fonts/figtree/*.woff2"
# Layout shift score (the browser's own, as Core Web Vitals counts it) while the font arrives:
# "good" for a whole page's life is 0.1; the font's swap alone should cost next to nothing.
MAX_SHIFT = 0.01

OBSERVE_JS = """() => {
  window.__shifts = [];
  const box = (r) => [r.x, r.y, r.width, r.height].map(Math.round).join(",");
  const name = (node) => (node ? node.nodeName + (node.className ? "." + node.className : "") : "?");
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      const moved = entry.sources.map((s) => `${name(s.node)} ${box(s.previousRect)}->${box(s.currentRect)}`);
      window.__shifts.push({ value: entry.value, moved: moved.join(" | ") });
    }
  }).observe({ type: "layout-shift", buffered: true });
}"""
FRAMES_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(0))))"
FIRST_PAINT_JS = "() => performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint')"
# The exact width of the page's text in its current font (a box's width would not change).
TEXT_WIDTH_JS = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector("main"));
  return [...range.getClientRects()].reduce((sum, rect) => sum + rect.width, 0);
}"""
HELD_JS = """() => [...document.fonts].every(
  (f) => f.family.replace(/"/g, "") !== "Figtree" || f.status !== "loaded")"""
SWAPPED_JS = """() => document.fonts.ready.then(() => [...document.fonts].some(
  (f) => f.family.replace(/"/g, "") === "Figtree" && f.status === "loaded"))"""


class HeldFont:
    """Holds the font's request until ``release``: the page is laid out in the fallback first."""

    def __init__(self) -> None:
        self.routes: list[Any] = []

    def __call__(self, route: Any) -> None:
        self.routes.append(route)

    def release(self, page: Any) -> None:
        for _ in range(200):  # the preload is sent with the page's first bytes
            if self.routes:
                break
            page.wait_for_timeout(25)
        assert self.routes, "the page asked for its font"
        for route in self.routes:
            route.continue_()


def _without_fallback(route: Any) -> None:
    """app.css with the metric-matched face swapped for an unmatched one (the browser's
    monospace, far wider than Figtree): the control. Leaving it out alone is too weak a
    control here: this machine's system-ui is Liberation Sans, the matched face's own
    source without its size adjustments, and whether that rewraps a line is luck."""
    response = route.fetch()
    css = response.text().replace('"Figtree Fallback", ', "monospace, ")
    route.fulfill(response=response, body=css)


def font_swap_shift(
    page: Any, open_page: Callable[[], None], *, control: bool = False
) -> tuple[float, list[str]]:
    """The page's layout shift (the browser's Layout Instability score) from its layout in the
    fallback, the font held back, to the font's arrival; and what moved."""
    held = HeldFont()
    page.route(FONT, held)
    if control:
        page.route("**/css/app.css", _without_fallback)
    page.add_init_script(f"({OBSERVE_JS})()")
    open_page()
    # Painted in the fallback, the font still held (a layout shift is only counted for what
    # was on screen: before the first paint there is nothing to shift).
    page.wait_for_function(FIRST_PAINT_JS)
    page.evaluate(FRAMES_JS)
    assert page.evaluate(HELD_JS), "the font was held"
    page.evaluate(FRAMES_JS)
    before = page.evaluate("() => window.__shifts.length")
    text_before = page.evaluate(TEXT_WIDTH_JS)
    held.release(page)
    assert page.evaluate(SWAPPED_JS), "the web font arrived and was used"
    page.evaluate(FRAMES_JS)
    page.evaluate(FRAMES_JS)
    # The measure saw the swap: the same text is drawn at another width in the web font.
    assert page.evaluate(TEXT_WIDTH_JS) != text_before, "the page was not laid out in the fallback first"
    shifts: list[dict[str, Any]] = page.evaluate("() => window.__shifts")[before:]
    return sum(shift["value"] for shift in shifts), [
        f"{shift['value']:.4f} {shift['moved']}" for shift in shifts
    ]


def _home(browser: Any, url: str, size: str, control: bool) -> tuple[float, list[str]]:
    context = browser.new_context(**SIZE_OF[size])
    try:
        page = context.new_page()
        return font_swap_shift(
            page, lambda: page.goto(url + "/", wait_until="domcontentloaded"), control=control
        )
    finally:
        context.close()


def _room(browser: Any, url: str, name: str, control: bool) -> tuple[float, list[str]]:
    """A seated player's room page, drawn by the page's script from the socket's first state."""
    scene = in_thread(lambda: build_scene(name, "en", suffix=f"font{next(_NUMBERS)}"))
    context = browser.new_context(**PHONE)
    context.add_cookies(scene.cookies(url))
    try:
        page = context.new_page()

        def open_room() -> None:
            page.goto(scene.url(url), wait_until="domcontentloaded")
            page.wait_for_selector("#conn[data-state='open']", timeout=10000)
            page.wait_for_selector(scene.ready, state="attached", timeout=10000)

        return font_swap_shift(page, open_room, control=control)
    finally:
        close_and_settle(context.close, [scene.slug])


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_nothing_moves_when_the_font_arrives_on_the_home_page(
    browser: Any, daphne_server: Any, size: str
) -> None:
    """With the fallback faces (Arial/Liberation Sans, regular and bold, resized to Figtree's
    metrics) the swap shifts the page by less than MAX_SHIFT."""
    shift, moved = _home(browser, daphne_server.url, size, control=False)
    print(f"\nhome {size}: layout shift at the font's swap {shift:.4f}")
    assert shift < MAX_SHIFT, moved


# decrypto-intercept: its token counters sat at the edge of their line on a phone, one 3 px
# wider in Figtree than in the fallback, and wrapped at the swap (0.13) until they kept their line.
@pytest.mark.parametrize(
    "name",
    ["codenames-lobby-seated", "decrypto-lobby-seated", "codenames-operative-guess", "decrypto-intercept"],
)
def test_nothing_moves_when_the_font_arrives_in_a_room(browser: Any, daphne_server: Any, name: str) -> None:
    shift, moved = _room(browser, daphne_server.url, name, control=False)
    print(f"\n{name}: layout shift at the font's swap {shift:.4f}")
    assert shift < MAX_SHIFT, moved


@pytest.mark.parametrize("size", ["laptop"])
def test_the_shift_measure_sees_a_font_swap_without_the_fallback_faces(
    browser: Any, daphne_server: Any, size: str
) -> None:
    """The control: the home page with an unmatched face in place of the metric-matched one
    shifts by more than MAX_SHIFT at the swap (lines rewrap and the game cards move), so the
    budget above can fail."""
    shift, moved = _home(browser, daphne_server.url, size, control=True)
    print(f"\nan unmatched fallback face: home ({size}) {shift:.4f}")
    assert shift > MAX_SHIFT, moved


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_home_page_is_axe_clean_in_both_colour_schemes(
    browser: Any, daphne_server: Any, scheme: str, size: str
) -> None:
    context = browser.new_context(**SIZE_OF[size], color_scheme=scheme)
    try:
        page = context.new_page()
        page.goto(daphne_server.url + "/")
        page.evaluate("() => document.fonts.ready")
        assert axe_violations(page) == [], (scheme, size)
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    "name",
    [
        "codenames-lobby-seated",
        "codenames-spymaster-clue",
        # the "tap again" hint on a proposed card, and covered cards beside it
        "codenames-operative-guess",
        # the key shown whole, covered cards and the winner's banner
        "codenames-game-over",
        "decrypto-intercept",
        "decrypto-lobby-seated",
        "decrypto-game-over",
    ],
)
def test_room_page_is_axe_clean_in_both_colour_schemes(show: Any, name: str, scheme: str) -> None:  # noqa: F811
    _scene, page = show(name, "phone", "en", prepare=lambda page: page.emulate_media(color_scheme=scheme))
    assert page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    assert axe_violations(page) == [], (name, scheme)


# The lowest WCAG contrast of the matching elements' text colour against the nearest opaque
# background colour behind each (a card's paper under its gradients: axe leaves text on a
# gradient unchecked).
CONTRAST_JS = """(selector) => Math.min(...[...document.querySelectorAll(selector)].map((el) => {
  // (nothing found: Infinity, which the tests' upper bound of 21:1 fails)
  const paint = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
  // Any CSS colour (rgb(), color(srgb ...) from color-mix) as its 0-255 channels.
  const rgb = (c) => { paint.clearRect(0, 0, 1, 1); paint.fillStyle = c; paint.fillRect(0, 0, 1, 1);
    return [...paint.getImageData(0, 0, 1, 1).data].slice(0, 3); };
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => [r, g, b].map(lin)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let back = el;
  const clear = (c) => c === "rgba(0, 0, 0, 0)" || c === "transparent";
  while (back && clear(getComputedStyle(back).backgroundColor)) back = back.parentElement;
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(getComputedStyle(back).backgroundColor))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_tap_again_on_a_proposed_card_reads_in_both_colour_schemes(show: Any, scheme: str) -> None:  # noqa: F811
    """The operative's own proposal says "tap again" on the card: printed in the card's ink,
    not the page's muted grey (1.1:1 on the dark scheme's paper), and the scene stays axe-clean."""

    def dark_or_light(page: Any) -> None:
        page.emulate_media(color_scheme=scheme)

    scene, page = show("codenames-operative-guess", "phone", "en", prepare=dark_or_light)
    card = f".board .card[data-position='{scene.extra['target']}']"
    page.click(card)
    page.wait_for_selector(f"{card}.mine .hint", timeout=5000)
    ratio = page.evaluate(CONTRAST_JS, f"{card} .hint")
    print(f"\n'tap again' on a proposed card ({scheme}): {ratio:.2f}:1")
    assert 4.5 <= ratio < 22, (scheme, ratio)
    assert axe_violations(page) == [], scheme


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_notes_sheet_is_written_in_ink_in_both_colour_schemes(show: Any, scheme: str) -> None:  # noqa: F811
    """The opponents' notes sheet is paper in both schemes: its round tags (R1, R2) and the
    notes typed on it are ink, not the page's light text colours of the dark scheme."""

    def dark_or_light(page: Any) -> None:
        page.emulate_media(color_scheme=scheme)

    _scene, page = show("decrypto-intercept", "phone", "en", prepare=dark_or_light)
    for selector in (".dc-sheet-opp .dc-round-tag", ".dc-sheet-opp .dc-note"):
        ratio = page.evaluate(CONTRAST_JS, selector)
        print(f"\n{selector} ({scheme}): {ratio:.2f}:1")
        assert 4.5 <= ratio < 22, (scheme, selector, ratio)
