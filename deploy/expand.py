"""Expand-only migrations: a release's schema must suit the previous release's code.

During an upgrade the new release's ``migrate`` runs while the previous release serves
(docs/operations.md "Upgrades"), and a rollback runs the previous release on the new
schema. So a migration that is not yet released may only *expand* the schema:

- new tables; a relation from a new table (or a new column) to an existing table without
  a database constraint (``db_constraint=False``), or the previous code could no longer
  delete the rows it points at;
- new columns that the previous code's inserts can leave out: ``null=True`` or a
  ``db_default`` (a Python ``default`` alone is not in the table: the previous code's
  INSERT names no such column and fails on NOT NULL, issue 31's ``steps``);
- indexes added or removed, constraints on new tables, changes of options Django keeps
  in its state only, data migrations (``RunPython``);
- a changed column only when it keeps its type and loosens (gains ``null`` or a
  ``db_default``);
- ``SeparateDatabaseAndState`` when its database operations are expand-only (how a
  release stops using a column: the field leaves the models and the state, the column
  stays, nullable or with a ``db_default``).

Anything else (a column or table dropped or renamed, a type changed, ``RunSQL``) is a
*contract* step: it may come one release after the code stopped reading what it drops,
and its migration says so with ``contract = True``; ``make upgrade-check`` then proves
the previous release still runs on the result.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import connection
from django.db.migrations import operations as ops
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.migration import Migration
from django.db.migrations.state import ProjectState
from django.db.models import NOT_PROVIDED, Field

ROOT = Path(__file__).resolve().parent.parent

# Operations that change nothing the previous code reads or writes.
HARMLESS = (
    ops.AddIndex,
    ops.RemoveIndex,
    ops.RenameIndex,
    ops.RemoveConstraint,
    ops.AlterModelOptions,
    ops.AlterModelManagers,
    ops.RunPython,
)


@dataclass(frozen=True)
class Problem:
    migration: str  # "app.0007_name"
    operation: str
    why: str

    def __str__(self) -> str:
        return f"{self.migration}: {self.operation}: {self.why}"


def released_migration_files(commit: str, root: Path = ROOT) -> set[str]:
    """Paths (relative to the repository) of the migration files in ``commit``."""
    listing = subprocess.run(
        ["git", "-C", str(root), "ls-tree", "-r", "--name-only", commit],
        capture_output=True,
        text=True,
    )
    if listing.returncode != 0:
        raise RuntimeError(
            f"git ls-tree {commit} failed: {listing.stderr.strip()} (the previous release must be in "
            "this clone's history: git fetch --unshallow)"
        )
    return {path for path in listing.stdout.splitlines() if "/migrations/" in path and path.endswith(".py")}


def unreleased(loader: MigrationLoader, released: set[str], root: Path = ROOT) -> list[tuple[str, str]]:
    """The project's own migrations (files in this repository) that ``released`` lacks,
    in the order they apply."""
    keys = []
    for key in loader.graph.leaf_nodes():
        for node in loader.graph.forwards_plan(key):
            if node in keys:
                continue
            module = loader.graph.nodes[node].__module__
            path = Path(__import__(module, fromlist=["_"]).__file__ or "").resolve()
            if not path.is_relative_to(root) or ".venv" in path.parts:
                continue
            if path.relative_to(root).as_posix() not in released:
                keys.append(node)
    return keys


def _relations_to_existing(fields: Iterable[Field], new_models: set[tuple[str, str]], app: str) -> list[str]:
    """Fields that would put a database constraint on an existing table."""
    found = []
    for field in fields:
        remote = getattr(field, "remote_field", None)
        if remote is None or getattr(field, "many_to_many", False):
            continue
        target = remote.model
        if isinstance(target, str):
            label = target if "." in target else f"{app}.{target}"
            target_key = tuple(label.lower().split(".", 1))
        else:
            target_key = (target._meta.app_label, target._meta.model_name)
        if target_key not in new_models and getattr(field, "db_constraint", True):
            found.append(field.name)
    return found


def _column(field: Field) -> Any:
    return field.db_parameters(connection)["type"]


def _has_db_default(field: Field) -> bool:
    return field.db_default is not NOT_PROVIDED


def operation_problems(
    operation: Any, app: str, before: ProjectState, new_models: set[tuple[str, str]]
) -> list[str]:
    """Why ``operation`` (of app ``app``, on the schema ``before``) is not expand-only."""
    if isinstance(operation, HARMLESS):
        return []
    if isinstance(operation, ops.SeparateDatabaseAndState):
        return [why for inner in operation.database_operations for why in
                operation_problems(inner, app, before, new_models)]  # fmt: skip
    if isinstance(operation, ops.CreateModel):
        new_models.add((app, operation.name_lower))
        named = [field.clone() for _name, field in operation.fields]
        for field, (name, _) in zip(named, operation.fields, strict=True):
            field.name = name
        bound = _relations_to_existing(named, new_models, app)
        return [f"relation {name} to an existing table needs db_constraint=False" for name in bound]
    model_is_new = (app, getattr(operation, "model_name_lower", "")) in new_models
    if isinstance(operation, ops.AddConstraint):
        return (
            [] if model_is_new else ["a constraint on an existing table can refuse the previous code's rows"]
        )
    if isinstance(operation, ops.AddField):
        if model_is_new:
            return []
        field = operation.field.clone()
        field.name = operation.name
        problems = [f"relation {name} needs db_constraint=False" for name in
                    _relations_to_existing([field], new_models, app)]  # fmt: skip
        if not (field.null or _has_db_default(field) or field.many_to_many):
            problems.append("a NOT NULL column without db_default: the previous code's inserts fail")
        return problems
    if isinstance(operation, ops.AlterField):
        if model_is_new:
            return []
        old = before.models[app, operation.model_name_lower].fields[operation.name]
        new = operation.field
        problems = []
        if _column(old) != _column(new):
            problems.append(f"column type {_column(old)} becomes {_column(new)}")
        if old.null and not new.null:
            problems.append("a nullable column becomes NOT NULL")
        if _has_db_default(old) and not _has_db_default(new) and not new.null:
            problems.append("a NOT NULL column loses its db_default")
        if new.unique and not old.unique:
            problems.append("a column becomes unique")
        return problems
    return [f"{type(operation).__name__} changes what the previous code reads or writes"]


def migration_problems(
    loader: MigrationLoader, key: tuple[str, str], new_models: set[tuple[str, str]]
) -> list[Problem]:
    migration: Migration = loader.graph.nodes[key]
    if getattr(migration, "contract", False):
        return []
    state = loader.project_state(key, at_end=False)
    problems = []
    for operation in migration.operations:
        for why in operation_problems(operation, key[0], state, new_models):
            problems.append(Problem(f"{key[0]}.{key[1]}", operation.describe(), why))
        state = state.clone()
        operation.state_forwards(key[0], state)
    return problems


def check(commit: str) -> tuple[list[tuple[str, str]], list[Problem]]:
    """The migrations newer than ``commit`` and what in them is not expand-only."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    keys = unreleased(loader, released_migration_files(commit))
    new_models: set[tuple[str, str]] = set()
    problems = [problem for key in keys for problem in migration_problems(loader, key, new_models)]
    return keys, problems
