"""Shared fixtures: sessions for sockets, channel layers, a private Redis, a real Daphne."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.sessions.backends.db import SessionStore

from bench.scenes import CHROMIUM_ARGS
from bench.servers import free_port, wait_port
from config.asgi import application

ORIGIN = (b"origin", b"http://localhost")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The configured Redis, or a private one on a free port (tests may flush it)."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: `sudo apt-get install redis-server` runs these tests too")
    port = free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path_factory.mktemp("redis")),
        ],
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session", autouse=True)
def _close_pooled_connections(django_db_setup: Any) -> Iterator[None]:
    """The database pool's threads keep connections; close them before the test DB is dropped."""
    yield
    from rooms.db import close_pool_connections

    close_pool_connections()


@pytest.fixture(params=["memory", "redis"])
def channel_layer(request: pytest.FixtureRequest, settings: Any) -> Iterator[str]:
    """Runs a live-layer test once on the in-memory layer and once on real Redis.

    The layer is emptied afterwards, so no test hears another's leftover messages.
    """
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        # The production layer (config/settings.py): Pub/Sub, pushes encrypted.
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {
                    "hosts": [{"address": url, "max_connections": 100, "socket_timeout": None}],
                    "symmetric_encryption_keys": [django_settings.SECRET_KEY],
                },
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    yield str(request.param)
    layer = get_channel_layer()
    if layer is not None and hasattr(layer, "flush"):
        async_to_sync(layer.flush)()


def make_session(uid: str | None = None, **data: Any) -> str:
    """A saved Django session (as a browser would hold after joining); returns its key."""
    store = SessionStore()
    if uid:
        store["uid"] = uid
    for key, value in data.items():
        store[key] = value
    store.create()
    assert store.session_key
    return store.session_key


class Client:
    """A socket of one browser, with the session cookie that says who it is."""

    def __init__(
        self,
        slug: str,
        session_key: str | None = None,
        origin: bytes = b"http://localhost",
        path: str | None = None,
    ) -> None:
        headers = [(b"origin", origin)]
        if session_key:
            headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session_key}".encode()))
        self.slug = slug
        self.comm = WebsocketCommunicator(application, path or f"/ws/r/{slug}/", headers=headers)
        # Every frame received, raw; after each patch also the state it made (see receive).
        self.frames: list[str] = []
        self.last_state: dict[str, Any] | None = None
        self.patches = 0
        self.gaps = 0

    async def connect(self) -> dict[str, Any]:
        connected, _ = await self.comm.connect(timeout=5)
        assert connected
        return await self.receive_type("state")

    async def send(self, message: dict[str, Any]) -> None:
        await self.comm.send_json_to(message)

    async def send_text(self, text: str) -> None:
        await self.comm.send_to(text_data=text)

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        """The next message; a ``patch`` is applied as a browser does and returned as the
        ``state`` it makes (a patch that does not fit the state held asks for a sync)."""
        import json

        from rooms.patch import apply

        while True:
            text = await self.comm.receive_from(timeout=timeout)
            self.frames.append(text)
            message: dict[str, Any] = json.loads(text)
            if message.get("type") == "patch":
                self.patches += 1
                if self.last_state is None or message["base"] != self.last_state["version"]:
                    self.gaps += 1
                    await self.send({"action": "sync"})
                    continue
                message = {**apply(self.last_state, message["ops"]), "version": message["version"],
                           "now": message["now"]}  # fmt: skip
                # Beside the raw patch, the state it makes (what the browser now holds), so
                # checks that read whole states see every version this socket reached.
                self.frames.append(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
            if message.get("type") == "state":
                self.last_state = message
            return message

    async def receive_type(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message.get("type") == kind:
                return message

    async def state_where(self, predicate: Any, timeout: float = 5) -> dict[str, Any]:
        """The first pushed state that satisfies ``predicate`` (waits on events, not time)."""
        while True:
            message = await self.receive_type("state", timeout)
            if predicate(message):
                return message

    async def eventually(self, predicate: Any, timeout: float = 5) -> dict[str, Any]:
        """The latest state if it already satisfies ``predicate``, else the next one that does."""
        if self.last_state is not None and predicate(self.last_state):
            return self.last_state
        return await self.state_where(predicate, timeout)

    async def nothing_pending(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.2)

    async def close(self) -> None:
        await self.comm.disconnect()


class BrowserSocket:
    """A synchronous socket (websockets' client) read as a browser reads it: each ``patch``
    is applied to the state held and returned as the ``state`` it makes."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None

    def send(self, text: str) -> None:
        self.ws.send(text)

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        import json

        from rooms.patch import apply

        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
            if message.get("type") == "patch":
                if self.state is None or message["base"] != self.state["version"]:
                    self.ws.send(json.dumps({"action": "sync"}))
                    continue
                message = {**apply(self.state, message["ops"]), "version": message["version"]}
            if message.get("type") == "state":
                self.state = message
            return message


async def joined_client(slug: str, name: str, uid: str | None = None) -> Client:
    """A browser that has joined ``slug`` as ``name`` and opened its socket."""
    from rooms.services import new_uid, room_join

    uid = uid or new_uid()
    await sync_to_async(room_join)(slug=slug, uid=uid, name=name)
    key = await sync_to_async(make_session)(uid)
    client = Client(slug, key)
    client.uid = uid  # type: ignore[attr-defined]
    await client.connect()
    return client


async def room_version(slug: str) -> int:
    from rooms.models import Room

    return await sync_to_async(lambda: Room.objects.get(slug=slug).version)()


async def settle(clients: list[Client]) -> None:
    """Wait until every socket has been shown every other one connected.

    Each socket opened pushes the room again (its player's ``connected`` mark); a test that
    moves before those pushes are out could take one for its move's own.
    """
    for client in clients:
        await client.eventually(lambda s: all(p["connected"] or p["bot"] for p in s["players"]))


_refs = iter(range(1, 10**9))


async def act(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    """Send a move; return its error, or the first state that follows the change it made."""
    before = await room_version(client.slug)
    ref = next(_refs)
    await client.send({**message, "ref": ref})
    while True:
        reply = await client.receive()
        if reply["type"] == "error" and reply.get("ref") == ref:
            return reply
        if reply["type"] == "state" and reply["version"] > before:
            return reply


# ---- a real server and a real browser --------------------------------------------------

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def capture_frames(page: Any) -> list[str]:
    """Every WebSocket frame the page receives, as text: what a browser really got.

    After each ``patch`` frame comes the state it made (what the page then holds), so
    checks that read whole states see every version; the raw patch is kept too.
    """
    import json

    from rooms.patch import apply

    frames: list[str] = []

    def follow(ws: Any) -> None:
        held: dict[str, Any] = {}

        def received(payload: Any) -> None:
            frames.append(str(payload))
            message = json.loads(str(payload))
            if message.get("type") == "state":
                held["state"] = message
            elif message.get("type") == "patch" and held.get("state", {}).get("version") == message["base"]:
                held["state"] = {**apply(held["state"], message["ops"]), "version": message["version"]}
                frames.append(json.dumps(held["state"], ensure_ascii=False, separators=(",", ":")))

        ws.on("framereceived", received)

    page.on("websocket", follow)
    return frames


CHROMIUM = "/usr/bin/chromium"


def _database_url() -> str:
    db = django_settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


class DaphneServer:
    """The production command (``daphne config.asgi:application``) in a subprocess."""

    def __init__(self, redis_url: str, extra_env: dict[str, str] | None = None, stderr: Any = None) -> None:
        self.stderr = stderr  # a file for the server's log lines (default: the test's own stderr)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings_test",
            "DATABASE_URL": _database_url(),
            "REDIS_URL": redis_url,
            # Off unless a test needs it: a clock sweeping while pytest flushes the test
            # database between tests can deadlock the flush on PostgreSQL.
            "GAME_CLOCK": "0",
            **(extra_env or {}),
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> DaphneServer:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "config.asgi:application",
            ],
            cwd=django_settings.BASE_DIR,
            env=self.env,
            stderr=self.stderr,
        )
        wait_port(self.port, 30)
        return self

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                # Daphne waits for open sockets to close; a test is done with them.
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture(scope="session")
def daphne_server(django_db_setup: Any, django_db_blocker: Any, redis_url: str) -> Iterator[DaphneServer]:
    server = DaphneServer(redis_url).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is missing: `sudo apt-get install chromium` runs the browser tests")
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as mp:
        # Sync Playwright keeps an event loop running in this thread; the ORM calls in
        # browser tests are plain sync code, so let Django allow them while it lives.
        mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        pw = sync_playwright().start()
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()
        pw.stop()


@pytest.fixture(scope="session")
def shots_dir() -> str:
    path = os.path.join(django_settings.BASE_DIR, "test-artifacts")
    os.makedirs(path, exist_ok=True)
    return path


def close_and_settle(close: Callable[[], None], slugs: list[str] | None = None) -> None:
    """Close browser pages, then wait until the server has finished writing for them.

    A server still writing while pytest empties the tables can deadlock PostgreSQL's
    TRUNCATE. A departure is recorded at once; a quarter-second later the hub's presence
    push locks the room and bumps its version (a player now shows away): wait for both.
    Visitors and device links are not counted present, so nothing follows theirs.
    """
    from rooms.models import Player, Room

    present = Player.objects.filter(connections__gt=0)
    if slugs is not None:
        present = present.filter(room__slug__in=slugs)
    versions = dict(Room.objects.filter(players__in=present).distinct().values_list("slug", "version"))
    close()
    for _ in range(400):
        if not present.exists() and all(
            Room.objects.filter(slug=slug, version__gt=version).exists() for slug, version in versions.items()
        ):
            break
        time.sleep(0.05)


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """Pages in fresh browser contexts (one per player), all closed when the test ends
    (and the server settled: ``close_and_settle``)."""
    contexts: list[Any] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(**options)
        contexts.append(context)
        return context.new_page()

    yield make
    close_and_settle(lambda: [context.close() for context in contexts])
