"""A table of real sockets for Decrypto room tests, moves driven by the saved state, and
the secrecy checker (DC-S1..DC-S3).

The saved engine state is the tests' oracle: it names each round's Encryptors and codes,
which no browser may see, so a test can play right or wrong guesses on purpose.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from decrypto.game import GAME
from decrypto.models import DecryptoGame
from rooms.changes import locked_room
from rooms.models import Player
from rooms.services import room_join, room_sit
from tests.conftest import Client, act, make_session, room_version, settle  # noqa: F401  (re-exported)

TEAMS = ("white", "black")
OTHER = {"white": "black", "black": "white"}

FOUR = [("ann", "white"), ("amy", "white"), ("bob", "black"), ("ben", "black"), ("sam", "")]
# The Interceptor sits at the room's white seats, the team of two at black: the engine's
# "white" is then the room's black team (see decrypto/services.py).
THREE = [("ivy", "white"), ("ann", "black"), ("amy", "black"), ("sam", "")]


def token_words(count: int = 80) -> list[str]:
    """Keywords no page or frame could contain by chance: ASCII letters only (no digit
    could pass for a code), all the same length (none inside another)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["kwz" + "".join(t) for t in itertools.islice(itertools.product(letters, repeat=3), count)]


def write_pack(folder: Path) -> str:
    (folder / "en.txt").write_text("\n".join(token_words()) + "\n", encoding="utf-8")
    return str(folder)


@dataclass
class Seat:
    name: str
    team: str
    uid: str = ""
    public_id: str = ""
    client: Client | None = None


@dataclass
class Table:
    slug: str
    seats: dict[str, Seat] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Client:
        client = self.seats[name].client
        assert client is not None
        return client

    def id(self, name: str) -> str:
        return self.seats[name].public_id

    def name_of(self, public_id: str) -> str:
        return next(s.name for s in self.seats.values() if s.public_id == public_id)

    async def close(self) -> None:
        for seat in self.seats.values():
            if seat.client is not None:
                await seat.client.close()


def seat_room(slug: str, layout: list[tuple[str, str]]) -> dict[str, Seat]:
    """Join everyone to a Decrypto room (in this order: the rotation order) and seat them."""
    seats = {name: Seat(name, team) for name, team in layout}
    for seat in seats.values():
        seat.uid = f"uid-{slug}-{seat.name}"
        room_join(slug=slug, uid=seat.uid, name=seat.name, game="decrypto")
        if seat.team:
            room_sit(slug=slug, uid=seat.uid, team=seat.team, role="player")
        seat.public_id = Player.objects.get(room__slug=slug, uid=seat.uid).public_id
    return seats


async def open_table(slug: str, layout: list[tuple[str, str]]) -> Table:
    """Join and seat everyone, then open one socket per player."""
    seats = await sync_to_async(seat_room)(slug, layout)
    table = Table(slug, seats)
    for seat in seats.values():
        key = await sync_to_async(make_session)(seat.uid)
        seat.client = Client(slug, key)
        await seat.client.connect()
    await settle([seat.client for seat in table.seats.values() if seat.client is not None])
    return table


def play_as(slug: str, uid: str, message: dict[str, Any]) -> None:
    """A move as the consumer makes it (room row locked), for tests with no socket."""
    with locked_room(slug) as room:
        player = room.players.get(uid=uid)
        GAME.act(room, player, message)


def saved_game(slug: str) -> DecryptoGame:
    game = DecryptoGame.objects.filter(room__slug=slug).order_by("-number").first()
    assert game is not None
    return game


async def game_state(slug: str) -> dict[str, Any]:
    """The engine's saved state (the test's oracle; never what a browser gets)."""
    return await sync_to_async(lambda: saved_game(slug).state)()


async def page_bytes(slug: str, uid: str | None) -> str:
    def fetch() -> str:
        client = HttpClient()
        if uid:
            client.cookies["sessionid"] = make_session(uid)
        return client.get(f"/r/{slug}/").content.decode()

    return await sync_to_async(fetch)()


async def wait_all(table: Table, predicate: Any) -> None:
    """Read every socket up to a state whose ``play`` satisfies ``predicate``."""
    for seat in table.seats.values():
        assert seat.client is not None
        await seat.client.eventually(lambda s: s["play"] is not None and predicate(s["play"]))


# ---- moves, chosen with the saved state ----------------------------------------------------


def stamp(state: dict[str, Any]) -> dict[str, Any]:
    return {"round": state["round"], "phase": state["phase"]}


def guess_stamp(state: dict[str, Any]) -> dict[str, Any]:
    return {**stamp(state), "guessing_for": state["guessing_for"]}


def clue_set(state: dict[str, Any], team: str) -> list[str]:
    """Fresh, letters-only clues (no digit in a clue could look like a code)."""
    letter = "abcdefghij"[state["round"]]
    return [f"clue-{team}-{letter}-{x}" for x in "xyz"]


def wrong(code: list[int]) -> list[int]:
    """A different valid code (the same digits, rotated)."""
    return [code[1], code[2], code[0]]


def encryptor_name(table: Table, state: dict[str, Any], team: str) -> str:
    return table.name_of(state["turns"][team]["encryptor"])


def guesser_name(table: Table, state: dict[str, Any], team: str) -> str:
    """A member of ``team`` allowed to write its guess now (not the Encryptor being guessed)."""
    turn = state["turns"][team]
    excluded = turn["encryptor"] if turn is not None and team == state["guessing_for"] else None
    return table.name_of(next(p for p in state["teams"][team]["order"] if p != excluded))


async def submit_clues(table: Table, team: str, clues: list[str] | None = None) -> dict[str, Any]:
    state = await game_state(table.slug)
    message = {"action": "submit_clues", **stamp(state), "clues": clues or clue_set(state, team)}
    reply = await act(table[encryptor_name(table, state, team)], message)
    assert reply["type"] == "state", reply
    return reply


async def lock(table: Table, team: str, code: list[int], who: str | None = None) -> dict[str, Any]:
    state = await game_state(table.slug)
    message = {"action": "lock_guess", **guess_stamp(state), "code": code}
    reply = await act(table[who or guesser_name(table, state, team)], message)
    assert reply["type"] == "state", reply
    return reply


async def play_round(
    table: Table, *, ok: dict[str, bool] | None = None, intercepts: dict[str, bool] | None = None
) -> dict[str, Any]:
    """One whole round; ``ok[t]``: team t deciphers its own code, ``intercepts[t]``: t intercepts."""
    ok = {"white": True, "black": True, **(ok or {})}
    intercepts = {"white": False, "black": False, **(intercepts or {})}
    state = await game_state(table.slug)
    coding = [t for t in TEAMS if state["turns"][t] is not None]
    for team in coding:
        await submit_clues(table, team)
    for target in coding:
        state = await game_state(table.slug)
        assert (state["phase"], state["guessing_for"]) == ("guess", target), state["phase"]
        code = state["turns"][target]["code"]
        if state["round"] > 1:
            other = OTHER[target]
            await lock(table, other, code if intercepts[other] else wrong(code))
        await lock(table, target, code if ok[target] else wrong(code))
    return await game_state(table.slug)


# ---- the secrecy checker ---------------------------------------------------------------------


@dataclass
class Secrets:
    """What the server knows and must not hand out, recorded from the saved state."""

    keywords: dict[str, list[str]] = field(default_factory=dict)
    codes: dict[tuple[int, int, str], list[int]] = field(default_factory=dict)
    """(game number, round, team) -> that round's code."""
    texts: dict[str, list[str]] = field(default_factory=dict)
    """Team -> private notes it wrote (DC-32)."""
    drafts: dict[str, list[list[int | None]]] = field(default_factory=dict)
    """Team -> guess drafts it wrote and never locked (DC-S2); repeats, so never a code."""

    def record(self, number: int, state: dict[str, Any]) -> None:
        for team in TEAMS:
            if state["teams"][team]["keywords"]:
                self.keywords[team] = list(state["teams"][team]["keywords"])
            turn = state["turns"][team]
            if turn is not None:
                self.codes[(number, state["round"], team)] = list(turn["code"])


def _json_documents(raw: str) -> list[Any]:
    """Every JSON document in a capture: a frame, or the state embedded in a page."""
    docs = [
        json.loads(m.group(1))
        for m in re.finditer(r'<script id="room-state" type="application/json">(.*?)</script>', raw, re.S)
    ]
    if not docs:
        try:
            docs.append(json.loads(raw))
        except ValueError:
            pass
    return docs


def _walk(value: Any, skip: tuple[str, ...] = ()) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _walk(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, skip)


def _mentions_code(play: dict[str, Any], code: list[int], own_code: list[int] | None) -> bool:
    """The code as a list, or spelled out as text ("4.1.3", "4-1-3", "4 1 3").

    Digits run together ("413") are not searched: player ids are hex and may hold them.
    """
    # Past reveals (history, sheets) hold past codes; a team's own typed guess may equal
    # the code by skill, which is no leak: leave those out.
    current = dict(play.get("current") or {})
    current.pop("guess", None)
    skip = ["history", "sheets", "current"]
    panel = play.get("encryptor")
    if isinstance(panel, dict) and own_code is not None and panel.get("code") == own_code:
        # The viewer's own Encryptor panel, showing the viewer's own code: both teams
        # may draw the same code in a round, which is chance, not a leak.
        skip.append("encryptor")
    scrubbed = {k: v for k, v in play.items() if k not in skip}
    spelled = re.compile(r"(?<!\d)" + r"[\s.,\-/·]".join(str(d) for d in code) + r"(?!\d)")
    for node in _walk([scrubbed, current]):
        if isinstance(node, list) and node == code:
            return True
        if isinstance(node, str) and spelled.search(node):
            return True
    return False


def exposed(captures: list[str], secrets: Secrets) -> set[str]:
    """Labels of every secret some capture reveals: ``keyword:T``, ``code:R:T``, ``note:T``,
    ``draft:T``. Judged per document, so the reveal of keywords at the end of the game
    (DC-S1) and of a code once guessed (DC-12) are not counted."""
    found: set[str] = set()
    for raw in captures:
        lowered = raw.lower()
        for doc in _json_documents(raw):
            play = doc.get("play") if isinstance(doc, dict) else None
            if not isinstance(play, dict):
                continue
            if play["phase"] != "over":
                for team, words in secrets.keywords.items():
                    if any(word.lower() in lowered for word in words):
                        found.add(f"keyword:{team}")
            revealed = {(r["round"], r["team"]) for r in play["history"]}
            here = (play["number"], play["round"])
            viewer = play["seat"]["team"]
            for (number, round_number, team), code in secrets.codes.items():
                if (number, round_number) != here or (round_number, team) in revealed or team == viewer:
                    continue
                if _mentions_code(play, code, secrets.codes.get((*here, viewer)) if viewer else None):
                    found.add(f"code:{round_number}:{team}")
            if viewer is not None and (play["round"], viewer) not in revealed:
                own = secrets.codes.get((*here, viewer))
                # The viewer's own team's code: only its Encryptor may hold it (DC-6).
                if own is not None and _mentions_code(play, own, None):
                    found.add(f"code:{play['round']}:{viewer}")
            for team, texts in secrets.texts.items():
                if any(text.lower() in lowered for text in texts):
                    found.add(f"note:{team}")
            for team, drafts in secrets.drafts.items():
                if any(node in drafts for node in _walk(play) if isinstance(node, list)):
                    found.add(f"draft:{team}")
    return found


def secrets_of(team: str, found: set[str]) -> set[str]:
    """The labels in ``found`` that belong to ``team``."""
    return {label for label in found if label.endswith(f":{team}")}
