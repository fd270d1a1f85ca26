"""Presence heals (issues 24 and 28): each process counts its own sockets, a process that
stopped beating is dropped and its players counted once, a departure an outage missed is
written when the database is back, and nobody live is dropped just after an outage (the
same with real servers and faults: tests/rooms/test_presence_faults.py)."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

from rooms import beat, presence
from rooms.models import Player, Presence, ServerProcess
from rooms.services import room_join

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _beats_by_hand(monkeypatch: Any) -> None:
    """This module's processes beat when a test says so, never on the presence thread."""
    monkeypatch.setattr(beat.BEATER, "add", lambda process: None)


def _players(slug: str, *names: str) -> list[Player]:
    for name in names:
        room_join(slug=slug, uid=f"{slug}-{name}", name=name)
    return [Player.objects.get(uid=f"{slug}-{name}") for name in names]


def _arrive(process: presence.Process, player: Player) -> dict[str, Any] | None:
    return presence.presence_open(slug=player.room.slug, uid=player.uid, device_token=None, process=process)


def _counts(*players: Player) -> list[int]:
    return [Player.objects.get(pk=p.pk).connections for p in players]


def _rows(process: presence.Process) -> dict[int, int]:
    return dict(Presence.objects.filter(process_id=process.key).values_list("player_id", "sockets"))


def _silent_for(process: presence.Process, seconds: float) -> None:
    """The process's last beat, ``seconds`` ago (as if it had stopped then)."""
    ServerProcess.objects.filter(key=process.key).update(beat_at=timezone.now() - timedelta(seconds=seconds))


def _judge() -> presence.Process:
    """A live process that has beaten without a gap for longer than it needs to judge."""
    judge = presence.Process()
    presence.presence_beat(judge)
    judge.up_since = time.monotonic() - beat.JUDGE_AFTER - 1
    return judge


def test_each_process_counts_its_own_sockets_and_the_player_shows_their_sum() -> None:
    ada, bo = _players("counts", "ada", "bo")
    one, two = presence.Process(), presence.Process()
    assert _arrive(one, ada)["flipped"]  # type: ignore[index]
    assert not _arrive(two, ada)["flipped"]  # type: ignore[index]
    assert _arrive(one, ada) and _arrive(one, bo)
    assert _counts(ada, bo) == [3, 1]
    assert (_rows(one), _rows(two)) == ({ada.pk: 2, bo.pk: 1}, {ada.pk: 1})
    assert not presence.presence_close(pk=ada.pk, process=one)
    assert not presence.presence_close(pk=ada.pk, process=two)
    assert presence.presence_close(pk=ada.pk, process=one)  # the last of Ada's sockets
    assert _counts(ada, bo) == [0, 1]
    assert one.counts == {bo.pk: 1} and two.counts == {}
    # A close this process's row no longer counts (it was dropped as dead) counts nothing.
    assert not presence.presence_close(pk=bo.pk, process=two)
    assert _counts(ada, bo) == [0, 1]


def test_a_process_that_stopped_beating_is_dropped_and_its_players_counted_once() -> None:
    ada, bo = _players("killed", "ada", "bo")
    dead, alive = presence.Process(), presence.Process()
    _arrive(dead, ada), _arrive(dead, bo), _arrive(alive, ada)  # Ada came back on the live process
    assert _counts(ada, bo) == [2, 1]
    judge = _judge()
    _silent_for(dead, beat.DEAD_AFTER - 1)
    assert presence.presence_drop_dead(alive=judge.key) == set()  # not silent for long enough
    _silent_for(dead, beat.DEAD_AFTER + 1)
    assert presence.presence_drop_dead(alive=judge.key) == {"killed"}  # Bo now shows away
    assert _counts(ada, bo) == [1, 0]
    assert _rows(dead) == {} and not ServerProcess.objects.filter(key=dead.key).exists()


def test_nobody_is_dropped_until_the_judge_has_beaten_for_a_while_after_an_outage() -> None:
    (ada,) = _players("just-back", "ada")
    other, judge = presence.Process(), presence.Process()
    _arrive(other, ada)
    _silent_for(other, 60)  # every beat stopped by the outage
    presence.presence_beat(judge)  # the database is back: the judge's first beat
    assert _counts(ada) == [1]
    judge.up_since = time.monotonic() - beat.JUDGE_AFTER - 1
    presence.presence_beat(judge)
    assert _counts(ada) == [0]


def test_a_process_taken_for_dead_counts_its_sockets_again_at_its_next_beat() -> None:
    (ada,) = _players("not-dead", "ada")
    process = presence.Process()
    _arrive(process, ada)
    presence.presence_beat(process)
    _silent_for(process, 60)
    presence.presence_drop_dead(alive=_judge().key)
    assert _counts(ada) == [0]
    moved: list[tuple[set[str], bool]] = []
    process.on_change = lambda rooms, healed: moved.append((rooms, healed))
    presence.presence_beat(process)  # its row is gone: made again, its sockets re-asserted
    assert _counts(ada) == [1] and _rows(process) == {ada.pk: 1}
    assert moved == [({"not-dead"}, False)]


def test_a_departure_the_database_missed_is_written_at_the_first_beat_after_it(monkeypatch: Any) -> None:
    ada, bo = _players("left-in-outage", "ada", "bo")
    process = presence.Process()
    _arrive(process, ada), _arrive(process, bo), _arrive(process, bo)
    presence.presence_beat(process)

    def away(*args: Any) -> None:
        raise OperationalError("the database is away")

    monkeypatch.setattr(presence, "_count_out", away)
    with pytest.raises(OperationalError):
        presence.presence_close(pk=ada.pk, process=process)
    with pytest.raises(OperationalError):
        presence.presence_close(pk=bo.pk, process=process)
    monkeypatch.undo()
    assert process.dirty and process.counts == {bo.pk: 1} and _counts(ada, bo) == [1, 2]
    moved: list[tuple[set[str], bool]] = []
    process.on_change = lambda rooms, healed: moved.append((rooms, healed))
    presence.presence_beat(process)
    assert _counts(ada, bo) == [0, 1] and _rows(process) == {bo.pk: 1}
    assert not process.dirty and moved == [({"left-in-outage"}, False)]


def test_a_beat_that_fails_reasserts_and_checks_every_room_once_the_database_is_back(
    monkeypatch: Any,
) -> None:
    (ada,) = _players("beat-fails", "ada")
    process = presence.Process()
    _arrive(process, ada)

    def away(process: presence.Process) -> None:
        raise OperationalError("the database is away")

    real = beat._beat
    monkeypatch.setattr(beat, "_beat", away)
    with pytest.raises(OperationalError):
        presence.presence_beat(process)
    assert process.dirty and process.up_since is None
    monkeypatch.setattr(beat, "_beat", real)
    moved: list[tuple[set[str], bool]] = []
    process.on_change = lambda rooms, healed: moved.append((rooms, healed))
    presence.presence_beat(process)
    assert moved == [(set(), True)] and _counts(ada) == [1]


def test_a_reassertion_waits_for_the_handshakes_under_way() -> None:
    (ada,) = _players("gate", "ada")
    process = presence.Process()
    _arrive(process, ada)
    process.dirty = True
    with process.writing():  # a handshake between its write and its count here
        assert beat._reassert(process) is None
    assert process.dirty
    assert beat._reassert(process) == set() and not process.dirty


def test_a_deleted_player_no_longer_counts_on_the_process() -> None:
    ada, bo = _players("deleted", "ada", "bo")
    process = presence.Process()
    _arrive(process, ada), _arrive(process, bo)
    Player.objects.filter(pk=ada.pk).delete()
    assert not Presence.objects.filter(player_id=ada.pk).exists()  # its rows went with it
    process.dirty = True
    presence.presence_beat(process)
    assert process.counts == {bo.pk: 1} and _rows(process) == {bo.pk: 1}


def test_a_retired_process_leaves_no_row_and_no_count() -> None:
    (ada,) = _players("retired", "ada")
    process = presence.Process()
    _arrive(process, ada)
    presence.presence_beat(process)
    assert presence.presence_retire(process) == {"retired"}
    assert _counts(ada) == [0] and not ServerProcess.objects.filter(key=process.key).exists()


def test_connected_reads_the_count_alone_whatever_the_clock() -> None:
    (ada,) = _players("no-clock", "ada")
    Player.objects.filter(pk=ada.pk).update(connections=1, last_seen=timezone.now() - timedelta(hours=1))
    assert presence.is_connected(Player.objects.get(pk=ada.pk))


def test_the_sweep_lowers_only_unbacked_counts_once_the_database_was_up_a_whole_grace_period() -> None:
    ada, bo = _players("sweep-waits", "ada", "bo")
    process = presence.Process()
    _arrive(process, bo)
    stale = timezone.now() - presence.PRESENCE_GRACE * 2
    # Ada counted by the previous release's code (no row), Bo by a live process's row
    # plus one such count; nobody vouched for either lately.
    Player.objects.filter(pk=ada.pk).update(connections=1, last_seen=stale)
    Player.objects.filter(pk=bo.pk).update(connections=2, last_seen=stale)
    grace = presence.PRESENCE_GRACE.total_seconds()
    # Just back from an outage: live processes have not had the time to vouch yet.
    assert presence.presence_sweep(up_for=grace - 1) == 0
    assert _counts(ada, bo) == [1, 2]
    # The clock's own measure: its first sweep (or its first after a pause) starts the count.
    presence._sweeps.clear()
    assert presence.presence_sweep() == 0
    assert _counts(ada, bo) == [1, 2]
    # Up for a whole grace period: what no row backs is nobody's socket any more.
    assert presence.presence_sweep(up_for=grace + 1) == 1
    assert _counts(ada, bo) == [0, 1]
