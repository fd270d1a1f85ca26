"""``make upgrade-check``: the previous release survives this one's migrations, and back.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/x REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m deploy.upgrade

The previous release is the commit in ``deploy/PREVIOUS_RELEASE`` (bumped at each
release). Its code is taken from git (``git archive``, so a clone needs that commit in its
history) into a temporary folder and run, from its own ``deploy/`` units, beside this
checkout's, on one database of its own (created and dropped) and one Redis prefix, behind
the shipped nginx site. The steps are those of docs/operations.md "Upgrades" and
"Rolling back", with games in progress through the proxy all along:

1. the previous release installed: its ``migrate`` and ``collectstatic``, two Daphne
   processes and the clock; room A dealt and played;
2. this release's ``migrate`` and ``collectstatic`` while the previous one runs: room A
   played on, room B created, talked in, dealt and played by the previous code;
3. the rolling restart to this release, one process at a time, then the clock: room C
   played with its sockets over one process of each release; room A played to its end;
4. the rollback: the previous release's ``collectstatic``, then its processes and clock
   back, one at a time, on the new schema (no migration undone): room C, dealt by this
   release, played to its end by the previous one; room D created and played by it.

Every move must be applied and reach every socket (none refused, no ``server_error``), no
process may log an error, every process must drain and exit 0, each phase's room page
must load every script and stylesheet it names. Prints figures; exits 1 on any failure.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from time import perf_counter

from deploy import recipe
from deploy.check import Check, database, drop_database, environment, join_room, sockets_on, wait_healthy
from deploy.client import Player, Site
from deploy.game import GameFigures, MoveFailed, move, turn_step, until

PREVIOUS_RELEASE = recipe.DEPLOY / "PREVIOUS_RELEASE"


def previous_release(path: Path = PREVIOUS_RELEASE) -> str:
    """The commit id of the previous release (the file's first line that is not a comment)."""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            if not re.fullmatch(r"[0-9a-f]{7,40}", line):
                raise ValueError(f"{path.name}: {line!r} is not a commit id")
            return line
    raise ValueError(f"{path.name} names no commit")


def extract(commit: str, folder: Path) -> Path:
    """The files of ``commit`` (as committed: no build products) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(recipe.ROOT), "archive", "--format=tar", commit], capture_output=True
    )
    if archive.returncode != 0:
        raise RuntimeError(
            f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()} "
            "(the previous release must be in this clone's history: git fetch --unshallow)"
        )
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


@dataclass
class Release:
    name: str  # "previous" or "new", for the log
    root: Path

    def web(self, port: int) -> recipe.Command:
        return self._python(
            recipe.unit_command(self.root / "deploy/systemd/wordrooms@.service", str(port), self.root)
        )

    def clock(self) -> recipe.Command:
        return self._python(
            recipe.unit_command(self.root / "deploy/systemd/wordrooms-clock.service", "", self.root)
        )

    def _python(self, command: recipe.Command) -> recipe.Command:
        # The units name the install's .venv; both releases run on this checkout's Python
        # (the previous release's requirements are a subset: tests/test_deploy.py).
        command.argv[0] = sys.executable
        return command

    def manage(self, env: dict[str, str], *args: str) -> None:
        clock = self.clock()
        result = subprocess.run(
            [clock.argv[0], "manage.py", *args], cwd=self.root, env={**clock.env, **env}, capture_output=True
        )
        if result.returncode != 0:
            output = (result.stdout + result.stderr).decode(errors="replace")
            raise RuntimeError(f"{self.name} release: manage.py {' '.join(args)} failed:\n{output[-2000:]}")


class Table:
    """A room and its eight sockets."""

    def __init__(self, slug: str, players: list[Player], spymasters: dict[str, Player],
                 operatives: dict[str, Player]) -> None:  # fmt: skip
        self.slug, self.players = slug, players
        self.spymasters, self.operatives = spymasters, operatives
        self.figures = GameFigures()

    async def live(self) -> None:
        """Until every socket of the table is open and holds a state (after a restart)."""
        await until(lambda: all(p.live for p in self.players), 15.0, f"every socket of {self.slug} back")

    async def deal(self, abandon: bool = False) -> None:
        """A new game (``abandon``: over the one in progress, as the page confirms)."""
        await self.live()
        deal = {"action": "start_game", **({"confirm": True} if abandon else {})}
        await move(self.spymasters["red"], self.players, deal, self.figures)

    async def steps(self, count: int) -> None:
        """``count`` moves of the game (a clue, a tap, an end of turn…); fewer if it ends."""
        await self.live()
        for _ in range(count):
            if self.over:
                return
            await turn_step(self.spymasters, self.operatives, self.players, self.figures)

    async def to_the_end(self) -> str:
        await self.steps(200)
        if not self.over:
            raise MoveFailed(f"{self.slug}: the game did not end")
        return str(self.spymasters["red"].play.get("winner"))

    @property
    def over(self) -> bool:
        return self.spymasters["red"].play.get("phase") == "over"

    async def say(self, text: str) -> None:
        await self.players[1].send({"action": "say", "channel": "room", "text": text})

    async def stop(self) -> None:
        for player in self.players:
            await player.stop()


class Upgrade:
    def __init__(self, check: Check, site: Site, ports: list[int], env: dict[str, str],
                 previous: Release, new: Release) -> None:  # fmt: skip
        self.check, self.site, self.ports, self.env = check, site, ports, env
        self.previous, self.new = previous, new
        self.running: dict[str, Release] = {}
        self.tables: list[Table] = []
        self.restarts: list[float] = []
        self.taken_back: list[float] = []

    def start_web(self, index: int, release: Release) -> None:
        name, command = f"daphne{index}", release.web(self.ports[index - 1])
        self.check.start(name, command, {**command.env, **self.env})
        self.running[name] = release

    def start_clock(self, release: Release) -> None:
        command = release.clock()
        self.check.start("clock", command, {**command.env, **self.env})
        self.running["clock"] = release

    def stop(self, name: str) -> None:
        proc = self.check.procs[name]
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        self.check.expect(
            code == 0, f"{name} ({self.running[name].name} release) stopped on SIGTERM: exit {code}"
        )

    async def restart_web(self, index: int, release: Release) -> None:
        """As ``systemctl restart wordrooms@PORT`` does, then wait for /readyz, as the
        docs' loop does; the sockets reconnect to the other process meanwhile."""
        name = f"daphne{index}"
        started = perf_counter()
        await asyncio.to_thread(self.stop, name)
        self.start_web(index, release)
        await asyncio.to_thread(wait_healthy, self.check, name, self.ports[index - 1])
        self.restarts.append(perf_counter() - started)
        self.taken_back.append(await asyncio.to_thread(self.proxy_takes_back, self.ports[index - 1]))
        for table in self.tables:
            await table.live()

    def proxy_takes_back(self, port: int, timeout: float = 20.0) -> float:
        """Seconds until nginx hands a request to the restarted process again (its
        upstream may hold it as failed for ``fail_timeout`` after the refusals of the
        restart); then the next process may be restarted without locking anyone out."""
        log = self.check.prefix / "nginx" / "logs" / "wordrooms.access.log"
        started = perf_counter()
        while perf_counter() - started < timeout:
            self.site.request("GET", "/")
            last = log.read_text(errors="replace").rstrip("\n").rsplit("\n", 1)[-1]
            if last.endswith(f":{port}"):
                return perf_counter() - started
            time.sleep(0.1)
        raise RuntimeError(f"nginx sent nothing to :{port} within {timeout:.0f} s of its restart")

    async def restart_clock(self, release: Release) -> None:
        await asyncio.to_thread(self.stop, "clock")
        self.start_clock(release)

    async def table(self, tag: str) -> Table:
        slug = f"upgrade-{tag}-{secrets.token_hex(3)}"
        players, spymasters, operatives = await join_room(self.site, slug)
        table = Table(slug, players, spymasters, operatives)
        self.tables.append(table)
        return table

    def page_loads(self, what: str) -> None:
        """The room page and every script and stylesheet it names, through the proxy."""
        status, _, body = self.site.request("GET", f"/r/upgrade-page-{secrets.token_hex(3)}/")
        assets = sorted(set(re.findall(r'(?:src|href)="(/static/[^"]+)"', body.decode(errors="replace"))))
        failed = [path for path in assets if self.site.request("GET", path)[0] != 200]
        self.check.expect(
            status == 200 and len(assets) >= 2 and not failed,
            f"{what}: the room page (HTTP {status}) and its {len(assets)} scripts and styles load"
            + (f", but not {failed}" if failed else ""),
        )

    def serving(self) -> str:
        return ", ".join(f"{name} {release.name}" for name, release in sorted(self.running.items()))


async def scenario(up: Upgrade) -> None:
    check, env = up.check, up.env
    print(f"1. the previous release ({up.previous.root.name}) runs: {up.serving()}", flush=True)
    a = await up.table("a")
    await a.deal()
    await a.steps(3)
    check.expect(True, f"room A dealt and played by the previous release: {a.figures.moves} moves")
    await asyncio.to_thread(up.page_loads, "previous release")

    print("2. this release's migrate and collectstatic while the previous release runs", flush=True)
    started = perf_counter()
    await asyncio.to_thread(up.new.manage, env, "migrate", "--noinput", "-v0")
    await asyncio.to_thread(up.new.manage, env, "collectstatic", "--noinput", "-v0")
    check.expect(True, f"migrated and collected in {perf_counter() - started:.1f} s")
    before = a.figures.moves
    await a.steps(3)
    b = await up.table("b")
    await b.say("hello from the previous release")
    await b.deal()
    await b.steps(3)
    check.expect(
        True,
        f"on the new schema, the previous release played room A on ({a.figures.moves - before} moves) and "
        f"created, talked in, dealt and played room B ({b.figures.moves} moves)",
    )
    await asyncio.to_thread(up.page_loads, "previous release on the new schema")

    print("3. rolling restart to this release", flush=True)
    await up.restart_web(1, up.new)
    c = await up.table("c")
    spread = {port: sockets_on(port) for port in up.ports}
    check.expect(True, f"sockets per process while both releases serve ({up.serving()}): {spread}")
    await c.say("hello across releases")
    await c.deal()
    await c.steps(3)
    await a.steps(2)
    await b.steps(2)
    check.expect(True, f"both releases at once: rooms A, B and C played ({c.figures.moves} moves in C)")
    await up.restart_web(2, up.new)
    await up.restart_clock(up.new)
    winner = await a.to_the_end()
    await c.steps(3)
    await b.deal(abandon=True)
    await b.steps(3)
    check.expect(True, f"this release: room A played to its end ({winner} won), C on, B dealt again")
    await asyncio.to_thread(up.page_loads, "this release")

    print("4. rollback to the previous release (no migration undone)", flush=True)
    await asyncio.to_thread(up.previous.manage, env, "collectstatic", "--noinput", "-v0")
    await up.restart_web(1, up.previous)
    await c.steps(2)
    await up.restart_web(2, up.previous)
    await up.restart_clock(up.previous)
    winner = await c.to_the_end()
    d = await up.table("d")
    await d.say("hello after the rollback")
    await d.deal()
    await d.steps(4)
    await b.steps(3)
    check.expect(
        True,
        f"the previous release on the new schema: room C (dealt by this release) played to its end "
        f"({winner} won), room D created and played ({d.figures.moves} moves), B played on",
    )
    await asyncio.to_thread(up.page_loads, "rolled back")
    moves = sum(t.figures.moves for t in up.tables)
    refused = sum(len(p.errors) for t in up.tables for p in t.players)
    check.expect(refused == 0, f"{moves} moves over 4 rooms, {refused} refused")
    for table in up.tables:
        await table.stop()


def chat_lines(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url) as db:
        row = db.execute(
            "SELECT count(*) FROM rooms_chatmessage m JOIN rooms_room r ON r.id = m.room_id "
            "WHERE r.slug LIKE 'upgrade-%%'"
        ).fetchone()
    return int(row[0]) if row else 0


def logged_errors(check: Check) -> list[str]:
    """Lines at ERROR or above (JSON or text) and tracebacks in the processes' logs."""
    found = []
    for path in sorted(check.prefix.glob("*.log")):
        for line in path.read_text(errors="replace").splitlines():
            if re.search(r'"level": "(ERROR|CRITICAL)"|\b(ERROR|CRITICAL)\b|Traceback', line):
                found.append(f"{path.stem}: {line[:300]}")
    return found


def main() -> None:
    server_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not server_url.startswith("postgres") or not redis_url:
        sys.exit("make upgrade-check needs DATABASE_URL=postgres://… and REDIS_URL=redis://… (it uses a "
                 "database of its own on that server)")  # fmt: skip
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    prefix = Path(tempfile.mkdtemp(prefix="upgrade-check-"))
    check = Check(prefix)
    started = perf_counter()
    commit = previous_release()
    previous = Release("previous", extract(commit, prefix / f"release-{commit[:10]}"))
    new = Release("new", recipe.ROOT)
    database_url = database(server_url, os.environ.get("UPGRADE_CHECK_DB", "wordrooms_upgrade_check"))
    ports = [recipe_port() for _ in range(2)]
    site = Site(recipe.HOST_NAME, recipe_port(), recipe_port())
    env = environment(database_url, redis_url, site, prefix)
    env["REDIS_PREFIX"] = f"upgrade-check-{secrets.token_hex(4)}"
    up = Upgrade(check, site, ports, env, previous, new)
    try:
        previous.manage(env, "migrate", "--noinput", "-v0")
        previous.manage(env, "collectstatic", "--noinput", "-v0")
        for index in (1, 2):
            up.start_web(index, previous)
        up.start_clock(previous)
        cert, key = recipe.self_signed_certificate(prefix)
        listen = {"https_port": site.https_port, "http_port": site.http_port}
        site_conf = recipe.render_site(
            upstreams=ports, cert=cert, key=key, logs=prefix / "nginx" / "logs", **listen
        )
        conf = recipe.render_nginx(prefix / "nginx", site_conf)
        check.start("nginx", recipe.Command(recipe.nginx_argv(nginx, conf), prefix), env)
        for index, port in enumerate(ports, 1):
            wait_healthy(check, f"daphne{index}", port)
        print(f"previous release {commit[:12]} (deploy/PREVIOUS_RELEASE), nginx :{site.https_port} → "
              f"Daphne :{ports[0]} and :{ports[1]}, clock, PostgreSQL {database_url.rsplit('/', 1)[1]}; "
              f"up in {perf_counter() - started:.1f} s", flush=True)  # fmt: skip
        asyncio.run(scenario(up))
        lines = chat_lines(database_url)
        check.expect(lines == 3, f"{lines} of 3 lines of table talk stored (one per release and one after)")
        # A figure, not a check (a loaded machine starts Daphne slowly).
        restarts = ", ".join(f"{s:.1f} s" for s in up.restarts)
        taken = ", ".join(f"{s:.1f} s" for s in up.taken_back)
        print(f"  restarts (SIGTERM to ready): {restarts}; the proxy took each back after {taken}")
        up.stop("clock")
    except Exception as error:  # a step that could not even run is a failure too
        check.failures.append(f"{type(error).__name__}: {error}")
        traceback.print_exc()
        print(f"  FAIL {type(error).__name__}: {error}", flush=True)
    finally:
        check.stop_all()
        drop_database(database_url)
    errors = logged_errors(check)
    check.expect(not errors, f"no error in the processes' logs: {errors[:5]}")
    if check.failures:
        print(f"upgrade-check: FAILED: {'; '.join(check.failures)} (logs in {prefix})")
    else:
        shutil.rmtree(prefix, ignore_errors=True)
        print(f"upgrade-check: passed in {perf_counter() - started:.0f} s")
    sys.exit(1 if check.failures else 0)


def recipe_port() -> int:
    from bench.servers import free_port

    return free_port()


if __name__ == "__main__":
    main()
