"""``make deploy-check``: the production recipe, started from its own files, on loopback.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/x REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m deploy.check

nginx (deploy/nginx/wordrooms.conf, TLS with a throwaway certificate), two Daphne
processes and the clock (the ExecStart and environment of deploy/systemd/ and
deploy/wordrooms.env.example) against PostgreSQL and Redis, with a database of its own
(dropped at the end) and a Redis prefix of its own. Then, through the proxy as browsers:

1. ``/healthz`` and ``/readyz`` beside and through the proxy; ``/metrics`` refused;
2. a whole Codenames game by eight sockets spread over both processes, every move seen
   by every socket;
3. join forms with forged ``X-Forwarded-For`` headers get no more than the room limit;
4. SIGTERM to one Daphne: its sockets close with 1012 (none with 1006), every player is
   back on the other process and shown present within 2 s, and the process exits 0;
5. a rolling restart with games in progress (docs/operations.md, "Upgrading"): three
   tables play game after game while each Daphne in turn gets SIGTERM, is started again
   and answers ``/readyz`` before the next: every socket of each process is back within
   3 s of its SIGTERM and no move goes unanswered (failed reconnects, moves resent under
   their id and the longest wait are printed).

Prints figures; exits 1 if any check failed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from time import perf_counter

from bench.servers import _die_with_parent, free_port
from deploy import recipe
from deploy.client import Player, Site, own_address
from deploy.game import play_codenames

ROOM_LIMIT = 5  # LIMIT_ROOMS_PER_IP for the check: small, so forging is quick to count
PRESENT_WITHIN = 2.0  # seconds: every player back and shown present after a SIGTERM
BACK_WITHIN = 3.0  # seconds: a rolling restart's sockets back after their process's SIGTERM
ROLLING_TABLES = 3  # tables of eight playing through the rolling restart


class Check:
    def __init__(self, prefix: Path) -> None:
        self.prefix = prefix
        self.failures: list[str] = []
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.commands: dict[str, tuple[recipe.Command, dict[str, str]]] = {}

    def expect(self, ok: bool, what: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}", flush=True)
        if not ok:
            self.failures.append(what)

    def start(self, name: str, command: recipe.Command, env: dict[str, str]) -> None:
        self.commands[name] = (command, env)
        log = open(self.prefix / f"{name}.log", "ab")  # noqa: SIM115 (kept open for the child)
        self.procs[name] = subprocess.Popen(
            command.argv,
            cwd=command.cwd,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,
        )

    def restart(self, name: str) -> None:
        """Start ``name`` again, as systemd does after it exited (Restart=always)."""
        self.start(name, *self.commands[name])

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def log_tail(self, name: str) -> str:
        return "\n".join((self.prefix / f"{name}.log").read_text(errors="replace").splitlines()[-15:])


def database(url: str, name: str) -> str:
    """A fresh database ``name`` on the server of ``url``; its URL."""
    import psycopg

    base, _ = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def drop_database(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def get(port: int, path: str, host: str) -> tuple[int, bytes]:
    """Plain HTTP to a loopback port, redirects not followed."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_healthy(check: Check, name: str, port: int, timeout: float = 60.0, path: str = "/healthz") -> None:
    deadline = perf_counter() + timeout
    while perf_counter() < deadline:
        if check.procs[name].poll() is not None:
            raise RuntimeError(f"{name} exited at start:\n{check.log_tail(name)}")
        try:
            if get(port, path, "127.0.0.1")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{name} did not answer /healthz within {timeout:.0f} s:\n{check.log_tail(name)}")


def sockets_on(port: int) -> int:
    """Established TCP connections to ``port`` on loopback (nginx → Daphne: only sockets
    stay open, as the upstream keeps no idle connections)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
                count += 1
    return count


def check_health(check: Check, site: Site, ports: list[int]) -> None:
    print("health", flush=True)
    for port in ports:
        status, body = get(port, "/readyz", "127.0.0.1")
        check.expect(status == 200, f"beside the proxy, 127.0.0.1:{port}/readyz: {status} {body.decode()}")
    for path, wanted in (("/healthz", 200), ("/readyz", 200), ("/metrics", 403)):
        status, _, body = site.request("GET", path)
        shown = body.decode(errors="replace") if status == 200 else ""
        check.expect(status == wanted, f"through the proxy, {path}: {status} {shown}".rstrip())
    status, _ = get(site.http_port, "/", site.host)
    check.expect(status == 301, f"plain HTTP is redirected to HTTPS: {status}")


def check_forged_addresses(check: Check, site: Site, daphne_port: int) -> None:
    print(f"forged X-Forwarded-For (LIMIT_ROOMS_PER_IP={ROOM_LIMIT}/hour)", flush=True)
    source = own_address()
    tries = ROOM_LIMIT + 7
    results: Counter[int] = Counter()
    for _ in range(tries):
        forged = ", ".join(f"{random.randint(1, 223)}.{random.randint(0, 255)}.0.{n}" for n in (1, 2))
        status, _ = site.join(f"forged-{secrets.token_hex(4)}", "Mallory", source=source, forged=forged)
        results[status] += 1
    created, refused = results[302], results[429]
    check.expect(
        (created, refused) == (ROOM_LIMIT, tries - ROOM_LIMIT),
        f"through the proxy from {source}: {tries} new rooms, each with a random forged address: "
        f"{created} created, {refused} refused ({dict(results)})",
    )
    # The same forgery sent to Daphne itself is believed (--proxy-headers): why Daphne
    # listens on loopback only. A figure, not a check.
    direct: Counter[int] = Counter()
    for _ in range(3):
        forged = f"{random.randint(1, 223)}.{random.randint(0, 255)}.1.1"
        direct[_forged_direct(daphne_port, forged, site.host)] += 1
    print(f"  (beside the proxy, straight to Daphne, forged addresses are believed: {dict(direct)})")


def _forged_direct(port: int, forged: str, host: str) -> int:
    """A join form straight to Daphne with a forged address and scheme; its status."""
    import http.client
    from http.cookies import SimpleCookie
    from urllib.parse import urlencode

    slug = f"direct-{secrets.token_hex(4)}"
    headers = {"Host": host, "X-Forwarded-For": forged, "X-Forwarded-Proto": "https"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", f"/r/{slug}/", headers=headers)
        page = conn.getresponse()
        page.read()
        jar: SimpleCookie = SimpleCookie()
        for header in page.headers.get_all("Set-Cookie") or []:
            jar.load(header)
        csrf = jar["csrftoken"].value if "csrftoken" in jar else ""
        form = urlencode({"name": "Mallory", "csrfmiddlewaretoken": csrf})
        post = {**headers, "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={csrf}", "Origin": f"https://{host}"}  # fmt: skip
        conn.request("POST", f"/r/{slug}/join/", form, post)
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


async def join_room(site: Site, slug: str) -> tuple[list[Player], dict[str, Player], dict[str, Player]]:
    """Eight browsers: a spymaster and an operative per team, four watchers."""
    seats = [("Red spymaster", "red"), ("Red operative", "red"), ("Blue spymaster", "blue"),
             ("Blue operative", "blue")] + [(f"Watcher {n}", "watch") for n in range(1, 5)]  # fmt: skip
    players = []
    source = own_address()  # one home network for the whole table
    for name, seat in seats:
        status, session = await asyncio.to_thread(site.join, slug, name, seat, source)
        if status != 302 or session is None:
            raise RuntimeError(f"{name} could not join: HTTP {status}")
        players.append(Player(site, slug, name, session, source))
    # One after another with no request in between: nginx's round-robin alternates them.
    for player in players:
        await player.start()
    spymasters = {"red": players[0], "blue": players[2]}
    operatives = {"red": players[1], "blue": players[3]}
    from deploy.game import GameFigures, move

    for team, player in spymasters.items():
        await move(player, players, {"action": "sit", "team": team, "role": "spymaster"}, GameFigures())
    return players, spymasters, operatives


async def check_game(check: Check, site: Site, ports: list[int]) -> list[Player]:
    print("a whole Codenames game through the proxy", flush=True)
    slug = f"deploy-check-{secrets.token_hex(3)}"
    players, spymasters, operatives = await join_room(site, slug)
    spread = {port: sockets_on(port) for port in ports}
    check.expect(
        all(spread.values()) and sum(spread.values()) == len(players),
        f"{len(players)} sockets over both Daphne processes: {spread}",
    )
    started = perf_counter()
    figures = await play_codenames(spymasters, operatives, players)
    seen = sorted(figures.seen_ms)
    check.expect(
        figures.winner is not None,
        f"game over ({figures.winner} won) after {figures.moves} moves in {perf_counter() - started:.1f} s; "
        f"every move held by all {len(players)} sockets, p50 {seen[len(seen) // 2]:.0f} ms, "
        f"max {seen[-1]:.0f} ms; gaps {sum(p.gaps for p in players)}",
    )
    return players


async def check_drain(check: Check, site: Site, players: list[Player], ports: list[int]) -> None:
    print("SIGTERM to one Daphne process", flush=True)
    victim, survivor = ports
    on_victim = sockets_on(victim)
    started = perf_counter()
    check.procs["daphne1"].send_signal(signal.SIGTERM)

    def closed() -> int:
        return sum(sum(p.closes.values()) for p in players)

    def back() -> bool:
        return closed() >= on_victim and all(p.live and p.everyone_present() for p in players)

    from deploy.game import MoveFailed, until

    try:
        await until(back, 10.0, "every player back and shown present")
        seconds = perf_counter() - started
    except MoveFailed:
        seconds = float("inf")
    moved = [p for p in players if p.closed_at]
    if moved:
        phases = [
            max(getattr(p, name) for p in moved) - started for name in ("closed_at", "reopened_at", "live_at")
        ]
        print("  the moved players' last close seen at {:.2f} s, socket open again at {:.2f} s, "
              "first state at {:.2f} s".format(*phases))  # fmt: skip
    codes = Counter[int]()
    for player in players:
        codes.update(player.closes)
    check.expect(
        codes[1012] == on_victim and codes[1006] == 0 and sum(codes.values()) == on_victim,
        f"{on_victim} sockets on the stopped process: closed with {dict(codes)} (1012 expected, no 1006)",
    )
    check.expect(
        seconds <= PRESENT_WITHIN,
        f"every player back (on :{survivor}) and shown present on every screen after {seconds:.2f} s",
    )
    try:
        code = check.procs["daphne1"].wait(timeout=20)
    except subprocess.TimeoutExpired:
        code = None
    log = (check.prefix / "daphne1.log").read_text(errors="replace")
    drained = [line for line in log.splitlines() if "drained in" in line]
    check.expect(code == 0, f"the stopped process exited with {code}: {' '.join(drained)[-160:]}")
    check.expect(sockets_on(survivor) == len(players), f"all {len(players)} sockets now on {survivor}")

    # The next game with a bot operative, which only the clock process moves: its moves
    # reach every socket through Redis.
    from deploy.game import GameFigures, move, until_the_bot_moves

    spymasters, operatives = {"red": players[0], "blue": players[2]}, {"blue": players[3]}
    await move(players[1], players, {"action": "sit", "team": "", "role": "spectator"}, GameFigures())
    bot = {"action": "add_bot", "team": "red", "role": "operative"}
    await move(players[0], players, bot, GameFigures())
    seconds = await until_the_bot_moves(spymasters, operatives, players, "red")
    check.expect(
        True,
        f"next game: the clock's bot operative moved {seconds:.1f} s after the clue, seen by every socket",
    )


def _live_again(player: Player) -> bool:
    return player.live and player.live_at > player.closed_at


def _back(everyone: list[Player], since: float, count: int) -> bool:
    """At least ``count`` sockets closed since ``since``, and each of them live again."""
    moved = [p for p in everyone if p.closed_at > since]
    return len(moved) >= count and all(_live_again(p) for p in moved)


async def check_rolling_restart(check: Check, site: Site, ports: list[int], idle: list[Player]) -> None:
    """Each Daphne in turn: SIGTERM, wait for its exit, start it again, wait for /readyz;
    meanwhile tables play. ``idle``: sockets already open (the first game's table)."""
    from deploy.game import GameFigures, MoveFailed, Tally, keep_playing, until

    print(f"rolling restart with {ROLLING_TABLES} games in progress", flush=True)
    tables = [await join_room(site, f"rolling-{n}-{secrets.token_hex(3)}") for n in range(ROLLING_TABLES)]
    everyone = idle + [p for players, _, _ in tables for p in players]
    tally, stop = Tally(), asyncio.Event()
    per_table = [GameFigures() for _ in tables]
    games = [
        asyncio.create_task(
            keep_playing(seats, operatives, [*seats.values(), *operatives.values()], figures, tally, stop)
        )  # fmt: skip
        for (_, seats, operatives), figures in zip(tables, per_table, strict=True)
    ]

    def made() -> int:
        return sum(figures.moves for figures in per_table)

    await until(lambda: made() >= 3 * ROLLING_TABLES, 60.0, "the games to be under way")
    failed_before = sum(p.closes[-1] for p in everyone)
    why_before = sum((p.failures for p in everyone), Counter[str]())
    resent_before, lost_before = sum(p.resent for p in everyone), sum(p.lost for p in everyone)
    moves_before = made()
    results = []
    for name, port in zip(("daphne1", "daphne2"), ports, strict=True):
        on = sockets_on(port)
        started = perf_counter()
        check.procs[name].send_signal(signal.SIGTERM)

        try:
            await until(lambda s=started, n=on: _back(everyone, s, n), 90.0, f"the sockets of {name} back")
        except MoveFailed:
            pass  # counted below
        players = [p for p in everyone if p.closed_at > started]
        waits = sorted(p.live_at - started if _live_again(p) else float("inf") for p in players)
        returned = sum(w != float("inf") for w in waits)
        if players:
            phases = [max(getattr(p, field) for p in players) - started
                      for field in ("closed_at", "reopened_at", "live_at")]  # fmt: skip
            print(f"  {name}: its {len(players)} sockets' last close seen at {phases[0]:.2f} s, "
                  f"last open at {phases[1]:.2f} s, last first state at {phases[2]:.2f} s "
                  "after its SIGTERM")  # fmt: skip
        code = await asyncio.to_thread(check.procs[name].wait, 30)
        stopped = perf_counter() - started
        check.restart(name)
        await asyncio.to_thread(wait_healthy, check, name, port, 60.0, "/readyz")
        print(f"  {name}: exited {stopped:.2f} s after its SIGTERM, ready again "
              f"{perf_counter() - started - stopped:.2f} s after its start")  # fmt: skip
        results.append((name, port, on, returned, waits[-1] if waits else 0.0, code))
    stop.set()
    await asyncio.gather(*games)
    failed = sum(p.closes[-1] for p in everyone) - failed_before
    resent = sum(p.resent for p in everyone) - resent_before
    lost = sum(p.lost for p in everyone) - lost_before
    for name, port, on, returned, longest, code in results:
        check.expect(
            returned == on and longest <= BACK_WITHIN and code == 0,
            f"{name} (:{port}) restarted: {returned} of its {on} sockets back, the last "
            f"{longest:.2f} s after its SIGTERM (≤ {BACK_WITHIN:.0f} s); it exited with {code}",
        )
    why = sum((p.failures for p in everyone), Counter[str]()) - why_before
    check.expect(failed == 0, f"{failed} failed reconnects over {len(everyone)} sockets {dict(why)}")
    check.expect(
        not tally.unanswered and lost == 0,
        f"{made() - moves_before} moves made during the restarts: {len(tally.unanswered)} unanswered, "
        f"{resent} sent again on a new socket under their id, {lost} resends lost; "
        f"{len(tally.refused)} refused, {len(tally.stalled)} slow to reach every socket "
        f"{(tally.unanswered + tally.refused + tally.stalled)[:3]}",
    )
    for players, _, _ in tables:
        for player in players:
            await player.stop()


def presence_counts(database_url: str, slug_prefix: str) -> list[int]:
    import psycopg

    with psycopg.connect(database_url) as db:
        rows = db.execute(
            "SELECT p.connections FROM rooms_player p JOIN rooms_room r ON r.id = p.room_id "
            "WHERE r.slug LIKE %s AND NOT p.bot ORDER BY p.id",
            [slug_prefix + "%"],
        ).fetchall()
    return [int(row[0]) for row in rows]


def device_token(database_url: str, slug: str) -> str | None:
    import psycopg

    with psycopg.connect(database_url) as db:
        row = db.execute(
            "SELECT p.device_token FROM rooms_player p JOIN rooms_room r ON r.id = p.room_id "
            "WHERE r.slug = %s AND p.device_token IS NOT NULL",
            [slug],
        ).fetchone()
    return None if row is None else str(row[0])


async def open_device_link(check: Check, site: Site, player: Player, database_url: str) -> str:
    """A spymaster's key on a phone, through the proxy: the page and its socket. The token
    (the link's secret) is what no log may hold (``check_logs``)."""
    from websockets.asyncio.client import connect
    from websockets.typing import Origin

    from deploy.client import tls_context

    await player.send({"action": "device_link"})
    token = None
    for _ in range(100):
        token = await asyncio.to_thread(device_token, database_url, player.slug)
        if token:
            break
        await asyncio.sleep(0.1)
    if token is None:
        raise RuntimeError("no device link was made")
    path = f"/r/{player.slug}/device/{token}/"
    status, _cookies, _body = await asyncio.to_thread(site.request, "GET", path)
    async with connect(
        f"wss://{site.host}:{site.https_port}/ws{path}",
        host="127.0.0.1",
        port=site.https_port,
        ssl=tls_context(),
        server_hostname=site.host,
        origin=Origin(site.origin),
        proxy=None,
        open_timeout=10,
    ) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
    check.expect(
        status == 200 and first.get("type") == "state" and first.get("you", {}).get("device"),
        f"the spymaster's device link through the proxy: page HTTP {status}, socket {first.get('type')}",
    )
    return token


def check_logs(check: Check, secrets_kept: list[str]) -> None:
    """No log of the run (nginx's, each Daphne's, the clock's) holds a secret."""
    files = [path for path in check.prefix.rglob("*.log") if path.is_file()]
    leaked = [
        path.relative_to(check.prefix).as_posix()
        for path in files
        if any(secret in path.read_text(errors="replace") for secret in secrets_kept)
    ]
    check.expect(not leaked and len(files) >= 4, f"no device link's token in the {len(files)} logs: {leaked}")


async def scenario(
    check: Check, site: Site, ports: list[int], database_url: str, secrets_kept: list[str]
) -> None:
    check_health(check, site, ports)
    await asyncio.to_thread(check_forged_addresses, check, site, ports[1])
    players = await check_game(check, site, ports)
    secrets_kept.append(await open_device_link(check, site, players[0], database_url))
    try:
        await check_drain(check, site, players, ports)
        counts = presence_counts(database_url, "deploy-check-")
        check.expect(counts == [1] * len(players), f"each player counted once in the database: {counts}")
        # The drained process comes back, as systemd restarts it; then the rolling restart.
        check.restart("daphne1")
        await asyncio.to_thread(wait_healthy, check, "daphne1", ports[0], 60.0, "/readyz")
        await check_rolling_restart(check, site, ports, players)
    finally:
        for player in players:
            await player.stop()


def environment(database_url: str, redis_url: str, site: Site, prefix: Path) -> dict[str, str]:
    """What systemd would give the units, with this run's database, Redis, key, host and
    static folder (never the checkout's, nor the example's /srv)."""
    base = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
    return {
        **base,
        **recipe.env_file(),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "REDIS_PREFIX": f"deploy-check-{secrets.token_hex(4)}",
        "CSRF_TRUSTED_ORIGINS": site.origin,  # the check's proxy is not on port 443
        "LIMIT_ROOMS_PER_IP": f"{ROOM_LIMIT}/hour",
        "STATIC_ROOT": str(prefix / "static"),
    }


def main() -> None:
    server_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not server_url.startswith("postgres") or not redis_url:
        sys.exit(
            "make deploy-check needs DATABASE_URL=postgres://… and REDIS_URL=redis://… (it uses a database "
            "of its own on that server)"
        )
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    prefix = Path(tempfile.mkdtemp(prefix="deploy-check-"))
    check = Check(prefix)
    database_url = database(server_url, os.environ.get("DEPLOY_CHECK_DB", "wordrooms_deploy_check"))
    ports = [free_port(), free_port()]
    site = Site(recipe.HOST_NAME, free_port(), free_port())
    env = environment(database_url, redis_url, site, prefix)
    clock = recipe.unit_command(recipe.CLOCK_UNIT)
    started = perf_counter()
    secrets_kept: list[str] = []
    try:
        # systemd: what the EnvironmentFile sets overrides the unit's Environment= lines.
        for step in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            command = [clock.argv[0], "manage.py", *step]
            subprocess.run(command, cwd=recipe.ROOT, env={**clock.env, **env}, check=True)
        for index, port in enumerate(ports, 1):
            web = recipe.unit_command(recipe.WEB_UNIT, str(port))
            check.start(f"daphne{index}", web, {**web.env, **env})
        check.start("clock", clock, {**clock.env, **env})
        cert, key = recipe.self_signed_certificate(prefix)
        listen = {"https_port": site.https_port, "http_port": site.http_port}
        site_conf = recipe.render_site(
            upstreams=ports, cert=cert, key=key, logs=prefix / "nginx" / "logs", **listen
        )
        conf = recipe.render_nginx(prefix / "nginx", site_conf)
        check.start("nginx", recipe.Command(recipe.nginx_argv(nginx, conf), prefix), env)
        for index, port in enumerate(ports, 1):
            wait_healthy(check, f"daphne{index}", port)
        print(f"nginx :{site.https_port} (TLS) → Daphne :{ports[0]} and :{ports[1]}, clock, "
              f"PostgreSQL {database_url.rsplit('/', 1)[1]}, Redis prefix {env['REDIS_PREFIX']}; "
              f"up in {perf_counter() - started:.1f} s", flush=True)  # fmt: skip
        asyncio.run(scenario(check, site, ports, database_url, secrets_kept))
        clock_proc = check.procs["clock"]
        clock_proc.terminate()
        check.expect(clock_proc.wait(timeout=20) == 0, "the clock stopped on SIGTERM with exit code 0")
    except Exception as error:  # a step that could not even run is a failure too
        check.failures.append(f"{type(error).__name__}: {error}")
        traceback.print_exc()
        print(f"  FAIL {type(error).__name__}: {error}", flush=True)
    finally:
        check.stop_all()
        drop_database(database_url)
    if secrets_kept:
        check_logs(check, secrets_kept)
    if check.failures:
        print(f"deploy-check: FAILED: {'; '.join(check.failures)} (logs in {prefix})")
    else:
        shutil.rmtree(prefix, ignore_errors=True)
        print(f"deploy-check: passed in {perf_counter() - started:.0f} s")
    sys.exit(1 if check.failures else 0)


if __name__ == "__main__":
    main()
