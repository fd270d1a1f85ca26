"""The install as docs/operations.md gives it works as the service user (issue 31): the
clone is root's, the static folder is made for the service user first, and the service
user's collectstatic writes it, with the brotli copies the README promises.

Run as root (CI), the service user is ``nobody`` with one capability kept, reading and
searching folders (the shared virtualenv's Python lives under /root): writing is still
refused wherever ``nobody`` may not write, which is what the install must get right. Run
as another user, that user is the service user."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SERVICE_UID = 65534  # nobody


def as_service_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) runs the step as the service user"
    return [setpriv, f"--reuid={SERVICE_UID}", f"--regid={SERVICE_UID}", "--clear-groups",
            "--inh-caps=+dac_read_search", "--ambient-caps=+dac_read_search", *command]  # fmt: skip


def collectstatic(static_root: Path) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": "/nonexistent",
        "PYTHONDONTWRITEBYTECODE": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": "install-test-" + secrets.token_urlsafe(40),
        "STATIC_ROOT": str(static_root),
    }
    command = as_service_user([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"])
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def install_folder() -> Iterator[Path]:
    """Like /srv/wordrooms: a folder the service user may read, not write."""
    folder = Path(tempfile.mkdtemp(prefix="wordrooms-install-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_collectstatic_as_the_service_user_into_the_folder_made_for_it(install_folder: Path) -> None:
    static_root = install_folder / "staticfiles"
    # The documented step, as root: `install -d -o wordrooms -g wordrooms …/staticfiles`.
    static_root.mkdir()
    if os.geteuid() == 0:
        os.chown(static_root, SERVICE_UID, SERVICE_UID)
    result = collectstatic(static_root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (static_root / "staticfiles.json").is_file()
    scripts = list(static_root.rglob("*.js"))
    brotli = list(static_root.rglob("*.js.br"))
    gzip = list(static_root.rglob("*.js.gz"))
    assert scripts and brotli and gzip, "collectstatic wrote no brotli or gzip copies (is brotli installed?)"
    if os.geteuid() == 0:
        assert static_root.joinpath("staticfiles.json").stat().st_uid == SERVICE_UID


def test_without_that_step_the_service_user_cannot_collect(install_folder: Path) -> None:
    """What the install did before: the static folder inside the root-owned clone."""
    if os.geteuid() != 0:
        pytest.skip("needs root to make the root-owned install folder")
    result = collectstatic(install_folder / "staticfiles")
    assert result.returncode != 0 and "PermissionError" in result.stderr
