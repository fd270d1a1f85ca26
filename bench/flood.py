"""A flood from one address: visitor sockets to one room, each sending ``sync`` ten times a second.

A socket without a session is a visitor, so no join is needed. Each socket behaves like the
room page, minus the person: it opens, sends as fast as one socket may (the product's own
per-socket limit is 10 messages a second), and after a close it reconnects with the page's
backoff, which the page resets on every "open", even an open the server then refuses.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from time import perf_counter

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

from bench.bots import OPEN_TIMEOUT, backoff

FLOOD_ADDRESS = "127.0.9.9"
MESSAGES_PER_SECOND = 10.0
SYNC = json.dumps({"action": "sync"})


@dataclass
class FloodStats:
    """Counted per connection attempt: a socket that reconnects counts each time."""

    attempts: int = 0
    accepted: int = 0  # a first state came
    refused: int = 0  # too_many before any state: refused at the handshake
    closed_later: int = 0  # too_many after its first state: the address's messages
    # Every close the server made, by code. Counted apart from the refusals: the product
    # means 4008 after a too_many, but what arrives is what the server stack sends.
    closes: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)  # no socket at all
    sent: int = 0
    answered: int = 0  # a state answering a sync (every state after the first)
    errors: Counter[str] = field(default_factory=Counter)
    peak_open: int = 0
    open_at_end: int = 0
    seconds: float = 0.0


class Flood:
    """``sockets`` sockets from FLOOD_ADDRESS to ``slug`` for as long as ``run`` lasts."""

    def __init__(self, port: int, slug: str, sockets: int, reconnect: bool) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/r/{slug}/"
        self.origin = Origin(f"http://127.0.0.1:{port}")
        self.sockets, self.reconnect = sockets, reconnect
        self.stats = FloodStats()
        self.open = 0

    async def run(self, seconds: float) -> FloodStats:
        self.stats, started = FloodStats(), perf_counter()
        tasks = [asyncio.create_task(self.one_socket()) for _ in range(self.sockets)]
        try:
            await asyncio.sleep(seconds)
        finally:
            # Also when the run's bound cuts it short: the figures say how long it lasted.
            self.stats.seconds = perf_counter() - started
            self.stats.open_at_end = self.open
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return self.stats

    async def one_socket(self) -> None:
        attempt = 0
        while True:
            if await self.connect_once():
                attempt = 0  # as the page: its backoff restarts on "open"
            if not self.reconnect:
                return
            await asyncio.sleep(backoff(attempt))
            attempt += 1

    async def connect_once(self) -> bool:
        """One connection, until the server closes it; True if the socket opened at all."""
        stats = self.stats
        stats.attempts += 1
        try:
            async with connect(
                self.url,
                origin=self.origin,
                compression=None,
                ping_interval=None,
                open_timeout=OPEN_TIMEOUT,
                close_timeout=1,
                local_addr=(FLOOD_ADDRESS, 0),
            ) as ws:
                self.open += 1
                stats.peak_open = max(stats.peak_open, self.open)
                sender = asyncio.create_task(self.send_all(ws))
                had_state = told_too_many = False
                try:
                    async for text in ws:
                        message = json.loads(text)
                        kind = message.get("type")
                        if kind == "state" and had_state:
                            stats.answered += 1
                        elif kind == "state":
                            stats.accepted += 1
                            had_state = True
                        elif kind == "error":
                            stats.errors[str(message.get("code"))] += 1
                            told_too_many = told_too_many or message.get("code") == "too_many"
                except ConnectionClosed:
                    pass  # a close other than 1000/1001: its code is read below
                finally:
                    sender.cancel()
                    self.open -= 1
                stats.closes[str(ws.close_code)] += 1
                if told_too_many and had_state:
                    stats.closed_later += 1
                elif told_too_many:
                    stats.refused += 1
                return True
        except (OSError, TimeoutError, WebSocketException) as error:
            stats.failed[type(error).__name__] += 1
            return False

    async def send_all(self, ws: ClientConnection) -> None:
        """``sync`` at MESSAGES_PER_SECOND from the open; sockets start out of phase.

        A late send is not made up for with a burst: the per-address limit, not the
        per-socket one (too_fast), is what this measures.
        """
        due = perf_counter() + random.uniform(0, 1 / MESSAGES_PER_SECOND)
        while True:
            delay = due - perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                await ws.send(SYNC)
            except ConnectionClosed:
                return
            self.stats.sent += 1
            due = max(due + 1 / MESSAGES_PER_SECOND, perf_counter())
