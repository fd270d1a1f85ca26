"""What one clock process (``manage.py clock``) can take: bot moves per second, and how
late Decrypto timers fire while it is busy with them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clockload REDIS_URL=redis://… \\
        python -m bench.clockload --bot-rooms 60 --timer-rooms 20

``--bot-rooms`` Codenames rooms of four bots play with ``BOT_THINK_SECONDS=0`` (every
bot is due at every pass: the clock's most); meanwhile ``--timer-rooms`` Decrypto rooms
of idle people each have a 15 s timer running (DC-8), all started together. Figures:
bot moves per second and the clock's CPU over a window, and each timer's lateness
(when the clock applied it minus its deadline). Prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

from bench.servers import CLOCK_TICKS, PYTHON, ROOT
from rooms import changes

CLUES = ["zorbly", "quixum", "flarnish"]


def setup_django(database_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings_test"
    os.environ["DATABASE_URL"] = database_url
    os.environ["GAME_CLOCK"] = "0"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)


def bot_room(slug: str) -> None:
    from bots.seats import add_bot
    from rooms import play, services
    from rooms.models import Player

    services.room_join(slug=slug, uid="host", name="Host", game="codenames", seat="red")
    for team, role in (("red", "spymaster"), ("blue", "spymaster"), ("blue", "operative")):
        add_bot(slug=slug, uid="host", team=team, role=role)
    with changes.locked_room(slug) as room:
        host = Player.objects.get(room=room, uid="host")
        play.act(room, changes.room_players(room), host, {"action": "start_game"})
    services.room_sit(slug=slug, uid="host", team="", role="spectator")
    add_bot(slug=slug, uid="host", team="red", role="operative")


def timer_room(slug: str) -> float:
    """A Decrypto room of four idle people whose late Encryptor's 15 s timer runs; its deadline."""
    from decrypto.models import DecryptoGame
    from rooms import services
    from rooms.games import get_game
    from rooms.models import Room

    people = [("ann", "white"), ("amy", "white"), ("bob", "black"), ("ben", "black")]
    for name, team in people:
        services.room_join(slug=slug, uid=f"{slug}-{name}", name=name, game="decrypto")
        services.room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role="player")
    Room.objects.filter(slug=slug).update(settings={"decrypto": {"timer_seconds": 15}})

    def act(name: str, message: dict[str, object]) -> None:
        with changes.locked_room(slug) as room:
            get_game("decrypto").act(room, room.players.get(uid=f"{slug}-{name}"), message)  # type: ignore[attr-defined]

    stamp = {"round": 1, "phase": "clues"}
    act("amy", {"action": "start_game"})
    act("ann", {"action": "submit_clues", **stamp, "clues": CLUES})
    game = DecryptoGame.objects.get(room__slug=slug)
    assert game.deadline is not None
    return float(game.deadline.timestamp())


def versions(prefix: str) -> int:
    from django.db.models import Sum

    from rooms.models import Room

    return int(Room.objects.filter(slug__startswith=prefix).aggregate(total=Sum("version"))["total"] or 0)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.clockload", description=__doc__.splitlines()[0])
    parser.add_argument("--bot-rooms", type=int, default=60)
    parser.add_argument("--timer-rooms", type=int, default=20)
    parser.add_argument("--window", type=float, default=10.0, help="seconds over which moves are counted")
    args = parser.parse_args(argv)
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres"):
        sys.exit("bench.clockload measures the production clock: set DATABASE_URL=postgres://…")
    setup_django(database_url)
    from decrypto.models import DecryptoGame

    run = secrets.token_hex(3)
    started = time.perf_counter()
    for i in range(args.bot_rooms):
        bot_room(f"cl-{run}-bots-{i}")
    deadlines = {f"cl-{run}-timer-{i}": timer_room(f"cl-{run}-timer-{i}") for i in range(args.timer_rooms)}
    print(f"{args.bot_rooms} bot rooms and {args.timer_rooms} timer rooms set up in "
          f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "TLS": "false",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "BOT_THINK_SECONDS": "0",
    }
    clock = subprocess.Popen([PYTHON, "manage.py", "clock"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        time.sleep(2.0)  # warm up: tables loaded, first passes done
        moves0, cpu0, t0 = versions(f"cl-{run}-bots-"), cpu_seconds(clock.pid), time.perf_counter()
        time.sleep(args.window)
        moves1, cpu1, t1 = versions(f"cl-{run}-bots-"), cpu_seconds(clock.pid), time.perf_counter()
        wait_until = max(deadlines.values()) + 10
        while time.time() < wait_until:
            done = DecryptoGame.objects.filter(room__slug__in=list(deadlines), deadline__isnull=True).count()
            if done == len(deadlines):
                break
            time.sleep(0.2)
    finally:
        clock.terminate()
        clock.wait(timeout=20)
    seconds = t1 - t0
    print(f"bot moves: {(moves1 - moves0) / seconds:.0f}/s over {seconds:.0f} s with {args.bot_rooms} rooms "
          f"(BOT_THINK_SECONDS=0); clock CPU {100 * (cpu1 - cpu0) / seconds:.0f} % of one core")  # fmt: skip
    late = []
    for game in DecryptoGame.objects.filter(room__slug__in=list(deadlines)):
        if game.deadline is None:  # applied: the record was last saved then
            late.append(game.updated_at.timestamp() - deadlines[game.room.slug])
    late.sort()
    if late:
        spread = max(deadlines.values()) - min(deadlines.values())
        middle, last = late[len(late) // 2], late[-1]
        print(f"Decrypto timers: {len(late)}/{len(deadlines)} applied; lateness p50 {middle:.2f} s, "
              f"max {last:.2f} s (deadlines {spread:.1f} s apart)")  # fmt: skip
    else:
        print(f"Decrypto timers: none of {len(deadlines)} applied")


if __name__ == "__main__":
    main()
