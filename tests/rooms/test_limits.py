"""Limits per address: new rooms, handshakes, open sockets, messages, wrong device links."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient
from prometheus_client import REGISTRY

from rooms import limits
from rooms.models import Room
from rooms.services import room_join
from tests.conftest import Client, free_port, make_session, wait_port


@pytest.fixture
def strict(settings: Any) -> Iterator[Any]:
    """Limits on, small, counted in this process's memory from zero."""
    settings.RATE_LIMITS_ENABLED = True
    settings.RATE_LIMITS_STORAGE = "memory://"
    settings.RATE_LIMITS = {
        "rooms_per_ip": "2/hour",
        "rooms_per_session": "5/hour",
        "handshakes_per_ip": "3/minute",
        "device_failures_per_ip": "2/minute",
    }
    settings.LIMIT_OPEN_SOCKETS_PER_IP = 2
    settings.LIMIT_MESSAGES_PER_IP = 5
    limits._limiter = None
    limits.COUNTS.open.clear()
    limits.COUNTS.buckets.clear()
    limits.COUNTS.blocked.clear()
    yield settings
    limits._limiter = None


def _join(slug: str, ip: str) -> Any:
    return HttpClient(REMOTE_ADDR=ip).post(f"/r/{slug}/join/", {"name": "Ada"})


@pytest.mark.django_db
def test_new_rooms_per_address_are_limited_with_a_page(strict: Any) -> None:
    assert _join("limit-one", "10.1.1.1").status_code == 302
    assert _join("limit-two", "10.1.1.1").status_code == 302
    refused = _join("limit-three", "10.1.1.1")
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "Too many new rooms" in refused.content.decode()
    assert not Room.objects.filter(slug="limit-three").exists()
    # Joining a room that exists is not creating one; another address is not counted.
    assert _join("limit-one", "10.1.1.1").status_code == 302
    assert _join("limit-three", "10.2.2.2").status_code == 302


@pytest.mark.django_db
def test_wrong_device_links_are_limited(strict: Any) -> None:
    guesser = HttpClient(REMOTE_ADDR="10.3.3.3")
    room_join(slug="limit-device", uid="limit-device-ada", name="Ada")
    statuses = [guesser.get(f"/r/limit-device/device/{'x' * 43}{n}/").status_code for n in range(4)]
    assert statuses == [404, 404, 429, 429]


def _socket(slug: str, ip: str, session: str | None = None) -> Client:
    client = Client(slug, session)
    client.comm.scope["client"] = (ip, 40000)  # as Daphne sets it (before the app runs)
    return client


async def _refused(client: Client) -> bool:
    """Refused at the handshake (HTTP 403): the page's backoff keeps growing."""
    connected, _code = await client.comm.connect(timeout=5)
    return connected is False


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_open_sockets_per_address_are_limited(strict: Any) -> None:
    first, second = _socket("limit-open", "10.4.4.4"), _socket("limit-open", "10.4.4.4")
    await first.connect()
    await second.connect()
    assert await _refused(_socket("limit-open", "10.4.4.4"))
    other = _socket("limit-open", "10.5.5.5")  # a neighbour's network is not affected
    await other.connect()
    await first.close()
    again = _socket("limit-open", "10.4.4.4")  # one closed: room for one more
    await again.connect()
    for client in (second, other, again):
        await client.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_handshakes_per_address_are_limited(strict: Any) -> None:
    refusals = {name: _refusals(name) for name in ("handshakes_per_ip", "blocked")}
    for _ in range(3):
        client = _socket("limit-shake", "10.6.6.6")
        await client.connect()
        await client.close()
    assert await _refused(_socket("limit-shake", "10.6.6.6"))
    # Refused sockets hold no place: the count of open sockets is back to zero.
    assert limits.COUNTS.open.get("10.6.6.6", 0) == 0
    # Refused again at once while blocked, without asking the counter; both are counted.
    assert await _refused(_socket("limit-shake", "10.6.6.6"))
    assert _refusals("handshakes_per_ip") == refusals["handshakes_per_ip"] + 1
    assert _refusals("blocked") == refusals["blocked"] + 1


def _refusals(limit: str) -> float:
    return REGISTRY.get_sample_value("wordrooms_limit_refusals_total", {"limit": limit}) or 0.0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_flood_across_sockets_closes_the_flooder_not_the_neighbours(strict: Any) -> None:
    await sync_to_async(room_join)(slug="limit-flood", uid="limit-flood-ada", name="Ada")
    flooders = [_socket("limit-flood", "10.7.7.7"), _socket("limit-flood", "10.7.7.7")]
    neighbour = _socket("limit-flood", "10.8.8.8", await sync_to_async(make_session)("limit-flood-ada"))
    for client in (*flooders, neighbour):
        await client.connect()
    codes: list[str] = []
    for n in range(12):  # a burst of 10 for the address (twice its 5 a second), then refused
        await flooders[n % 2].send({"action": "sync"})
    for flooder in flooders:
        while True:
            message = await flooder.receive(timeout=5)
            if message["type"] == "error":
                codes.append(message["code"])
                break
        # Then closed with a code Daphne can send (1008 it refuses from an application).
        assert (await flooder.comm.receive_output(timeout=5)) == {"type": "websocket.close", "code": 4008}
    assert codes == ["too_many", "too_many"]
    assert "10.7.7.7" not in limits.COUNTS.open  # both closed sockets counted out
    await neighbour.send({"action": "ping", "version": -1})
    assert (await neighbour.receive_type("pong"))["type"] == "pong"
    await neighbour.close()


def test_deployments_sharing_a_redis_count_apart(strict: Any, redis_url: str) -> None:
    """REDIS_PREFIX namespaces the counts: one site's players do not use up another's."""
    strict.RATE_LIMITS_STORAGE = redis_url
    strict.RATE_LIMITS = {**strict.RATE_LIMITS, "rooms_per_ip": "2/hour"}
    address = f"10.9.{os.getpid() % 250}.{int(time.time()) % 250}"  # fresh keys each run
    strict.REDIS_PREFIX = "site-a"
    assert [limits.hit("rooms_per_ip", address) for _ in range(3)] == [True, True, False]
    strict.REDIS_PREFIX = "site-b"
    assert limits.hit("rooms_per_ip", address)  # counted apart
    strict.REDIS_PREFIX = "site-a"
    assert not limits.hit("rooms_per_ip", address)  # and still full on site a
    keys = redis.Redis.from_url(redis_url).keys(f"site-a:limits*{address}*")
    assert keys, "the counts live under the deployment's prefix"


def test_a_hung_redis_lets_requests_through_instead_of_holding_them(
    strict: Any, tmp_path: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A Redis that stops answering (SIGSTOP) must not freeze handshakes or pages."""
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_port(port)
        strict.RATE_LIMITS_STORAGE = f"redis://127.0.0.1:{port}/0"
        assert limits.hit("rooms_per_ip", "10.8.8.8")  # connected and counting
        server.send_signal(signal.SIGSTOP)
        limits._warned_at = -limits.WARN_EVERY
        failures = REGISTRY.get_sample_value("wordrooms_limit_store_failures_total") or 0.0
        with caplog.at_level(logging.WARNING, logger="rooms.limits"):
            started = time.monotonic()
            assert limits.hit("rooms_per_ip", "10.8.8.8")
            first = time.monotonic() - started
            # The store is then left alone for a while: the next checks do not wait on it.
            started = time.monotonic()
            answers = [limits.hit("rooms_per_ip", "10.8.8.8") for _ in range(20)]
            after = time.monotonic() - started
        assert answers == [True] * 20
        # The check gave up after its timeout (a hung socket without one never returns).
        assert first < limits.REDIS_TIMEOUT * 2 + 1, first
        assert after < limits.REDIS_TIMEOUT, after
        warnings = [r for r in caplog.records if "does not answer" in r.getMessage()]
        assert len(warnings) == 1  # said once, not per request
        assert REGISTRY.get_sample_value("wordrooms_limit_store_failures_total") == failures + 1
        # Redis back and the back-off over: counted again.
        server.send_signal(signal.SIGCONT)
        limits._away_until = 0.0
        assert [limits.hit("rooms_per_ip", "10.8.8.9") for _ in range(3)] == [True, True, False]
    finally:
        limits._away_until = 0.0
        server.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait(timeout=10)


def test_a_limit_written_wrong_is_a_startup_error_and_pauses_no_other_limit(strict: Any) -> None:
    from django.core.checks import run_checks

    strict.RATE_LIMITS = {**strict.RATE_LIMITS, "rooms_per_session": "ten an hour"}
    errors = [m for m in run_checks() if m.id == "rooms.E001"]
    assert len(errors) == 1 and "rooms_per_session" in errors[0].msg
    assert limits.hit("rooms_per_session", "some-session")  # nothing to count against
    # The other limits still count (a parse error is not a Redis outage).
    assert [limits.hit("rooms_per_ip", "10.7.7.7") for _ in range(3)] == [True, True, False]
    strict.RATE_LIMITS = {**strict.RATE_LIMITS, "rooms_per_session": "10/hour"}
    assert not [m for m in run_checks() if m.id == "rooms.E001"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_reconnect_storm_against_a_hung_redis_is_not_held_up(strict: Any, tmp_path: Any) -> None:
    """Ten players reconnect while the limits' Redis hangs: their handshakes (whose limit
    check runs on the sockets' database threads) wait for one timeout, not one each."""
    port = free_port()
    server = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    clients = [_socket("limit-storm", f"10.5.1.{n}") for n in range(10)]
    try:
        wait_port(port)
        strict.RATE_LIMITS_STORAGE = f"redis://127.0.0.1:{port}/0"
        assert await sync_to_async(limits.hit)("handshakes_per_ip", "10.5.0.1")  # connected
        server.send_signal(signal.SIGSTOP)
        started = time.monotonic()
        for client in clients:
            await client.connect()  # accepted: the limit fails open
        took = time.monotonic() - started
    finally:
        limits._away_until = 0.0
        server.send_signal(signal.SIGCONT)
        server.terminate()
        server.wait(timeout=10)
    for client in clients:
        await client.close()
    assert took < limits.REDIS_TIMEOUT + 1.5, f"10 handshakes took {took:.1f} s on a hung Redis"
