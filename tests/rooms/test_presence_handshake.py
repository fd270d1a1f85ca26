"""A socket's presence count is taken back exactly once, whatever point its handshake dies at.

The handshake counts the player in on a pool thread (rooms/consumers.py ``_identify``); a
handshake that dies gets no ``disconnect``: Daphne cancels an application whose client
left and that did not end within its close timeout (the thread still counting meanwhile),
or ``accept`` raises because the client is gone, or a later step fails. Each test holds
the handshake at a seam (a thread that waits on an event, a coroutine that never ends, a
step that raises), kills it there as Daphne would (cancelling the application's task), and
waits on the database with a deadline. The player always has a second, healthy socket:
a count taken back twice would show her away while she is here.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from rooms import db, hub, presence
from rooms.consumers import RoomConsumer
from rooms.models import Player, Presence
from rooms.services import room_join
from tests.conftest import Client, make_session

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WAIT = 5.0  # seconds a condition gets before the test fails (it holds in a few ms)
FAIL = b"fail"  # the query string of the socket whose handshake a seam fails


class Injected(Exception):
    """The failure a seam injects (the client gone at ``accept``, a push that failed)."""


async def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not await sync_to_async(check)():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {WAIT} s: {what}")
        await asyncio.sleep(0.01)


def _join(slug: str, name: str) -> tuple[str, int]:
    """A player of ``slug``: her session key and her pk."""
    uid = f"{slug}-{name}"
    room_join(slug=slug, uid=uid, name=name)
    return make_session(uid), Player.objects.get(uid=uid).pk


def _connections(pk: int) -> int:
    return Player.objects.get(pk=pk).connections


def _rows(pk: int) -> int:
    return sum(Presence.objects.filter(player_id=pk).values_list("sockets", flat=True))


@pytest.fixture
def closes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every count-out written (the real one, recorded once it returned)."""
    done: list[int] = []
    real = presence.presence_close

    def recorded(*, pk: int, process: presence.Process) -> bool:
        went_away = real(pk=pk, process=process)
        done.append(pk)
        return went_away

    monkeypatch.setattr(presence, "presence_close", recorded)
    yield done


async def _settled(pk: int, closes: list[int], *, count: int, closed: int) -> None:
    """The database and this process agree on ``count`` sockets, after ``closed`` count-outs."""
    await _until(lambda: len(closes) >= closed, f"{closed} count-outs written")
    await _until(lambda: _connections(pk) == count and _rows(pk) == count, f"{count} connections")
    assert len(closes) == closed
    assert hub.get_hub().process.counts.get(pk, 0) == count


async def _healthy(slug: str, key: str, pk: int) -> Client:
    """The player's first socket, open and counted."""
    client = Client(slug, key)
    await client.connect()
    await _until(lambda: _connections(pk) == 1, "the healthy socket counted")
    return client


async def _killed(client: Client) -> None:
    """Cancel the application as Daphne does when it outlives its client's close timeout."""
    client.comm.future.cancel()
    await asyncio.wait([client.comm.future], timeout=WAIT)
    assert client.comm.future.cancelled()


@pytest.mark.parametrize("moment", ["before its commit", "after its commit"])
async def test_a_handshake_cancelled_while_its_thread_counts_is_counted_out_once(
    monkeypatch: pytest.MonkeyPatch, closes: list[int], moment: str
) -> None:
    slug = "cancel-" + moment.split()[0]
    key, pk = await sync_to_async(_join)(slug, "ada")
    ada = await _healthy(slug, key, pk)
    held, release = threading.Event(), threading.Event()
    real = presence.presence_open

    def slow_open(**kwargs: Any) -> dict[str, Any] | None:
        # A slow handshake: the thread is still counting when Daphne gives up on it.
        if moment == "after its commit":
            seat = real(**kwargs)
            held.set()
            release.wait(WAIT)
            return seat
        held.set()
        release.wait(WAIT)
        return real(**kwargs)

    monkeypatch.setattr(presence, "presence_open", slow_open)
    late = Client(slug, key)
    await late.comm.send_input({"type": "websocket.connect"})
    assert await asyncio.to_thread(held.wait, WAIT)
    assert await sync_to_async(_connections)(pk) == (2 if moment == "after its commit" else 1)
    await _killed(late)
    release.set()  # the thread ends its count after the handshake died: it counts itself out
    await _settled(pk, closes, count=1, closed=1)
    await ada.close()
    await _settled(pk, closes, count=0, closed=2)


async def test_a_handshake_cancelled_after_its_count_is_counted_out_once(
    monkeypatch: pytest.MonkeyPatch, closes: list[int]
) -> None:
    slug = "cancel-at-accept"
    key, pk = await sync_to_async(_join)(slug, "ada")
    ada = await _healthy(slug, key, pk)
    accepting = asyncio.Event()
    real = RoomConsumer.accept

    async def hung_accept(self: RoomConsumer, *args: Any, **kwargs: Any) -> None:
        if self.scope["query_string"] == FAIL:
            accepting.set()
            await asyncio.Event().wait()  # under load, the accept is not answered
        await real(self, *args, **kwargs)

    monkeypatch.setattr(RoomConsumer, "accept", hung_accept)
    late = Client(slug, key, path=f"/ws/r/{slug}/?fail")
    await late.comm.send_input({"type": "websocket.connect"})
    await asyncio.wait_for(accepting.wait(), WAIT)
    assert await sync_to_async(_connections)(pk) == 2
    await _killed(late)
    await _settled(pk, closes, count=1, closed=1)
    await ada.close()
    await _settled(pk, closes, count=0, closed=2)


@pytest.mark.parametrize("step", ["accept", "attach", "send_state"])
async def test_a_handshake_that_fails_after_counting_is_counted_out_once(
    monkeypatch: pytest.MonkeyPatch, closes: list[int], step: str
) -> None:
    slug = f"fails-at-{step}".replace("_", "-")
    key, pk = await sync_to_async(_join)(slug, "ada")
    ada = await _healthy(slug, key, pk)
    if step == "attach":
        real_attach = hub.Hub.attach

        async def attach(self: hub.Hub, socket: Any) -> None:
            await real_attach(self, socket)
            if socket.scope["query_string"] == FAIL:
                raise Injected(step)

        monkeypatch.setattr(hub.Hub, "attach", attach)
    else:
        real = getattr(RoomConsumer, step)

        async def failing(self: RoomConsumer, *args: Any, **kwargs: Any) -> None:
            if self.scope["query_string"] == FAIL:
                raise Injected(step)  # accept: Daphne's answer when the client already left
            await real(self, *args, **kwargs)

        monkeypatch.setattr(RoomConsumer, step, failing)
    late = Client(slug, key, path=f"/ws/r/{slug}/?fail")
    await late.comm.send_input({"type": "websocket.connect"})
    await asyncio.wait([late.comm.future], timeout=WAIT)
    assert isinstance(late.comm.future.exception(), Injected)
    await _settled(pk, closes, count=1, closed=1)
    # Nothing of the dead socket is left on the hub: pushes go to the healthy one only.
    assert all(s.scope["query_string"] != FAIL for r in hub.get_hub().rooms.values() for s in r.sockets)
    await ada.close()
    await _settled(pk, closes, count=0, closed=2)


async def test_a_socket_opened_and_closed_counts_one_then_none(closes: list[int]) -> None:
    key, pk = await sync_to_async(_join)("open-close", "ada")
    ada = await _healthy("open-close", key, pk)
    await _settled(pk, closes, count=1, closed=0)
    await ada.close()
    await _settled(pk, closes, count=0, closed=1)


async def test_a_disconnect_cancelled_while_it_waits_for_a_thread_still_counts_out(
    monkeypatch: pytest.MonkeyPatch, closes: list[int]
) -> None:
    key, pk = await sync_to_async(_join)("busy-pool", "ada")
    ada = await _healthy("busy-pool", key, pk)
    # Every pool thread busy (a crowd of handshakes): the count-out waits for one.
    busy, started = threading.Event(), threading.Barrier(db.pool_size() + 1)

    def crowd() -> None:
        started.wait(WAIT)
        busy.wait(WAIT)

    jobs = [db.executor().submit(crowd) for _ in range(db.pool_size())]
    await asyncio.to_thread(started.wait, WAIT)
    queued = asyncio.Event()
    real = db.start_in_pool

    def start(*args: Any, **kwargs: Any) -> Any:
        future = real(*args, **kwargs)
        queued.set()
        return future

    monkeypatch.setattr(db, "start_in_pool", start)
    await ada.comm.send_input({"type": "websocket.disconnect", "code": 1001})
    await asyncio.wait_for(queued.wait(), WAIT)
    await _killed(ada)  # its close timeout passed while the count-out still waited
    busy.set()
    for job in jobs:
        await asyncio.wrap_future(job)
    await _settled(pk, closes, count=0, closed=1)


@pytest.fixture
def two_pool_threads(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Iterator[None]:
    """A pool of two threads even on SQLite: a handshake held on one, another on the other."""
    if db.pool_size() >= 2:
        yield
        return
    settings.DB_THREADS = 2
    monkeypatch.setattr(db, "_executor", None)  # this test's own pool; the usual one is restored after
    yield
    db.close_pool_connections()


async def test_a_dead_handshake_that_was_the_first_count_pushes_the_arrival_it_held_back(
    monkeypatch: pytest.MonkeyPatch, closes: list[int], two_pool_threads: None
) -> None:
    """The reverse (a player shown away while here): the dying handshake counted Ada first,
    an arrival it never pushed, and her second socket opened meanwhile, not her first, so
    it pushes nothing. Once the first is counted out, the room is told she is here."""
    slug = "dead-first"
    key, pk = await sync_to_async(_join)(slug, "ada")
    # A visitor's screen: its socket counts nobody, so it makes no presence push of its own.
    watcher = Client(slug)
    assert _marks(await watcher.connect()) == {"ada": False}
    held, release = threading.Event(), threading.Event()
    real = presence.presence_open

    def first_held(**kwargs: Any) -> dict[str, Any] | None:
        seat = real(**kwargs)
        if not held.is_set():  # the first handshake only
            held.set()
            release.wait(WAIT)
        return seat

    monkeypatch.setattr(presence, "presence_open", first_held)
    first = Client(slug, key)
    await first.comm.send_input({"type": "websocket.connect"})
    assert await asyncio.to_thread(held.wait, WAIT)
    ada = Client(slug, key)
    await ada.connect()
    assert await sync_to_async(_connections)(pk) == 2
    await _killed(first)
    release.set()
    await _settled(pk, closes, count=1, closed=1)
    # The hub's periodic touch would say it too, but only after many seconds: this is the push.
    await watcher.eventually(lambda s: _marks(s) == {"ada": True})
    await ada.close()
    await watcher.eventually(lambda s: _marks(s) == {"ada": False})
    await watcher.close()


def _marks(state: dict[str, Any]) -> dict[str, bool]:
    return {p["name"]: p["connected"] for p in state["players"]}
