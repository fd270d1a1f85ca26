"""The engine is standard-library Python: no Django, no Channels (see ARCHITECTURE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "codenames" / "engine"
FORBIDDEN = {"django", "channels", "daphne", "asgiref"}
CLOCKS = {"time", "datetime"}  # "now" is always an argument


def imported_modules(source: str) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module)
    return modules


def test_engine_imports_no_django_or_channels() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 5  # the walk really found the engine
    offenders = {
        f"{path.name}: {module}"
        for path in files
        for module in imported_modules(path.read_text(encoding="utf-8"))
        if module.split(".")[0] in FORBIDDEN
    }
    assert offenders == set()


def test_import_check_catches_a_django_import() -> None:
    assert "django.db" in imported_modules("from django.db import models\nimport json")
    assert "channels.layers" in imported_modules("import channels.layers as layers")


def test_engine_reads_no_clock_and_no_global_random() -> None:
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not {m.split(".")[0] for m in imported_modules(ast.unparse(tree))} & CLOCKS, path.name
        random_uses = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        }
        from_random = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "random"
            for alias in node.names
        }
        assert random_uses | from_random <= {"Random"}, path.name  # only seeded generators
