"""A deployment's Redis prefix belongs to its database (issue 31, rooms/deployment.py): a
second deployment on the same prefix with another database is refused at start, and
/readyz says why."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.management import CommandError, call_command

from config import health
from rooms import deployment
from tests.conftest import _database_url

pytestmark = pytest.mark.django_db(transaction=True)

THEIRS = "0123456789abcdef wordrooms_staging"  # another database's claim


@pytest.fixture
def guarded(settings: Any, redis_url: str) -> Iterator[redis.Redis]:
    settings.REDIS_URL = redis_url
    settings.REDIS_PREFIX = f"guard-{secrets.token_hex(4)}"
    settings.DEPLOYMENT_GUARD = True
    client = redis.Redis.from_url(redis_url)
    health._identity = None
    try:
        yield client
    finally:
        client.delete(deployment.key())
        client.close()
        health._identity = None
        if health._executor is not None:  # readyz's thread keeps a connection: close it
            from django.db import connections

            health._executor.submit(lambda: connections["default"].close()).result()
            health._executor.shutdown()
            health._executor = None


def test_the_first_process_claims_the_prefix_and_the_next_ones_share_it(guarded: redis.Redis) -> None:
    mine = deployment.claim()
    assert guarded.get(deployment.key()) == mine.encode()
    assert (
        0 < guarded.ttl(deployment.key()) <= deployment.CLAIM_SECONDS
    )  # a prefix left for good frees itself
    assert deployment.claim() == mine  # a restart, or the site's second process
    deployment.check_at_start()


def test_a_process_on_another_database_is_refused_at_start(guarded: redis.Redis) -> None:
    guarded.set(deployment.key(), THEIRS)
    with pytest.raises(SystemExit) as refused:
        deployment.check_at_start()
    said = str(refused.value)
    assert "REDIS_PREFIX" in said and "wordrooms_staging" in said and "manage.py deployment --claim" in said
    assert guarded.get(deployment.key()) == THEIRS.encode()  # the other deployment keeps it


def test_daphne_exits_with_the_reason(guarded: redis.Redis, redis_url: str) -> None:
    """The production command on a prefix another database holds: no socket is served."""
    from django.conf import settings

    guarded.set(deployment.key(), THEIRS)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
        "DATABASE_URL": _database_url(),
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": settings.REDIS_PREFIX,
        "DEPLOYMENT_GUARD": "true",
        "GAME_CLOCK": "0",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", "0", "config.asgi:application"]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "refusing to start: REDIS_PREFIX" in result.stderr and "wordrooms_staging" in result.stderr


def test_readyz_says_the_prefix_is_another_deployments(guarded: redis.Redis) -> None:
    status, body = asyncio.run(health.readiness())  # the first probe reads the identity
    assert (status, body.get("deployment")) == (200, None)
    guarded.set(deployment.key(), THEIRS)
    status, body = asyncio.run(health.readiness())
    assert status == 503
    assert body == {"status": "unavailable", "database": "ok", "redis": "ok", "deployment": "conflict"}


def test_readyz_claims_the_prefix_again_after_redis_lost_it(guarded: redis.Redis) -> None:
    asyncio.run(health.readiness())
    guarded.delete(deployment.key())  # a Redis restart keeps nothing
    assert asyncio.run(health.readiness())[0] == 200
    assert guarded.get(deployment.key()) == deployment.identity().encode()
    assert guarded.ttl(deployment.key()) > 0


def test_the_operator_can_give_the_prefix_to_a_moved_database(guarded: redis.Redis) -> None:
    guarded.set(deployment.key(), THEIRS)
    with pytest.raises(CommandError, match="belongs to another deployment"):
        call_command("deployment")
    call_command("deployment", claim=True)
    assert guarded.get(deployment.key()) == deployment.identity().encode()
    deployment.check_at_start()
