"""/healthz and /readyz on a real Daphne: by IP, over HTTP, with DEBUG off and TLS on."""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import DaphneServer, free_port, wait_port

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCTION = {
    # As deployed: DEBUG off, TLS on (HTTP redirected to HTTPS), one public host name.
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DEBUG": "false",
    "SECRET_KEY": "health-test-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "games.example.org",
    "TLS": "true",
    # A prefix of its own: the test database may not own the configured one (rooms/deployment.py).
    "REDIS_PREFIX": f"health-{secrets.token_hex(4)}",
}


def get(url: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any) -> None:
        return None


@pytest.fixture
def server(redis_url: str) -> Iterator[DaphneServer]:
    daphne = DaphneServer(redis_url, PRODUCTION).start()
    yield daphne
    daphne.stop()


def test_healthz_answers_by_ip_where_other_pages_are_refused(server: DaphneServer) -> None:
    status, headers, body = get(f"{server.url}/healthz")
    assert (status, json.loads(body)) == (200, {"status": "ok"})
    assert headers["Content-Type"] == "application/json"
    # The same request for a page is refused: Host 127.0.0.1 is not an allowed host.
    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(f"{server.url}/", timeout=10)
    assert refused.value.code in (301, 400)


def test_readyz_is_200_when_the_database_and_redis_answer(server: DaphneServer) -> None:
    status, _, body = get(f"{server.url}/readyz")
    assert status == 200
    assert json.loads(body) == {"status": "ok", "database": "ok", "redis": "ok"}
    # HEAD for probes that read only the status; other methods are refused.
    assert get(f"{server.url}/readyz", "HEAD")[:1] == (200,)
    assert get(f"{server.url}/healthz", "POST")[0] == 405


def test_readyz_is_503_while_the_database_is_unreachable(redis_url: str) -> None:
    closed = free_port()  # nothing listens there
    env = {**PRODUCTION, "DATABASE_URL": f"postgres://nobody:secret@127.0.0.1:{closed}/gone"}
    daphne = DaphneServer(redis_url, env).start()
    try:
        status, _, body = get(f"{daphne.url}/readyz")
        assert status == 503
        assert json.loads(body) == {"status": "unavailable", "database": "down", "redis": "ok"}
        assert b"secret" not in body and b"nobody" not in body
        assert get(f"{daphne.url}/healthz")[0] == 200  # the process itself still answers
    finally:
        daphne.stop()


def test_readyz_is_503_while_redis_is_down_and_200_once_it_is_back(tmp_path: Any) -> None:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: `sudo apt-get install redis-server`")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)]
    redis = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    try:
        wait_port(port)
        daphne = DaphneServer(f"redis://127.0.0.1:{port}/0", PRODUCTION).start()
        try:
            assert get(f"{daphne.url}/readyz")[0] == 200
            redis.terminate()
            redis.wait(timeout=10)
            status, _, body = get(f"{daphne.url}/readyz")
            assert status == 503
            assert json.loads(body) == {"status": "unavailable", "database": "ok", "redis": "down"}
            redis = subprocess.Popen(command, stdout=subprocess.DEVNULL)
            wait_port(port)
            assert get(f"{daphne.url}/readyz")[0] == 200
        finally:
            daphne.stop()
    finally:
        redis.terminate()
        redis.wait(timeout=10)
