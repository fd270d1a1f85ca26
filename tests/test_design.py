"""The design system (docs/design.md) holds: one :root block of tokens in static/css/app.css,
light and dark; every documented text/background pair at WCAG AA in both; motion off under
prefers-reduced-motion; the font served by the app with its licence and a metric-matched
fallback; the mark, the icons and the web manifest."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[1]
CSS = (ROOT / "static" / "css" / "app.css").read_text("utf-8")

# Names other stylesheets (every game's, the helpers') rely on: renaming one breaks them.
KEPT = """--bg --surface --surface-2 --text --muted --border --accent --accent-text --accent-strong --danger
    --ok --red --red-soft --blue --blue-soft --white-team --black-team --neutral --assassin --radius --gap
    --tap --font""".split()
ADDED = """--fs-sm --fs-md --fs-lg --fs-xl --fs-2xl --space-1 --space-2 --space-3 --space-4 --space-5
    --space-6 --radius-sm --radius-lg --shadow-1 --shadow-2 --shadow-3 --ease --dur-fast --dur --dur-slow
    --paper --ink
    --font-display --red-fill --blue-fill""".split()
# Colour tokens every scheme must define (the dark block may leave some to the light one).
COLOURS = """--bg --surface --surface-2 --text --muted --border --border-strong --accent --accent-text
    --accent-strong --danger --ok --red --red-soft --blue --blue-soft --neutral --paper --ink""".split()
# The pairs that must be in the stylesheet's list: body text everywhere, the accent, both teams.
REQUIRED_PAIRS = {("text", "bg"), ("text", "surface"), ("muted", "surface"), ("accent-text", "accent"),
                  ("red", "surface"), ("blue", "surface"), ("white", "red-fill"), ("white", "blue-fill"),
                  ("ink", "paper"), ("border-strong", "surface")}  # fmt: skip
NAMED = {"white": "#ffffff", "black": "#000000"}


def _declarations(block: str) -> dict[str, str]:
    block = re.sub(r"/\*.*?\*/", "", block, flags=re.S)
    return {name: value.strip() for name, value in re.findall(r"(--[a-z0-9-]+)\s*:\s*([^;]+);", block)}


def _root_blocks() -> tuple[dict[str, str], dict[str, str], str]:
    """The light tokens (the first top-level :root), the dark ones (the :root inside the
    prefers-color-scheme: dark query), and the light block's text with its comments."""
    light = re.search(r"^:root \{(.*?)^\}", CSS, flags=re.S | re.M)
    dark = re.search(
        r"@media \(prefers-color-scheme: dark\) \{\s*(?:/\*.*?\*/\s*)?:root \{(.*?)\}", CSS, flags=re.S
    )
    assert light and dark, "app.css has a top-level :root block and a dark one"
    return _declarations(light.group(1)), _declarations(dark.group(1)), light.group(1)


def _luminance(colour: str) -> float:
    colour = NAMED.get(colour, colour).lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    assert re.fullmatch(r"[0-9a-fA-F]{6}", colour), f"not an opaque hex colour: {colour}"
    channels = [int(colour[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two hex colours."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _pairs(comment: str, heading: str) -> list[tuple[str, str]]:
    """The "x on y" pairs listed after ``heading`` in the :root block's comment."""
    text = re.sub(r"\s+", " ", comment)
    listed = re.search(re.escape(heading) + r"(.*?)\.", text)
    assert listed, f"the :root comment lists the pairs after {heading!r}"
    return [
        tuple(part.strip() for part in pair.split(" on "))  # type: ignore[misc]
        for pair in listed.group(1).split(",")
        if " on " in pair
    ]


def _value(tokens: dict[str, str], name: str) -> str:
    return NAMED.get(name) or tokens[f"--{name}"]


def test_contrast_helper_matches_known_ratios() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # the AA grey
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


def test_tokens_keep_every_old_name_and_add_the_system() -> None:
    light, dark, _comment = _root_blocks()
    missing = [name for name in KEPT + ADDED + COLOURS if name not in light]
    assert missing == [], missing
    assert set(dark) <= set(light), f"dark-only tokens: {set(dark) - set(light)}"
    assert light["--fs-sm"] == "14px" and light["--fs-md"] == "16px"
    spaces = [light[f"--space-{n}"] for n in range(1, 7)]
    assert spaces == ["4px", "8px", "12px", "16px", "24px", "32px"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_documented_text_pair_meets_wcag_aa(scheme: str) -> None:
    """4.5:1 for every text pair listed in the :root comment, 3:1 for the UI pairs (an
    input's edge, a team's border, the focus ring against the page)."""
    light, dark, comment = _root_blocks()
    tokens = {**light, **dark} if scheme == "dark" else light
    text_pairs = _pairs(comment, "Pairs held to AA:")
    ui_pairs = _pairs(comment, "UI (3:1):")
    assert REQUIRED_PAIRS <= set(text_pairs) | set(ui_pairs), REQUIRED_PAIRS - set(text_pairs) - set(ui_pairs)
    failing = [
        f"{fg} on {bg}: {ratio:.2f} < {minimum}"
        for pairs, minimum in ((text_pairs, 4.5), (ui_pairs, 3.0))
        for fg, bg in pairs
        if (ratio := contrast(_value(tokens, fg), _value(tokens, bg))) < minimum
    ]
    assert failing == [], (scheme, failing)


def test_the_contrast_check_fails_a_pair_below_aa() -> None:
    """The check is not vacuous: the old muted grey on the old dark surface-2 was 6.3, a
    pale red under white text is far below 4.5."""
    assert contrast("#ffffff", "#ff7b6e") < 4.5
    assert contrast("#a6adba", "#2a2f39") > 4.5


def test_motion_stops_under_reduced_motion() -> None:
    query = re.search(r"@media \(prefers-reduced-motion: reduce\) \{ :root \{([^}]*)\} \}", CSS)
    assert query, "a reduced-motion :root block"
    durations = _declarations(query.group(1))
    assert durations == {"--dur-fast": "0ms", "--dur": "0ms", "--dur-slow": "0ms"}


def test_font_is_served_with_its_licence_and_a_metric_matched_fallback() -> None:
    face = re.search(r'@font-face \{ font-family: "Figtree";(.*?)\}', CSS, flags=re.S)
    assert face, "the web font's face"
    source = re.search(r'url\("\.\./(fonts/[^"]+\.woff2)"\)', face.group(1))
    assert source and "font-display: swap" in face.group(1)
    font = ROOT / "static" / source.group(1)
    assert font.is_file() and font.stat().st_size < 40_000
    assert (font.parent / "OFL.txt").read_text("utf-8").count("SIL Open Font License") >= 1
    assert len([p for p in font.parent.iterdir() if p.suffix in (".woff2", ".woff", ".ttf")]) <= 2
    fallback = re.search(r'@font-face \{ font-family: "Figtree Fallback";(.*?)\}', CSS, flags=re.S)
    assert fallback, "the fallback face"
    for descriptor in ("size-adjust", "ascent-override", "descent-override", "line-gap-override"):
        assert re.search(descriptor + r": \d+\.\d+%", fallback.group(1)), descriptor
    assert 'local("Arial")' in fallback.group(1) and 'local("Liberation Sans")' in fallback.group(1)
    # Android has no Arial: Roboto stands in, with faces of its own, next in the stack.
    roboto = re.findall(r'@font-face \{ font-family: "Figtree Fallback Roboto";(.*?)\}', CSS, flags=re.S)
    assert len(roboto) == 2 and all('local("Roboto' in face and "size-adjust" in face for face in roboto)
    light, _dark, _comment = _root_blocks()
    assert light["--font"].startswith('"Figtree", "Figtree Fallback", "Figtree Fallback Roboto"')
    base = (ROOT / "templates" / "base.html").read_text("utf-8")
    assert f'{{% static \'{source.group(1)}\' %}}" as="font"' in base and "crossorigin" in base


@pytest.mark.django_db
def test_manifest_makes_the_site_an_app_with_its_icons() -> None:
    client = Client()
    page = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert "apple-touch-icon" in page and "<title>Wordrooms" in page and "Word game rooms" not in page
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert (
        manifest["name"] == "Wordrooms"
        and manifest["display"] == "standalone"
        and manifest["start_url"] == "/"
    )
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and manifest["background_color"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for name, side in (("icon-192.png", 192), ("icon-512.png", 512), ("apple-touch-icon.png", 180)):
        data = (ROOT / "static" / "img" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 30_000, name
        assert int.from_bytes(data[16:20], "big") == side and int.from_bytes(data[20:24], "big") == side, name


@pytest.mark.django_db
def test_room_page_title_ends_with_the_site_name() -> None:
    page = Client().get("/r/title-check/").content.decode()
    assert re.search(r"<title>title-check · [^<]+ · Wordrooms</title>", page), page[:600]


@pytest.mark.django_db
def test_design_sheet_shows_every_token_and_component() -> None:
    """/design/ (linked from nowhere) shows each token of app.css with its light and dark
    value, and each component's class."""
    from rooms.design import tokens

    page = Client().get("/design/").content.decode()
    every = tokens()
    assert len(every) >= 50
    for token in every:
        if token.name != "--chevron":  # a drawing (the select's arrow), shown by every select
            assert f"<code>{token.name}</code>" in page, token.name
    components = ("primary", "danger", "ghost", "chip", "badge", "person me", "conn", "seat-label seat-red",
                  "panel", "team team-red", "room-bar panel", "toast show",
                  "turn-banner show mine")  # fmt: skip
    for component in components:
        assert f'class="{component}' in page, component


# Every stylesheet the app serves (the site's, each game's).
STYLESHEETS = sorted(
    path
    for folder in ("static/css", "codenames/static/css", "decrypto/static/css")
    for path in (ROOT / folder).glob("*.css")
)


def _team_fills(css: str) -> list[str]:
    """Declarations painting an area (background, SVG fill) with the team's text colour
    --red/--blue, which is light in the dark scheme: white text or a symbol on it fails AA."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    return [
        match.group(0)
        for match in re.finditer(r"(?:background(?:-color)?|fill)\s*:[^;}]*var\(--(?:red|blue)\)[^;}]*", css)
    ]


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda path: path.name)
def test_team_areas_are_painted_with_the_fill_colours(path: Path) -> None:
    """A team's area (a covered card, a banner, a chip, a key's square) is --red-fill or
    --blue-fill, dark in both schemes, so white text and symbols read on it; --red and --blue
    are for text and lines on the page."""
    assert _team_fills(path.read_text("utf-8")) == [], path.name


def test_the_team_fill_check_finds_a_light_team_background() -> None:
    assert _team_fills(".x { color: #fff; background: var(--red); }") == ["background: var(--red)"]
    fine = ".y { background: var(--red-fill); border: 1px solid var(--red); color: var(--blue); }"
    assert _team_fills(".x { fill: var(--blue); } " + fine) == ["fill: var(--blue)"]
