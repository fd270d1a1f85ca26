"""Browsers for ``make deploy-check``: pages and sockets through nginx over TLS.

A player joins as the page does (GET the room for the CSRF cookie, POST the join form),
then holds a socket that applies patches as ``static/js/room.js`` does and, like the
page, reconnects at once when the server closes with 1012 (any other close, and a
reconnect that fails, waits with the page's backoff). Like the page, it sends every move
with an ``id`` and resends a move it saw no answer to once on its next socket. Every
close code and every failed reconnect is counted.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import random
import secrets
import ssl
import time
from collections import Counter
from dataclasses import dataclass
from http.cookies import SimpleCookie
from time import perf_counter
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.typing import Origin

from bench.bots import apply_ops

SERVICE_RESTART = 1012
_refs = itertools.count(1)


def own_address() -> str:
    """A loopback address for one run (Linux routes all of 127/8 to lo): the limits count
    per address in Redis for an hour, so runs must not share one."""
    return f"127.{random.randint(10, 250)}.{random.randint(1, 250)}.{random.randint(1, 250)}"


def tls_context() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the check's own throwaway certificate
    return context


@dataclass
class Site:
    """The proxy's public side: its host name and the loopback ports it listens on."""

    host: str
    https_port: int
    http_port: int

    @property
    def origin(self) -> str:
        return f"https://{self.host}:{self.https_port}"

    def request(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: str | None = None,
        source: str | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """One HTTPS request to the proxy (from ``source``, a loopback address); status,
        cookies set, body."""
        conn = http.client.HTTPSConnection(
            "127.0.0.1",
            self.https_port,
            context=tls_context(),
            timeout=30,
            source_address=(source, 0) if source else None,
        )
        try:
            conn.request(method, path, body, {"Host": f"{self.host}:{self.https_port}", **(headers or {})})
            response = conn.getresponse()
            data = response.read()
            jar: SimpleCookie = SimpleCookie()
            for header in response.headers.get_all("Set-Cookie") or []:
                jar.load(header)
            return response.status, {name: m.value for name, m in jar.items()}, data
        finally:
            conn.close()

    def join(
        self, slug: str, name: str, seat: str = "", source: str | None = None, forged: str | None = None
    ) -> tuple[int, str | None]:
        """The room page, then its join form: (the form's status, the session id)."""
        extra = {"X-Forwarded-For": forged} if forged else {}
        status, cookies, _ = self.request("GET", f"/r/{slug}/", extra, source=source)
        csrf = cookies.get("csrftoken")
        if status != 200 or not csrf:
            return status, None
        form = {"name": name, "seat": seat, "game": "codenames", "csrfmiddlewaretoken": csrf}
        headers = {
            **extra,
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf}",
            "Origin": self.origin,
        }
        status, cookies, _ = self.request("POST", f"/r/{slug}/join/", headers, urlencode(form), source)
        return status, cookies.get("sessionid")


class Player:
    """One browser tab's socket in one room."""

    def __init__(self, site: Site, slug: str, name: str, session: str, source: str | None = None) -> None:
        self.site, self.slug, self.name, self.session = site, slug, name, session
        self.source = source  # the loopback address its connections come from
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.version = -1
        self.versions: set[int] = set()
        self.errors: dict[int, dict[str, Any]] = {}
        self.closes: Counter[int] = Counter()
        self.opened = 0  # sockets opened (reconnects included)
        self.gaps = 0
        self.live = False  # a state has arrived on the socket now open
        # When the last close was seen, the socket opened again, and its first state came.
        self.closed_at = self.reopened_at = self.live_at = 0.0
        # Moves sent and not yet answered, as the page keeps them: ref -> [frame, version
        # held when sent, resent?, sent with an id?]; settled as room.js settles them.
        self.pending: dict[int, list[Any]] = {}
        self.resent = self.lost = 0  # moves sent again on a new socket; resends lost too
        self.ids = False  # the socket's server keeps move ids (its state says move_ids)
        self.resend_due = False
        self.retry = 0  # the page's backoff step
        self.failures: Counter[str] = Counter()  # why reconnects failed ("HTTP 502", "TimeoutError")
        self.running = True
        self.task: asyncio.Task[None] | None = None

    async def _open(self) -> ClientConnection:
        return await connect(
            f"wss://{self.site.host}:{self.site.https_port}/ws/r/{self.slug}/",
            host="127.0.0.1",
            port=self.site.https_port,
            ssl=tls_context(),
            server_hostname=self.site.host,
            origin=Origin(self.site.origin),
            additional_headers={"Cookie": f"sessionid={self.session}"},
            proxy=None,
            compression=None,
            ping_interval=None,
            open_timeout=10,
            close_timeout=2,
            max_size=None,
            local_addr=(self.source, 0) if self.source else None,
        )

    async def start(self) -> None:
        """Open the socket and wait for its first state; then keep it open until ``stop``."""
        self.ws = await self._open()
        self.opened += 1
        self.on_frame(await self.ws.recv())
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        while self.running:
            ws = self.ws
            if ws is not None:
                try:
                    async for text in ws:
                        self.on_frame(text)
                except ConnectionClosed:
                    pass
                code = ws.close_code if ws.close_code is not None else 1006
                self.closes[code] += 1
                self.ws, self.live, self.closed_at = None, False, perf_counter()
                self._drop_resent()
                if not self.running:
                    return
                if code == SERVICE_RESTART:
                    self.retry = 0
                else:
                    await self._backoff()
            try:
                ws = await self._open()
            except (OSError, TimeoutError, WebSocketException) as error:
                self.closes[-1] += 1  # a reconnect that failed to open (a 502, say)
                status = getattr(getattr(error, "response", None), "status_code", None)
                self.failures[f"HTTP {status}" if status else type(error).__name__] += 1
                await self._backoff()
                continue
            self.ws = ws
            self.opened += 1
            self.reopened_at = perf_counter()
            self.resend_due = True  # after the socket's first state, as the page does

    async def _backoff(self) -> None:
        """The page's wait before a reconnect: 0.5 s doubling up to 10 s, with jitter."""
        delay = min(10.0, 0.5 * 2**self.retry) * (0.75 + random.random() * 0.5)
        self.retry += 1
        await asyncio.sleep(delay)

    def _drop_resent(self) -> None:
        """A socket closed: moves resent on it are lost (the page says "not confirmed")."""
        for ref in [ref for ref, entry in self.pending.items() if entry[2]]:
            del self.pending[ref]
            self.lost += 1

    def _resend(self, ids: bool) -> None:
        """Every move left from the last socket, once more under its id, then a ping; a
        move without an id, or a server that keeps none (``ids``: its state said
        ``move_ids``), is lost instead, as the page tells its player."""
        frames = []
        for ref, entry in list(self.pending.items()):
            if not (ids and entry[3]):
                del self.pending[ref]
                self.lost += 1
                continue
            entry[1], entry[2] = float("inf"), True
            frames.append(entry[0])
            self.resent += 1
        if frames:
            asyncio.ensure_future(
                self._send_frames([*frames, json.dumps({"action": "ping", "version": self.version})])
            )

    async def _send_frames(self, frames: list[str]) -> None:
        try:
            for frame in frames:
                if self.ws is None:
                    return
                await self.ws.send(frame)
        except ConnectionClosed:
            pass

    def on_frame(self, text: str | bytes) -> None:
        message = json.loads(text)
        kind = message.get("type")
        self.retry = 0  # the server spoke: the backoff starts over
        if kind == "state":
            self.ids = message.get("move_ids") is True
            if self.resend_due:  # before its version settles anything
                self.resend_due = False
                self._resend(self.ids)
        if kind in ("state", "patch"):
            for ref in [r for r, entry in self.pending.items() if message["version"] > entry[1]]:
                del self.pending[ref]
        elif kind == "pong":
            self.pending = {r: entry for r, entry in self.pending.items() if not entry[2]}
        elif kind == "error" and message.get("code") == "draining":
            return  # not applied: resent on the next socket
        elif kind == "error":
            self.pending.pop(message.get("ref"), None)  # type: ignore[arg-type]
        if kind == "state":
            if not self.live:
                self.live, self.live_at = True, perf_counter()
            self.state, self.version = message, message["version"]
            self.versions.add(self.version)
        elif kind == "patch":
            if message["base"] != self.version:
                self.gaps += 1
                asyncio.ensure_future(self.send({"action": "sync"}))
                return
            apply_ops(self.state, message["ops"])
            self.version = self.state["version"] = message["version"]
            self.versions.add(self.version)
        elif kind == "error" and isinstance(message.get("ref"), int):
            self.errors[message["ref"]] = message

    async def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` as the page does: a move with its ``at`` and a fresh ``id``,
        kept until answered. The page takes no tap while its socket is down; a move sent
        then is kept too, and goes out on the next socket."""
        ref = next(_refs)
        quiet = message.get("action") in ("ping", "sync", "chat_history")
        extra: dict[str, Any] = {} if quiet else {"at": round(time.time() * 1000)}
        if not quiet and self.ids:  # a release before move ids refuses the field
            extra["id"] = secrets.token_hex(8)
        frame = json.dumps({**message, **extra, "ref": ref})
        if not quiet:
            self.pending[ref] = [frame, self.version, False, "id" in extra]
        if self.ws is not None:
            try:
                await self.ws.send(frame)
            except ConnectionClosed:
                pass
        return ref

    @property
    def play(self) -> dict[str, Any]:
        return self.state.get("play") or {}

    def everyone_present(self) -> bool:
        players = self.state.get("players") or []
        return bool(players) and all(p["connected"] for p in players)

    async def stop(self) -> None:
        self.running = False
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await asyncio.gather(self.task, return_exceptions=True)
