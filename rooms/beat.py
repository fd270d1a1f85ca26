"""Presence's heartbeat (rooms.presence): each server process's sockets, its beats, and the
judging of the processes that stopped beating.

A thread of its own beats for every ``Process`` of this OS process that holds sockets
(one per hub), on a database connection of its own: the sockets' pool may be busy with a
crowd of handshakes, and a beat it delayed would make a live process look dead. Each
beat is one statement (its row's ``beat_at``, by the database's clock), then one read of
the processes whose beat is older than ``DEAD_AFTER`` (usually none); a re-assertion of
this process's sockets only when it owes one.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest, Now

from rooms import db
from rooms.models import Player, Presence, ServerProcess

log = logging.getLogger(__name__)

BEAT = float(getattr(settings, "PRESENCE_BEAT_SECONDS", 1.0))
DEAD_AFTER = float(getattr(settings, "PRESENCE_DEAD_SECONDS", 2.5))
JUDGE_AFTER = float(getattr(settings, "PRESENCE_JUDGE_SECONDS", 5.0))
GATE_WAIT = 0.5  # seconds a re-assertion waits for the handshakes under way, else next beat
CLEAN_EVERY = 60  # beats between two deletions of this process's rows counting no socket
CHUNK = 500  # players per statement when many change at once


class Process:
    """This server process's sockets as presence counts them (one per hub, one per loop).

    ``counts`` (player pk → sockets open here) changes only with a handshake's or a
    close's own write, both holding the gate shared; a re-assertion holds it alone, so it
    never sees a write committed but not yet counted here, nor the reverse.
    ``on_change(rooms, healed)`` is called from the beating thread with the rooms whose
    players now show otherwise, and ``healed`` after an outage's re-assertion.
    """

    def __init__(
        self,
        on_change: Callable[[set[str], bool], None] | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.key = uuid.uuid4().hex
        self.name = f"{socket.gethostname()}:{os.getpid()}"[:100]
        self.counts: dict[int, int] = {}
        self.on_change = on_change
        self.loop = weakref.ref(loop) if loop is not None else None
        self.dirty = False  # the database may differ from ``counts``: re-assert at the next beat
        self.failed = False  # a beat failed: every local room is checked once healed
        self.registered = False
        self.retired = False
        self.up_since: float | None = None  # beating without a gap since (monotonic)
        self.beaten_at: float | None = None  # the last beat that succeeded (monotonic)
        self.beats = 0
        self.beat_lock = threading.Lock()
        self._gate = threading.Condition()
        self._writers = 0
        self._alone = False

    def active(self) -> bool:
        """Whether it must beat: it holds sockets, or owes the database a re-assertion."""
        if self.retired:
            return False
        loop = self.loop() if self.loop is not None else None
        if self.loop is not None and (loop is None or loop.is_closed()):
            return False  # its hub's loop is gone (a test's)
        return bool(self.counts) or self.dirty

    def players(self) -> list[int]:
        """The players it holds sockets of (from any thread)."""
        with self._gate:
            return list(self.counts)

    def forget(self, pk: int) -> None:
        """One socket of a player that was deleted (its rows went with it) stops counting."""
        with self._gate:
            self._add(pk, -1)

    def _add(self, pk: int, sockets: int) -> None:
        left = self.counts.get(pk, 0) + sockets
        if left > 0:
            self.counts[pk] = left
        else:
            self.counts.pop(pk, None)

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._gate:
            while self._alone:
                self._gate.wait()
            self._writers += 1
        try:
            yield
        finally:
            with self._gate:
                self._writers -= 1
                self._gate.notify_all()

    @contextmanager
    def alone(self, timeout: float) -> Iterator[bool]:
        """No handshake or close writes meanwhile (False: some did not finish in time)."""
        with self._gate:
            self._alone = True
            got = self._gate.wait_for(lambda: self._writers == 0, timeout)
            if not got:
                self._alone = False
                self._gate.notify_all()
        try:
            yield got
        finally:
            if got:
                with self._gate:
                    self._alone = False
                    self._gate.notify_all()


# ---- the beat ------------------------------------------------------------------------


def presence_beat(process: Process) -> None:
    """One beat: say this process lives, drop the dead, re-assert this process's sockets
    if it owes that, and tell its hub which rooms now show someone otherwise."""
    with process.beat_lock:
        try:
            _beat(process)
            now = time.monotonic()
            if process.up_since is None:
                process.up_since = now
            rooms: set[str] = set()
            if now - process.up_since >= JUDGE_AFTER:
                rooms |= presence_drop_dead(alive=process.key)
            healed = False
            if process.dirty:
                changed = _reassert(process)
                if changed is not None:
                    rooms |= changed
                    healed, process.failed = process.failed, False
            process.beats += 1
            if process.beats % CLEAN_EVERY == 0:
                Presence.objects.filter(process_id=process.key, sockets__lte=0).delete()
        except Exception:
            process.up_since = None  # a gap: judge nobody until beating again for long enough
            process.dirty = process.failed = True
            raise
    if (rooms or healed) and process.on_change is not None:
        process.on_change(rooms, healed)


def _beat(process: Process) -> None:
    if not ServerProcess.objects.filter(key=process.key).update(beat_at=Now()):
        ServerProcess.objects.create(key=process.key, name=process.name, beat_at=Now())
        if process.registered:
            process.dirty = True  # dropped as dead meanwhile: its rows are gone
        process.registered = True
    process.beaten_at = time.monotonic()


def ensure_beating(process: Process) -> None:
    """Before a handshake counts: a process that stopped beating (no socket for a while)
    beats first, so nobody drops the row it is about to count in."""

    def stale() -> bool:  # beaten by the thread, it is at most a beat old (and a little)
        return process.beaten_at is None or time.monotonic() - process.beaten_at > 1.5 * BEAT

    if stale():
        with process.beat_lock:
            if stale():  # not beaten meanwhile for another handshake
                _beat(process)


def presence_drop_dead(*, alive: str | None = None) -> set[str]:
    """Drop every process the database's clock says stopped beating ``DEAD_AFTER`` ago;
    the rooms where someone now shows away."""
    cutoff = Now() - timedelta(seconds=DEAD_AFTER)
    dead = ServerProcess.objects.filter(beat_at__lt=cutoff).exclude(key=alive or "")
    rooms: set[str] = set()
    for key in list(dead.values_list("key", flat=True)):
        rooms |= _drop(key, cutoff)
    return rooms


def presence_retire(process: Process) -> set[str]:
    """This process stops (after its drain): its row and rows go; the rooms to push."""
    process.retired = True
    with process.beat_lock:
        return _drop(process.key)


def _drop(key: str, cutoff: Any = None) -> set[str]:
    """A process's row and its rows go, its players' counts down by them, atomically (a
    process that beat meanwhile is not dropped)."""
    with transaction.atomic():
        row = ServerProcess.objects.filter(key=key)
        if cutoff is not None:
            row = row.filter(beat_at__lt=cutoff)
        if not row.delete()[0]:
            return set()
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM {Presence._meta.db_table} WHERE process_id = %s RETURNING player_id, sockets",
                [key],
            )
            held = cursor.fetchall()
        return _add_counts({pk: -sockets for pk, sockets in held if sockets})


def _reassert(process: Process) -> set[str] | None:
    """This process's rows made exactly its sockets; the rooms whose players now show
    otherwise (``None``: handshakes under way kept it from running, the next beat tries)."""
    with process.alone(GATE_WAIT) as alone:
        if not alone:
            return None
        want = dict(process.counts)
        with transaction.atomic():
            rows = Presence.objects.filter(process_id=process.key)
            have = dict(rows.values_list("player_id", "sockets"))
            known = {pk for part in chunks(list(want)) for pk in Player.objects.filter(pk__in=part)
                     .values_list("pk", flat=True)}  # fmt: skip
            for pk in set(want) - known:  # deleted meanwhile (their rows went with them)
                del want[pk], process.counts[pk]
            deltas = {pk: want.get(pk, 0) - have.get(pk, 0) for pk in {*want, *have}}
            deltas = {pk: delta for pk, delta in deltas.items() if delta}
            for part in chunks([pk for pk in deltas if pk not in want]):
                rows.filter(player_id__in=part).delete()
            Presence.objects.bulk_create(
                [
                    Presence(process_id=process.key, player_id=pk, sockets=want[pk])
                    for pk in deltas
                    if pk in want
                ],
                update_conflicts=True,
                unique_fields=["process", "player"],
                update_fields=["sockets"],
            )
            rooms = _add_counts(deltas)
        process.dirty = False
    if deltas:
        log.warning("presence: re-asserted %d players' sockets on this process", len(deltas))
    return rooms


def _add_counts(deltas: dict[int, int]) -> set[str]:
    """Players' counts changed by ``deltas`` (never below 0); the rooms where one of them
    went from away to connected or back."""
    by_delta: dict[int, list[int]] = {}
    for pk, delta in deltas.items():
        if delta:
            by_delta.setdefault(delta, []).append(pk)
    for delta, pks in by_delta.items():
        for part in chunks(pks):
            Player.objects.filter(pk__in=part).update(
                connections=Greatest(F("connections") + delta, Value(0))
            )
    rooms = set()
    for part in chunks(list(deltas)):
        for pk, count, slug in Player.objects.filter(pk__in=part).values_list(
            "pk", "connections", "room__slug"
        ):
            if (count > 0) != (count - deltas[pk] > 0):
                rooms.add(slug)
    return rooms


def chunks(items: list[int]) -> Iterator[list[int]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


class _Beater:
    """The thread that beats for every active ``Process`` of this OS process, on a
    database connection of its own."""

    def __init__(self) -> None:
        self.processes: weakref.WeakSet[Process] = weakref.WeakSet()
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.quiet_until = 0.0

    def add(self, process: Process) -> None:
        with self.lock:
            self.processes.add(process)
            if self.thread is None or not self.thread.is_alive():
                self.stopping.clear()
                self.thread = threading.Thread(target=self.run, name="presence-beat", daemon=True)
                self.thread.start()

    def due(self) -> list[Process]:
        """The processes to beat now; an idle one is let go (its next handshake beats)."""
        with self.lock:
            for process in list(self.processes):
                if not process.active():
                    self.processes.discard(process)
            return list(self.processes)

    def run(self) -> None:
        db._keep_connections()
        while not self.stopping.is_set():
            started = time.monotonic()
            for process in self.due():
                close_old_connections()
                try:
                    presence_beat(process)
                except (OperationalError, InterfaceError) as error:
                    if time.monotonic() > self.quiet_until:  # one line a minute at most
                        self.quiet_until = time.monotonic() + 60
                        log.warning("presence: a beat failed (database away?): %s", str(error).strip())
                except Exception:
                    log.exception("presence: a beat failed")
            self.stopping.wait(max(0.0, BEAT - (time.monotonic() - started)))
        connection.close()

    def stop(self) -> None:
        """End the thread and close its connection (before a test database is dropped)."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=10)
            self.thread = None


BEATER = _Beater()


def stop_beating() -> None:
    """Stop the presence thread and close its connection (it starts again when needed)."""
    BEATER.stop()


db.at_close(stop_beating)
