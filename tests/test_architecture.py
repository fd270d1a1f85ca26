"""The house keeps its own rules (issue 19): rooms/ is the ground floor, a game is a
plug-in, engines are pure.

- No module of rooms/ imports a game or the bots, even inside a function.
- Nor the project's config/ (settings reach it through django.conf.settings): the ground
  floor has no arrow back up.
- rooms/ has no import circle (imports inside functions count).
- Outside the game apps, the bots and the tests' own game, no product file names a game,
  but INSTALLED_APPS: a third game touches that line and nothing else.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("codenames", "decrypto")
ABOVE_ROOMS = ("codenames", "decrypto", "bots", "tests")


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if node.module == "rooms":
                found |= {f"rooms.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def _rooms_modules() -> dict[str, set[str]]:
    return {
        f"rooms.{path.stem}": _imports(path)
        for path in (ROOT / "rooms").glob("*.py")
        if path.stem != "__init__"
    }


def test_rooms_imports_no_game_and_no_bot() -> None:
    upward = {
        module: sorted(name for name in names if name.split(".")[0] in ABOVE_ROOMS)
        for module, names in _rooms_modules().items()
    }
    assert {module: names for module, names in upward.items() if names} == {}


def test_rooms_imports_nothing_of_config() -> None:
    modules = {f"rooms.{path.relative_to(ROOT / 'rooms').with_suffix('').as_posix().replace('/', '.')}": path
               for path in (ROOT / "rooms").rglob("*.py")}  # fmt: skip
    upward = {
        module: sorted(name for name in _imports(path) if name == "config" or name.startswith("config."))
        for module, path in modules.items()
    }
    assert {module: names for module, names in upward.items() if names} == {}


def test_rooms_has_no_import_circle() -> None:
    graph = {
        m: {n for n in names if n in _rooms_modules() and n != m} for m, names in _rooms_modules().items()
    }
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for name in sorted(graph[module]):
            visit(name, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])


def _code_of_python(path: Path) -> str:
    """The file without its comments and docstrings: what it does, not what it says."""
    kept: list[str] = []
    previous = tokenize.INDENT
    for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        if token.type == tokenize.COMMENT:
            continue
        if token.type == tokenize.STRING and previous in (tokenize.INDENT, tokenize.NEWLINE, tokenize.DEDENT):
            continue  # a docstring
        kept.append(token.string)
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
    return " ".join(kept)


def _code_of(path: Path) -> str:
    if path.suffix == ".py":
        return _code_of_python(path)
    text = path.read_text("utf-8")
    if path.suffix in (".js", ".css"):
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        text = re.sub(r"(^|[^:])//[^\n]*", r"\1", text)
    if path.suffix == ".html":
        text = re.sub(r"\{#.*?#\}|<!--.*?-->", "", text, flags=re.S)
    return text


def test_no_product_file_outside_the_games_names_a_game() -> None:
    named: dict[str, list[str]] = {}
    for folder in ("rooms", "config", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".html", ".js", ".css") or "migrations" in path.parts:
                continue
            code = _code_of(path)
            if path == ROOT / "config" / "settings.py":
                code = re.sub(r'"(codenames|decrypto)"\s*,', "", code)  # INSTALLED_APPS
            found = sorted({m.lower() for m in re.findall("|".join(GAMES), code, re.I)})
            if found:
                named[str(path.relative_to(ROOT))] = found
    assert named == {}
