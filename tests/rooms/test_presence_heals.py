"""Presence heals after a database outage: open sockets count themselves again, the sweep
never counts out a live process, and nothing answers 500 while the database is away."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import urllib.error
import urllib.request
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from rooms import presence
from rooms.models import Player
from rooms.services import room_join
from tests.conftest import DaphneServer, _database_url, make_session
from tests.rooms.test_survive import Screen

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_touch_counts_open_sockets_again_and_never_lowers_a_count() -> None:
    for name in ("ada", "bo"):
        room_join(slug="touch-heals", uid=f"touch-{name}", name=name)
    ada, bo = (Player.objects.get(uid=f"touch-{n}") for n in ("ada", "bo"))
    long_ago = timezone.now() - timedelta(minutes=5)
    Player.objects.filter(pk=ada.pk).update(connections=0, last_seen=long_ago)  # swept while away
    Player.objects.filter(pk=bo.pk).update(connections=3, last_seen=long_ago)  # sockets elsewhere too
    presence.presence_touch({ada.pk: 2, bo.pk: 1})
    ada.refresh_from_db()
    bo.refresh_from_db()
    assert (ada.connections, bo.connections) == (2, 3)
    assert presence.is_connected(ada) and presence.is_connected(bo)


def test_the_sweep_counts_nobody_out_until_the_database_was_up_a_whole_grace_period() -> None:
    room_join(slug="sweep-waits", uid="sweep-ada", name="Ada")
    stale = timezone.now() - presence.PRESENCE_GRACE * 2
    Player.objects.filter(uid="sweep-ada").update(connections=1, last_seen=stale)
    grace = presence.PRESENCE_GRACE.total_seconds()
    # Just back from an outage: live processes have not had the time to touch yet.
    assert presence.presence_sweep(up_for=grace - 1) == 0
    assert Player.objects.get(uid="sweep-ada").connections == 1
    # The clock's own measure: its first sweep (or its first after a pause) starts the count.
    presence._sweeps.clear()
    assert presence.presence_sweep() == 0
    assert Player.objects.get(uid="sweep-ada").connections == 1
    # Up for a whole grace period with no touch: nobody holds that socket any more.
    assert presence.presence_sweep(up_for=grace + 1) == 1
    assert Player.objects.get(uid="sweep-ada").connections == 0


def _everyone_shown(state: dict[str, Any], connected: bool) -> bool:
    return len(state["players"]) == 2 and all(p["connected"] is connected for p in state["players"])


async def _open(server: DaphneServer, slug: str, session: str) -> Screen:
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws/r/{slug}/",
        origin=f"http://127.0.0.1:{server.port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=20,
    )
    screen = Screen(ws)
    await screen.recv(20)
    return screen


def _count_everyone_out(slug: str) -> None:
    """What the sweep did after an outage longer than the grace period (the issue's bug)."""
    long_ago = timezone.now() - timedelta(minutes=2)
    Player.objects.filter(room__slug=slug).update(connections=0, last_seen=long_ago)
    presence.presence_refresh(slug=slug)  # pushed: every screen shows both players away


def _http(opener: urllib.request.OpenerDirector, url: str, data: bytes | None = None, **headers: str) -> int:
    try:
        with opener.open(urllib.request.Request(url, data=data, headers=headers), timeout=20) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


SERVER_APP = "presence-outage-server"  # the test server's connections, by name


def _database_access(allowed: bool) -> None:
    """Our own test database refuses new connections and the test server's are dropped,
    or it takes them again.

    Only this test's database: the PostgreSQL server and every other database go on
    (and this pytest process keeps its own connections, already open).
    """
    import psycopg

    settings_dict = connection.settings_dict
    name = settings_dict["NAME"]
    with psycopg.connect(
        host=settings_dict.get("HOST") or "127.0.0.1",
        port=settings_dict.get("PORT") or 5432,
        user=settings_dict.get("USER") or "postgres",
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"true" if allowed else "false"}')
        if not allowed:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND application_name = %s",
                [name, SERVER_APP],
            )


def test_open_sockets_show_their_players_present_again_after_the_outage(redis_url: str) -> None:
    slug = "presence-heals"
    for name in ("ada", "bo"):
        room_join(slug=slug, uid=f"{slug}-{name}", name=name)
    sessions = {name: make_session(f"{slug}-{name}") for name in ("ada", "bo", "ada2")}
    outage = connection.vendor == "postgresql"
    # Touches every 4 checks: every 1.2 s here (20 s by default).
    env = {"PUSH_CHECK_SECONDS": "0.3"}
    if outage:
        env["DATABASE_URL"] = f"{_database_url()}?application_name={SERVER_APP}"
    server = DaphneServer(redis_url, extra_env=env).start()
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = f"{server.url}/r/{slug}/"
    try:
        assert _http(opener, page) == 200  # the CSRF cookie a join form needs
        token = next(c.value for c in jar if c.name == "csrftoken")

        async def before() -> tuple[Screen, Screen]:
            ada, bo = await _open(server, slug, sessions["ada"]), await _open(server, slug, sessions["bo"])
            await ada.until(lambda s: _everyone_shown(s, True), 10)
            return ada, bo

        loop = asyncio.new_event_loop()
        ada, bo = loop.run_until_complete(before())
        answers: dict[str, Any] = {}
        if outage:
            _database_access(False)
            try:
                answers["page"] = _http(opener, page)
                answers["join"] = _http(
                    opener, f"{page}join/", b"name=Cy", **{"X-CSRFToken": token, "Content-Type":
                                                          "application/x-www-form-urlencoded"}
                )  # fmt: skip

                async def during() -> None:
                    try:
                        await _open(server, slug, sessions["ada2"])
                        answers["handshake"] = "opened"
                    except InvalidStatus as refused:
                        answers["handshake"] = refused.response.status_code
                    await ada.ws.send(json.dumps({"action": "rename", "name": "Ada", "ref": 1}))
                    while (reply := json.loads(await asyncio.wait_for(ada.ws.recv(), 10)))["type"] != "error":
                        pass
                    answers["action"] = reply["code"]

                loop.run_until_complete(during())
            finally:
                _database_access(True)
            assert answers == {"page": 503, "join": 503, "handshake": 403, "action": "unavailable"}
        # Back: what the sweep did during the outage is undone by the open sockets.
        _count_everyone_out(slug)

        async def after() -> float:
            await ada.until(lambda s: _everyone_shown(s, False), 10)
            healed = await ada.until(lambda s: _everyone_shown(s, True), 10)
            await bo.until(lambda s: _everyone_shown(s, True), 10)
            return healed

        healed = loop.run_until_complete(after())
        counts = list(Player.objects.filter(room__slug=slug).values_list("connections", flat=True))
        loop.run_until_complete(ada.ws.close())
        loop.run_until_complete(bo.ws.close())
        loop.close()
        print(f"\npresence healed {healed * 1000:.0f} ms after the sweep; during the outage: {answers}")
        assert counts == [1, 1]
    finally:
        server.stop()
