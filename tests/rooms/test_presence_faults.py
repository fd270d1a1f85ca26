"""Presence after a fault, with two real server processes (issue 28): every screen shows who
is really connected within 3 s of a database outage's end or of a SIGKILL, nobody
connected is shown away meanwhile, and each player is counted once.

The servers run with presence's intervals shortened (a beat every 0.5 s, dead after
1.5 s of silence, judging after 2 s of beating): an outage longer than all of them (4 s)
leaves the database in the state a 30 s one would (every beat, every ``last_seen``
stale), so the property is the same at a fraction of the wait. bench/presence.py
measures the default intervals through a 30 s outage and the SIGKILL of a crowd.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import signal
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection
from websockets.exceptions import InvalidStatus

from rooms.models import Player
from rooms.services import room_join
from tests.conftest import DaphneServer, _database_url, make_session
from tests.rooms.test_survive import Screen, _open

pytestmark = pytest.mark.django_db(transaction=True)

SHORT = {
    "PRESENCE_BEAT_SECONDS": "0.5",
    "PRESENCE_DEAD_SECONDS": "1.5",
    "PRESENCE_JUDGE_SECONDS": "2",
    "PUSH_CHECK_SECONDS": "1",
}
OUTAGE = 4.0  # longer than a process's silence before it looks dead, and than judging waits
SERVER_APP = "presence-outage-server"  # the test servers' connections, by name


def _shown(state: dict[str, Any]) -> dict[str, bool]:
    return {p["name"]: p["connected"] for p in state["players"]}


class Truth:
    """Who is connected, and every time a screen showed one of them away."""

    def __init__(self, connected: dict[str, bool]) -> None:
        self.connected = connected
        self.wrongly_away: list[str] = []

    def check(self, state: dict[str, Any]) -> bool:
        """A screen's state: whether it shows the truth (recording any live player shown away)."""
        shown = _shown(state)
        self.wrongly_away += [name for name, here in self.connected.items() if here and not shown.get(name)]
        return shown == self.connected

    async def every_screen(self, screens: list[Screen], timeout: float) -> None:
        await asyncio.gather(*(screen.until(self.check, timeout) for screen in screens))

    async def stays(self, screens: list[Screen], seconds: float) -> None:
        """Every state the screens receive for ``seconds`` is checked too."""

        async def read(screen: Screen) -> None:
            try:
                await screen.until(lambda state: not self.check(state), seconds)
            except TimeoutError:
                return
            raise AssertionError(f"a screen stopped showing the truth: {_shown(screen.state or {})}")

        await asyncio.gather(*(read(screen) for screen in screens))


def _counts(slug: str) -> dict[str, int]:
    return dict(Player.objects.filter(room__slug=slug).values_list("name", "connections"))


def _join(slug: str, *names: str) -> dict[str, str]:
    for name in names:
        room_join(slug=slug, uid=f"{slug}-{name}", name=name)
    return {name: make_session(f"{slug}-{name}") for name in names}


def test_after_a_sigkill_every_screen_shows_who_is_here_within_3_s(redis_url: str) -> None:
    slug = "presence-killed"
    sessions = _join(slug, "ada", "bo", "cy", "dee")
    victim, survivor = (DaphneServer(redis_url, extra_env=SHORT).start() for _ in range(2))
    try:

        async def run() -> tuple[dict[str, float], list[Screen]]:
            ada, bo = await _open(victim, slug, sessions["ada"]), await _open(victim, slug, sessions["bo"])
            await _open(victim, slug, sessions["dee"])  # Dee has a socket on each process
            cy, dee = (
                await _open(survivor, slug, sessions["cy"]),
                await _open(survivor, slug, sessions["dee"]),
            )
            everyone = Truth({"ada": True, "bo": True, "cy": True, "dee": True})
            await everyone.every_screen([cy, dee], 10)
            await asyncio.sleep(2.5)  # the survivor has beaten long enough to judge
            assert victim.proc is not None
            victim.proc.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            victim.proc.wait(timeout=10)
            victim.proc = None
            # The pages come back on the other process at once; Bo then closes his.
            ada, bo = (
                await _open(survivor, slug, sessions["ada"]),
                await _open(survivor, slug, sessions["bo"]),
            )
            returned = time.monotonic() - killed
            await bo.ws.close()
            truth = Truth({"ada": True, "bo": False, "cy": True, "dee": True})
            await truth.every_screen([ada, cy, dee], 10)
            right = time.monotonic() - killed
            await truth.stays([ada, cy, dee], 1.5)
            assert truth.wrongly_away == [], truth.wrongly_away
            return {"returned": returned, "right": right}, [ada, cy, dee]

        loop = asyncio.new_event_loop()
        figures, screens = loop.run_until_complete(run())
        counts = _counts(slug)  # the sockets still open
        for screen in screens:
            loop.run_until_complete(screen.ws.close())
        loop.close()
    finally:
        victim.stop()
        survivor.stop()
    print(
        f"\nSIGKILL: players back {figures['returned']:.2f} s after it; every screen right "
        f"{figures['right']:.2f} s after it; counts {counts}"
    )
    # Dee had a socket on each process, Ada two in turn: each counted once.
    assert counts == {"ada": 1, "bo": 0, "cy": 1, "dee": 1}
    assert figures["right"] < 3


def _http(opener: urllib.request.OpenerDirector, url: str, data: bytes | None = None, **headers: str) -> int:
    try:
        with opener.open(urllib.request.Request(url, data=data, headers=headers), timeout=20) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _database_access(allowed: bool) -> None:
    """Our own test database refuses new connections and the test servers' are dropped,
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


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the outage is a PostgreSQL database refusing connections (the CI's second run)",
)
def test_after_an_outage_every_screen_shows_who_is_here_within_3_s(redis_url: str) -> None:
    slug = "presence-outage"
    sessions = _join(slug, "ada", "bo", "cy")
    sessions["ada2"] = make_session(f"{slug}-ada")
    env = {**SHORT, "DATABASE_URL": f"{_database_url()}?application_name={SERVER_APP}"}
    one, two = (DaphneServer(redis_url, extra_env=env).start() for _ in range(2))
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = f"{one.url}/r/{slug}/"
    answers: dict[str, Any] = {}
    try:
        assert _http(opener, page) == 200  # the CSRF cookie a join form needs
        token = next(c.value for c in jar if c.name == "csrftoken")
        loop = asyncio.new_event_loop()

        async def before() -> tuple[Screen, Screen, Screen]:
            ada, cy = await _open(one, slug, sessions["ada"]), await _open(one, slug, sessions["cy"])
            bo = await _open(two, slug, sessions["bo"])
            await Truth({"ada": True, "bo": True, "cy": True}).every_screen([ada, bo], 10)
            await asyncio.sleep(2.5)  # both processes have beaten long enough to judge
            return ada, bo, cy

        ada, bo, cy = loop.run_until_complete(before())
        _database_access(False)
        cut = time.monotonic()
        try:
            answers["page"] = _http(opener, page)
            answers["join"] = _http(
                opener, f"{page}join/", b"name=Dee", **{"X-CSRFToken": token, "Content-Type":
                                                       "application/x-www-form-urlencoded"}
            )  # fmt: skip

            async def during() -> None:
                try:
                    await _open(one, slug, sessions["ada2"])
                    answers["handshake"] = "opened"
                except InvalidStatus as refused:
                    answers["handshake"] = refused.response.status_code
                await ada.ws.send(json.dumps({"action": "rename", "name": "ada", "ref": 1}))
                while (reply := json.loads(await asyncio.wait_for(ada.ws.recv(), 10)))["type"] != "error":
                    pass
                answers["action"] = reply["code"]
                await cy.ws.close()  # Cy leaves while her departure cannot be written
                await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - cut)))

            loop.run_until_complete(during())
        finally:
            _database_access(True)
        back = time.monotonic()
        truth = Truth({"ada": True, "bo": True, "cy": False})

        async def after() -> float:
            await truth.every_screen([ada, bo], 10)
            right = time.monotonic() - back
            await truth.stays([ada, bo], 1.5)
            return right

        right = loop.run_until_complete(after())
        counts = _counts(slug)  # the sockets still open
        loop.run_until_complete(ada.ws.close())
        loop.run_until_complete(bo.ws.close())
        loop.close()
    finally:
        _database_access(True)
        one.stop()
        two.stop()
    print(
        f"\n{OUTAGE:.0f} s outage: every screen right {right:.2f} s after the database came back; {answers}"
    )
    assert answers == {"page": 503, "join": 503, "handshake": 403, "action": "unavailable"}
    assert truth.wrongly_away == [], truth.wrongly_away
    assert right < 3
    assert counts == {"ada": 1, "bo": 1, "cy": 0}
