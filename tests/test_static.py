"""Production static files: every ES module import names a hashed file that exists."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.utils.functional import empty

IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}/[^"']+\.js)["']""")
HASHED = re.compile(r"\.[0-9a-f]{12}\.js$")


@pytest.fixture
def collected(settings: Any, tmp_path: Path) -> Path:
    settings.STATIC_ROOT = tmp_path / "static"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
    }
    staticfiles_storage._wrapped = empty  # rebuilt from the settings
    call_command("collectstatic", "--noinput", verbosity=0)
    yield settings.STATIC_ROOT
    staticfiles_storage._wrapped = empty


def test_hashed_modules_import_hashed_modules(collected: Path) -> None:
    manifest = staticfiles_storage.hashed_files  # type: ignore[attr-defined]
    room = collected / manifest["js/room.js"]
    assert HASHED.search(room.name)
    checked = 0
    for source, hashed in manifest.items():
        if not source.endswith(".js") or not HASHED.search(hashed):
            continue
        path = collected / hashed
        for target in IMPORT.findall(path.read_text("utf-8")):
            assert HASHED.search(target), f"{hashed} imports {target} by its plain name"
            assert (path.parent / target).resolve().is_file(), f"{hashed} imports a missing {target}"
            checked += 1
    assert checked >= 3  # room.js alone imports several modules


# A template literal inside another's ${…}: the minifier (rjsmin) reads the inner one as
# code and drops its spaces (`a${b ? ` ${c}` : ""}` became "a${c}" in production).
NESTED_TEMPLATE = re.compile(r"\$\{[^}`]*`")


def test_no_script_nests_a_template_literal_the_minifier_would_change() -> None:
    root = Path(__file__).resolve().parents[1]
    sources = [p for p in root.glob("*/static/**/*.js")] + list((root / "static").rglob("*.js"))
    assert len(sources) > 10
    nested = [f"{path.relative_to(root)}:{number}"
              for path in sources
              for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
              if NESTED_TEMPLATE.search(line)]  # fmt: skip
    assert nested == [], nested


def test_minified_scripts_keep_every_string(collected: Path) -> None:
    """Minifying drops comments and spaces between tokens, never a character of a string."""
    import rjsmin

    line = 'const a = `x  ${b ? " y " : "z"}  w`; // note\nconst c = "a  b"; /* gone */\n'
    assert rjsmin.jsmin(line) == 'const a=`x  ${b ? " y " : "z"}  w`;const c="a  b";'
    room = (collected / staticfiles_storage.hashed_files["js/room.js"]).read_text("utf-8")  # type: ignore[attr-defined]
    source = (Path(__file__).resolve().parents[1] / "static" / "js" / "room.js").read_text("utf-8")
    assert len(room) < 0.8 * len(source) and "\n  " not in room  # minified
