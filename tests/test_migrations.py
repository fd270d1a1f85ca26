"""Expand/contract (issue 31): every migration newer than the previous release
(deploy/PREVIOUS_RELEASE) only expands the schema, so the previous release's code runs on
it during an upgrade and after a rollback (deploy/expand.py says what expands).
``make upgrade-check`` runs that code on it; this test reads the operations."""

from __future__ import annotations

import subprocess

import pytest
from django.db import migrations, models
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState

from deploy import expand
from deploy.upgrade import PREVIOUS_RELEASE, previous_release


@pytest.fixture(scope="module")
def loader() -> MigrationLoader:
    return MigrationLoader(None, ignore_no_migrations=True)


@pytest.fixture(scope="module")
def latest(loader: MigrationLoader) -> ProjectState:
    return loader.project_state(("rooms", "0008_presence_per_process"), at_end=True)


def _problems(operation: object, state: ProjectState, app: str = "rooms") -> list[str]:
    return expand.operation_problems(operation, app, state, set())


def test_the_previous_release_is_a_commit_of_this_history() -> None:
    commit = previous_release()
    found = subprocess.run(["git", "-C", str(expand.ROOT), "cat-file", "-e", f"{commit}^{{commit}}"])
    assert found.returncode == 0, f"{PREVIOUS_RELEASE.name}: {commit} is not in this clone's history"


def test_every_migration_newer_than_the_previous_release_is_expand_only() -> None:
    keys, problems = expand.check(previous_release())
    assert [str(problem) for problem in problems] == []
    # The migrations checked are exactly this checkout's files that the release lacks.
    released = expand.released_migration_files(previous_release())
    files = {
        path.relative_to(expand.ROOT).as_posix()
        for path in expand.ROOT.glob("**/migrations/0*.py")
        if ".venv" not in path.parts
    }
    assert sorted(f"{app}/migrations/{name}.py" for app, name in keys if app != "tinygame") == sorted(
        path for path in files - released if not path.startswith("tests/")
    )


def test_the_released_steps_column_would_have_been_refused(loader: MigrationLoader) -> None:
    """Issue 31's break: a NOT NULL column with a Python default only (the previous code's
    start_game inserts no ``steps`` and fails)."""
    problems = expand.migration_problems(loader, ("codenames", "0003_steps"), set())
    assert [p.why for p in problems] == [
        "a NOT NULL column without db_default: the previous code's inserts fail"
    ]


def test_a_new_column_expands_with_null_or_a_database_default(latest: ProjectState) -> None:
    for field in (models.IntegerField(null=True), models.IntegerField(default=0, db_default=0)):
        assert _problems(migrations.AddField("room", "extra", field), latest) == []
    assert _problems(migrations.AddField("room", "extra", models.IntegerField(default=0)), latest)


def test_a_drop_or_a_rename_is_a_contract_step(latest: ProjectState) -> None:
    for operation in (
        migrations.RemoveField("room", "scoreboard"),
        migrations.RenameField("room", "scoreboard", "scores"),
        migrations.DeleteModel("chatmessage"),
        migrations.RenameModel("chatmessage", "line"),
        migrations.RunSQL("ALTER TABLE rooms_room DROP COLUMN scoreboard"),
    ):
        assert _problems(operation, latest), operation.describe()


def test_a_changed_column_must_keep_its_type_and_loosen(latest: ProjectState) -> None:
    assert _problems(migrations.AlterField("player", "last_seen", models.DateTimeField()), latest) == [
        "a nullable column becomes NOT NULL"
    ]
    assert _problems(migrations.AlterField("room", "chat_seq", models.CharField(max_length=9)), latest)
    loosened = models.PositiveBigIntegerField(default=0, db_default=0, null=True)
    assert _problems(migrations.AlterField("room", "chat_seq", loosened), latest) == []


def test_a_relation_to_an_existing_table_has_no_database_constraint(latest: ProjectState) -> None:
    def table(constraint: bool) -> migrations.CreateModel:
        player = models.ForeignKey("rooms.player", models.CASCADE, db_constraint=constraint)
        return migrations.CreateModel(
            "Note", [("id", models.BigAutoField(primary_key=True)), ("player", player)]
        )

    assert _problems(table(True), latest) == [
        "relation player to an existing table needs db_constraint=False"
    ]
    assert _problems(table(False), latest) == []


def test_a_state_only_removal_expands(latest: ProjectState) -> None:
    """How a release stops using a column: out of the models, the column kept."""
    keep_column = migrations.SeparateDatabaseAndState(
        state_operations=[migrations.RemoveField("room", "scoreboard")]
    )
    assert _problems(keep_column, latest) == []


def test_a_declared_contract_migration_is_trusted_to_upgrade_check(loader: MigrationLoader) -> None:
    class Contract(migrations.Migration):
        contract = True
        operations = [migrations.RemoveField("room", "scoreboard")]

    key = ("rooms", "0008_presence_per_process")
    original = loader.graph.nodes[key]
    loader.graph.nodes[key] = Contract("0008_presence_per_process", "rooms")
    try:
        assert expand.migration_problems(loader, key, set()) == []
    finally:
        loader.graph.nodes[key] = original
