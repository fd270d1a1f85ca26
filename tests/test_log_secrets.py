"""No secret of a game reaches a log line (issue 28), whatever the level, and a database
outage costs the clock's log two lines, not a traceback per pass.

Real games on the configured database (SQLite, or PostgreSQL whose errors quote the failing
row), every query logged at DEBUG, database errors forced inside a move's transaction, and
every line read as the site's handler writes it (traceback included)."""

from __future__ import annotations

import io
import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections

from codenames.models import CodenamesGame
from config.logs import Secrets, TextFormatter, logging_config
from decrypto.models import DecryptoGame
from rooms import changes, chat, clock, services
from rooms.models import Player
from tests.codenames.test_concurrency import _act as codenames_act
from tests.codenames.test_concurrency import _table as codenames_table
from tests.decrypto.table import FOUR, play_as, seat_room

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site_log() -> Iterator[io.StringIO]:
    """Every record of every logger at DEBUG, through the handler the site configures."""
    config = logging_config("text", "DEBUG")
    assert config["handlers"]["console"]["filters"][-1] == "secrets"  # last: it sees every field
    assert config["filters"]["secrets"]["()"] is Secrets
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(TextFormatter())
    handler.addFilter(Secrets())
    root, sql = logging.getLogger(), logging.getLogger("django.db.backends")
    levels = root.level, sql.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    sql.setLevel(logging.DEBUG)  # Django's own config holds "django" at INFO
    # Every query with its parameters, as DEBUG=True logs them.
    connection.force_debug_cursor = True
    try:
        yield stream
    finally:
        connection.force_debug_cursor = False
        root.removeHandler(handler)
        root.setLevel(levels[0])
        sql.setLevel(levels[1])


def _failed_insert(slug: str, model: Any) -> None:
    """A duplicate of the running game's record without its seed, inside a move's
    transaction: PostgreSQL's error quotes the whole failing row (state, notes)."""
    record = model.objects.filter(room__slug=slug).order_by("-number").first()
    try:
        with changes.locked_room(slug) as room:
            model.objects.create(room=room, number=record.number + 1, seed=None, state=record.state,
                                 bot_notes=record.bot_notes)  # fmt: skip
    except IntegrityError:
        # What the socket does with a bug (rooms.consumers: "action failed").
        logging.getLogger("rooms.consumers").exception("room %s: action failed", slug)
    else:
        raise AssertionError("the insert was expected to fail")


def _secrets_of_codenames(slug: str) -> list[str]:
    record = CodenamesGame.objects.get(room__slug=slug)
    key = record.state["key"]
    pairs = [json.dumps(key), json.dumps(key, separators=(",", ":")), record.seed]
    # Each agent's word beside its identity, as a row or a dict would quote them.
    pairs += [f'"{word}": "{identity}"' for word, identity in zip(record.state["words"], key, strict=True)]
    return pairs + [note for note in record.bot_notes.values()]


def _secrets_of_decrypto(slug: str) -> list[str]:
    record = DecryptoGame.objects.get(room__slug=slug)
    found = [record.seed]
    for team in record.state["teams"].values():
        found += team["keywords"]
    text = json.dumps(record.state)
    # The current codes (a team's turn), in either spelling of a JSON list.
    turns = record.state["turns"]
    assert any(turns.values()), "a dealt game has a turn with its code"
    for turn in turns.values():
        if turn is not None:
            found += [json.dumps(turn["code"]), json.dumps(turn["code"], separators=(",", ":"))]
    assert all(word in text for word in found[1:3])
    return found


def test_no_secret_of_a_game_reaches_the_log(site_log: io.StringIO) -> None:
    # Codenames: a deal, a clue, a guess, a device link, a team line, a bot's note.
    codenames_table("logs-cn")
    codenames_act("logs-cn", "rosa", {"action": "start_game"})
    state = CodenamesGame.objects.get(room__slug="logs-cn").state
    spymaster, operative = ("rosa", "rui") if state["team"] == "red" else ("bea", "bo")
    codenames_act(
        "logs-cn", spymaster, {"action": "give_clue", "turn": state["turn"], "word": "zqx", "number": 1}
    )
    turn = CodenamesGame.objects.get(room__slug="logs-cn").state["turn"]
    codenames_act("logs-cn", operative, {"action": "propose", "turn": turn, "position": 0})
    CodenamesGame.objects.filter(room__slug="logs-cn").update(bot_notes={"0": "ZQSAND 3 → coast, crab, reef"})
    services.room_device_link(slug="logs-cn", uid="logs-cn-rosa", regenerate=False)
    chat.chat_say(slug="logs-cn", uid="logs-cn-rui", channel="team", text="zqcn whisper twelve")
    _failed_insert("logs-cn", CodenamesGame)

    # Decrypto: a deal (keywords, codes), a team's whisper.
    seats = seat_room("logs-dc", FOUR)
    play_as("logs-dc", seats["ann"].uid, {"action": "start_game"})
    chat.chat_say(slug="logs-dc", uid=seats["amy"].uid, channel="team", text="zqdc whisper harbor")
    _failed_insert("logs-dc", DecryptoGame)

    secrets = _secrets_of_codenames("logs-cn") + _secrets_of_decrypto("logs-dc")
    secrets += ["zqcn whisper", "zqdc whisper", "ZQSAND"]
    tokens = Player.objects.filter(device_token__isnull=False).values_list("device_token", flat=True)
    assert len(tokens) == 1
    secrets += list(tokens)
    text = site_log.getvalue()
    # The log did run: queries at DEBUG and the error with its traceback.
    assert "query (SQL and parameters withheld)" in text
    assert text.count("action failed") == 2 and text.count("Traceback") >= 2
    assert "IntegrityError" in text
    # Whole words: a keyword such as "rain" must not be found inside "constraint".
    leaked = [s for s in secrets if s and re.search(rf"(?<!\w){re.escape(s)}(?!\w)", text)]
    assert leaked == [], leaked
    if connection.vendor == "postgresql":
        assert "violates not-null constraint" in text and "Failing row contains" not in text


def _measure_outage(seconds: float, poll: float) -> tuple[str, int]:
    """The clock's log while its database is unreachable, then back; (log, passes tried)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(TextFormatter())
    handler.addFilter(Secrets())
    clock_log = logging.getLogger("rooms.clock")
    clock_log.addHandler(handler)
    stop, passes = threading.Event(), [0]
    held: dict[str, Any] = {}
    counted = clock.find_due

    def counting(now: float) -> Any:
        passes[0] += 1
        return counted(now)

    def run() -> None:
        own = connections["default"]
        held["connection"], held["settings"] = own, own.settings_dict
        broken = dict(own.settings_dict)
        if own.vendor == "postgresql":
            broken["PORT"] = "1"  # nothing listens there: connection refused
        else:
            broken["NAME"] = "/nonexistent-dir/db.sqlite3"
        own.settings_dict = broken
        clock.run(stop, poll)

    clock.find_due = counting  # counts the passes; each still opens the real connection
    thread = threading.Thread(target=run)
    try:
        thread.start()
        time.sleep(seconds)
        # The database is back: the thread's next pass connects with the real settings.
        own = held["connection"]
        own.settings_dict = {**held["settings"], "CONN_MAX_AGE": None, "CONN_HEALTH_CHECKS": False}
        deadline = time.monotonic() + 10
        while "database back" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join(timeout=10)
        clock.find_due = counted
        clock_log.removeHandler(handler)
    return stream.getvalue(), passes[0]


def test_a_database_outage_is_two_clock_lines_not_a_traceback_per_pass() -> None:
    text, passes = _measure_outage(0.5, poll=0.02)
    lines = text.splitlines()
    per_minute = len(text.encode()) * (60 / clock.POLL_EVERY) / max(passes, 1)
    print(f"\n{passes} failed passes wrote {len(text.encode())} bytes in {len(lines)} lines: {lines}")
    print(f"at one pass per {clock.POLL_EVERY} s: {per_minute:.0f} bytes a minute of outage (upper bound)")
    assert passes >= 5
    assert len(lines) == 2, lines
    assert "game clock pass: database away (OperationalError" in lines[0]
    assert "game clock pass: database back after" in lines[1]
    assert "Traceback" not in text
