"""A table of real sockets for Codenames room tests, and the secrecy checker."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async

from codenames.models import CodenamesGame
from rooms.services import room_join, room_sit
from tests.conftest import Client, act, make_session, room_version, settle  # noqa: F401  (re-exported)


@dataclass
class Seat:
    name: str
    team: str
    role: str
    uid: str = ""
    client: Client | None = None


@dataclass
class Table:
    slug: str
    seats: dict[str, Seat] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Client:
        client = self.seats[name].client
        assert client is not None
        return client

    async def close(self) -> None:
        for seat in self.seats.values():
            if seat.client is not None:
                await seat.client.close()


def _sit_all(slug: str, seats: list[Seat]) -> None:
    for seat in seats:
        seat.uid = f"uid-{slug}-{seat.name}"
        room_join(slug=slug, uid=seat.uid, name=seat.name, game="codenames")
        if seat.role != "spectator":
            room_sit(slug=slug, uid=seat.uid, team=seat.team, role=seat.role)


async def open_table(slug: str, layout: list[tuple[str, str, str]]) -> Table:
    """Join and seat everyone, then open one socket per player."""
    seats = [Seat(name, team, role) for name, team, role in layout]
    await sync_to_async(_sit_all)(slug, seats)
    table = Table(slug, {seat.name: seat for seat in seats})
    for seat in seats:
        key = await sync_to_async(make_session)(seat.uid)
        seat.client = Client(slug, key)
        await seat.client.connect()
    await settle([seat.client for seat in table.seats.values() if seat.client is not None])
    return table


STANDARD = [
    ("rosa", "red", "spymaster"),
    ("rui", "red", "operative"),
    ("bea", "blue", "spymaster"),
    ("bo", "blue", "operative"),
    ("sam", "", "spectator"),
]


async def game_state(slug: str) -> dict[str, Any]:
    """The engine's saved state (the test's oracle; never what a browser gets)."""

    def load() -> dict[str, Any]:
        return CodenamesGame.objects.filter(room__slug=slug).order_by("-number").first().state  # type: ignore[union-attr]

    return await sync_to_async(load)()


def _json_documents(raw: str) -> list[Any]:
    """Every JSON document in a capture: a frame, or the state embedded in a page."""
    docs = []
    for match in re.finditer(r'<script id="room-state" type="application/json">(.*?)</script>', raw, re.S):
        docs.append(json.loads(match.group(1)))
    if not docs:
        try:
            docs.append(json.loads(raw))
        except ValueError:
            pass
    return docs


def _walk(value: Any):  # type: ignore[no-untyped-def]
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def key_leaks(captures: list[str]) -> list[str]:
    """Every place where a capture reveals an uncovered card's identity (CN-S1).

    Judged per capture, against the cards that capture itself shows as uncovered, so a
    reveal at the end of the game (CN-S2) is not a leak. Returns the findings; an
    operative's or spectator's capture must give none, a spymaster's must give some.
    """
    findings: list[str] = []
    for raw in captures:
        for doc in _json_documents(raw):
            play = doc.get("play") if isinstance(doc, dict) else None
            if not isinstance(play, dict) or "cards" not in play:
                continue
            if play.get("phase") == "over":
                continue
            uncovered = [c for c in play["cards"] if not c["covered"]]
            for card in uncovered:
                if card.get("identity") is not None:
                    findings.append(f"identity of uncovered {card['word']!r} in card data")
            # A key smuggled anywhere else: a 25-long list of identities, or the word
            # "assassin" while the assassin is still hidden (in any field, class or text).
            identities = {"red", "blue", "bystander", "assassin"}
            for node in _walk(doc):
                if (
                    isinstance(node, list)
                    and len(node) == 25
                    and all(isinstance(x, str) and x in identities for x in node)
                ):
                    findings.append("a whole key list")
            covered_assassin = any(c["covered"] and c.get("identity") == "assassin" for c in play["cards"])
            if not covered_assassin and re.search(r"assassin", raw, re.I):
                findings.append("the word 'assassin' while the assassin is uncovered")
            covered_bystanders = sum(
                1 for c in play["cards"] if c["covered"] and c.get("identity") == "bystander"
            )
            if len(re.findall(r"bystander", raw, re.I)) > covered_bystanders:
                findings.append("more 'bystander' mentions than covered bystanders")
    return findings
