"""The runtime install (requirements.txt, `make install-prod`) carries every package the
app imports, and no test or lint tool is needed to run it."""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ("config", "rooms", "codenames", "decrypto", "bots")
LOCAL = {*APP, "bench", "deploy", "tests", "manage"}
# Build-time only: `bots build` (make bots-data: requirements-build.txt), and the reader
# table's builder and its glosses, run in a venv of their own (make bots-reader).
BUILD_ONLY = {
    ROOT / "bots" / "build.py",
    ROOT / "bots" / "tools" / "build_reader.py",
    ROOT / "bots" / "tools" / "pivot.py",
}


def _names(path: Path) -> set[str]:
    return {re.split(r"[<=>\[ ;]", line.strip())[0].lower().replace("_", "-")
            for line in path.read_text().splitlines()
            if line.strip() and not line.startswith(("#", "-r"))}  # fmt: skip


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - LOCAL - set(sys.stdlib_module_names)


def test_every_app_import_is_a_runtime_requirement() -> None:
    runtime = _names(ROOT / "requirements.txt")
    dev_only = _names(ROOT / "requirements-dev.txt") - runtime
    build = _names(ROOT / "requirements-build.txt")
    owners = packages_distributions()
    checked = 0
    for folder in APP:
        for path in (ROOT / folder).rglob("*.py"):
            if path in BUILD_ONLY or "migrations" in path.parts:
                continue
            for module in _imports(path) - build:
                dists = {d.lower().replace("_", "-") for d in owners.get(module, [])}
                assert dists, f"{path.relative_to(ROOT)} imports {module}, not installed"
                assert not dists & dev_only, f"{path.relative_to(ROOT)} imports {module}, a dev-only package"
                # A package pulled in by a requirement (asgiref by Django) is fine; one that
                # nothing in requirements.txt brings would be missing from a server.
                checked += 1
    assert checked > 20


def test_runtime_requirements_are_pinned_and_name_no_dev_tool() -> None:
    runtime = _names(ROOT / "requirements.txt")
    assert {"django", "channels", "daphne", "prometheus-client"} <= runtime
    assert not runtime & {"pytest", "playwright", "ruff", "mypy", "hypothesis"}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            assert "==" in line, f"not pinned: {line}"


def _runtime_closure() -> set[str]:
    """Every distribution that installing requirements.txt brings (with their extras)."""
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement

    pending = [
        Requirement(line.split("#")[0].strip())
        for line in (ROOT / "requirements.txt").read_text().splitlines()
        if line.split("#")[0].strip() and not line.startswith("-r")
    ]
    visited: set[tuple[str, frozenset[str]]] = set()
    while pending:
        requirement = pending.pop()
        name = _dist(requirement.name)
        if (name, frozenset(requirement.extras)) in visited:
            continue
        visited.add((name, frozenset(requirement.extras)))
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            continue  # not for this platform (a marker): nothing of it is imported here
        for line in requires:
            needed = Requirement(line)
            if needed.marker is None or any(
                needed.marker.evaluate({"extra": extra}) for extra in requirement.extras | {""}
            ):
                pending.append(needed)
    return {name for name, _extras in visited}


def _dist(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_app_import_comes_with_the_runtime_install() -> None:
    """Installed is not enough: a package a dev tool happens to pull in (attrs by
    hypothesis, say) would be missing from a server built by `make install-prod`."""
    closure = _runtime_closure()
    assert {"django", "asgiref", "twisted", "psycopg-binary", "prometheus-client"} <= closure
    owners = packages_distributions()
    missing = []
    for folder in APP:
        for path in (ROOT / folder).rglob("*.py"):
            if path in BUILD_ONLY or "migrations" in path.parts:
                continue
            for module in _imports(path) - _names(ROOT / "requirements-build.txt"):
                dists = {_dist(d) for d in owners.get(module, [])}
                if not dists & closure:
                    missing.append(f"{path.relative_to(ROOT)}: {module} ({', '.join(sorted(dists))})")
    assert not missing, "imported, but not brought by requirements.txt:\n" + "\n".join(missing)
