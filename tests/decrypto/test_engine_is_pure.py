"""The engine is plain Python: no Django, no Channels, no clock, no global random."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "decrypto" / "engine"
FORBIDDEN = {"django", "channels", "time", "datetime"}


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def modules() -> list[Path]:
    paths = sorted(ENGINE.glob("**/*.py"))
    assert paths, f"no engine modules under {ENGINE}"
    return paths


def test_engine_imports_neither_django_nor_channels() -> None:
    for path in modules():
        assert not imports(path) & FORBIDDEN, f"{path.name} imports {imports(path) & FORBIDDEN}"


def test_engine_uses_the_standard_library_only() -> None:
    for path in modules():
        outside = {name for name in imports(path) if name not in sys.stdlib_module_names}
        assert outside <= {"__future__"}, f"{path.name} imports {outside}"


def test_engine_never_uses_the_global_random() -> None:
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} calls random.{node.attr}"
            if isinstance(node, ast.ImportFrom) and node.module == "random":
                raise AssertionError(f"{path.name} imports names from random")
