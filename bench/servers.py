"""The servers under test: Daphne subprocesses on loopback ports, their CPU and memory."""

from __future__ import annotations

import asyncio
import ctypes
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
SQLITE_FILE = ROOT / "bench" / "loadtest.sqlite3"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
_VARYING = re.compile(r"lt-\w+-f?\d+|0x[0-9a-f]+|Task-\d+|\b\d{5}\b")


@dataclass
class Config:
    database_url: str
    redis_url: str

    @property
    def vendor(self) -> str:
        scheme = self.database_url.split(":", 1)[0]
        return {"postgres": "postgresql", "pgsql": "postgresql"}.get(scheme, scheme)

    @property
    def layer(self) -> str:
        return "redis" if self.redis_url else "in-memory"


def configure() -> Config:
    """The database and layer from the environment; SQLite on a file of our own otherwise."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url:
        # Never the user's db.sqlite3: a fresh file each run.
        for leftover in SQLITE_FILE.parent.glob(SQLITE_FILE.name + "*"):
            leftover.unlink()
        database_url = f"sqlite:///{SQLITE_FILE}"
    return Config(database_url=database_url, redis_url=os.environ.get("REDIS_URL", ""))


# One key for every process of a run: they share sessions and the layer's encryption.
SECRET_KEY = os.environ.get("SECRET_KEY") or secrets.token_urlsafe(40)


def server_env(config: Config, settings: str, rate_limits: bool = False) -> dict[str, str]:
    """The product as deployed: DEBUG off (DEBUG records every query, which a load would
    measure), plain HTTP on loopback (so no secure cookies), static files from the source
    folders (no collectstatic step). The limits per address only when asked: most bots
    share 127.0.0.1, and the per-address limits would refuse that crowd."""
    if settings == "config.settings":
        settings = "config.settings_test"
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE=settings,
        DEBUG="false",
        SECRET_KEY=SECRET_KEY,
        TLS="false",
        RATE_LIMITS="true" if rate_limits else "false",
        # The clock as in production: it also clears counts a killed process left behind.
        GAME_CLOCK="1",
    )
    env["DATABASE_URL"] = config.database_url
    env.pop("REDIS_URL", None)
    if config.redis_url:
        env["REDIS_URL"] = config.redis_url
    return env


def migrate(config: Config) -> None:
    env = server_env(config, "config.settings")
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0) -> None:
    """Until something listens on ``port`` (a server just started), at most ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


def _die_with_parent() -> None:
    # Linux's PR_SET_PDEATHSIG: a server never outlives a killed benchmark.
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)
    except OSError:
        pass


class Server:
    """One Daphne process serving ``app`` on 127.0.0.1:``port``, its output in a log file."""

    def __init__(self, name: str, app: str, port: int, env: dict[str, str], log_dir: Path) -> None:
        self.name, self.app, self.port, self.env = name, app, port, env
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), self.app]
        with open(self.log_path, "ab") as log:
            # A session of its own: a Ctrl-C reaches the benchmark, which stops it in order.
            self.proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = perf_counter() + timeout
        while perf_counter() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.log_tail()}")
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.close()
                return
            except OSError:
                await asyncio.sleep(0.05)
        raise RuntimeError(f"{self.name} did not listen within {timeout:.0f} s:\n{self.log_tail()}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()

    def cpu_seconds(self) -> float:
        """User + system time of the process and all its threads so far."""
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def rss_kib(self) -> int:
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def problems(self) -> list[str]:
        """The log's error lines, alike ones counted once (rooms, ports, addresses blanked)."""
        seen: Counter[str] = Counter()
        for line in self.log_path.read_text(errors="replace").splitlines():
            if any(word in line for word in ("Traceback", "Error", "ERROR", "Exception", "WARNING")):
                seen[_VARYING.sub("…", line.strip())[:200]] += 1
        return [f"{count}× {line}" for line, count in seen.most_common()]


def total_cpu(servers: list[Server]) -> float:
    return sum(server.cpu_seconds() for server in servers)


def total_rss(servers: list[Server]) -> int:
    return sum(server.rss_kib() for server in servers)


def counted_players(database_url: str, slug_prefix: str) -> int:
    """Players of the run's rooms whose sockets the product still counts as open."""
    sql = (
        "SELECT count(*) FROM rooms_player p JOIN rooms_room r ON r.id = p.room_id "
        "WHERE p.connections > 0 AND r.slug LIKE {mark}"
    )
    if database_url.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(database_url.split("///", 1)[1]) as db:
            return int(db.execute(sql.format(mark="?"), [slug_prefix + "%"]).fetchone()[0])
    import psycopg

    with psycopg.connect(database_url) as db:
        row = db.execute(sql.format(mark="%s"), [slug_prefix + "%"]).fetchone()
        return int(row[0]) if row else 0
