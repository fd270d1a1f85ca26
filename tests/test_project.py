"""Project-wide checks: migrations are committed, settings are safe by default."""

from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command


@pytest.mark.django_db
def test_migrations_are_committed() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)


def test_allowed_hosts_is_never_a_wildcard_by_default() -> None:
    assert "*" not in settings.ALLOWED_HOSTS


def test_redis_pool_is_sized_for_reconnect_bursts(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    import config.settings as module

    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    reloaded = importlib.reload(module)
    try:
        host = reloaded.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
        assert host["max_connections"] >= 500
        # redis-py 8's 5 s read timeout would tear down every idle socket (see settings).
        assert host["socket_timeout"] is None
    finally:
        monkeypatch.delenv("REDIS_URL")
        importlib.reload(module)


def test_the_readme_deployment_passes_check_deploy() -> None:
    """With only the README's deployment variables, Django's deployment check is clean."""
    import os
    import subprocess
    import sys

    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "TLS", "SECURE_COOKIES", "DJANGO_SETTINGS_MODULE"}
    }
    env.update(
        DEBUG="false",
        SECRET_KEY="k" * 20 + "-a-long-random-secret-for-this-test-only-0123456789",
        ALLOWED_HOSTS="games.example.org",
        CSRF_TRUSTED_ORIGINS="https://games.example.org",
        REDIS_URL="redis://cache:6379/0",
        DJANGO_SETTINGS_MODULE="config.settings",
    )

    def check() -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
        return subprocess.run(command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True)

    result = check()
    assert result.returncode == 0, result.stdout + result.stderr
    # The LAN opt-out is explicit, and the check then says what it gives up.
    env["TLS"] = "false"
    lan = check()
    assert lan.returncode != 0 and "W008" in lan.stderr + lan.stdout
    # Without Redis, several processes would not hear each other: the check says so.
    del env["TLS"], env["REDIS_URL"]
    alone = check()
    assert alone.returncode != 0 and "rooms.W001" in alone.stderr + alone.stdout
    env.update(REDIS_URL="redis://cache:6379/0", LOG_FORMAT="xml")
    odd = check()
    assert odd.returncode != 0 and "rooms.W002" in odd.stderr + odd.stdout
