"""Hostile frames against a real server: how many close a socket with 1011, how many crash.

    python -m bench.hostile                 # 5,000 frames, SQLite + in-memory layer
    DATABASE_URL=… REDIS_URL=… python -m bench.hostile --frames 5000

Two rooms (Codenames and Decrypto, four seated players each, a game dealt) receive
random frames from their players' sockets: every action of docs/protocol.md with random
fields — lone surrogates, NUL and control characters, huge numbers, wrong types, deep
nesting, broken JSON, oversized frames. It counts the answers by error code and the
sockets closed by the server (by close code), then checks that every seat's page still
renders. Prints figures; asserts nothing. Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench.bots import join_player
from bench.servers import Server, configure, free_port, migrate, server_env

ACTIONS = [
    *("ping", "sync", "rename", "sit", "shuffle", "set_game", "device_link", "set_language", "set_words"),
    *("start_game", "house_rules", "give_clue", "propose", "unpropose", "confirm", "end_turn"),
    *("reject_clue", "penalty_cover", "opponent_cover", "rotate_spymasters", "save_draft", "submit_clues"),
    *("edit_guess", "lock_guess", "set_note", "set_order", "tiebreak_guess", "judge", "nonsense"),
]
FIELDS = [
    *("turn", "position", "word", "number", "team", "role", "name", "confirm", "mode", "regenerate"),
    *("game", "language", "text", "clues", "code", "round", "phase", "guessing_for", "timer", "notes"),
    *("ref", "accept", "words", "order"),
]
NASTY = ["\\ud800", "a\\udfffb", "\\u0000", "\\u0007", "\\u009b", "\\u202e", "\\ufeff", "\\ud83d\\ude00", "∞"]
SEATS = {
    "codenames": [("red", "spymaster"), ("red", "operative"), ("blue", "spymaster"), ("blue", "operative")],
    "decrypto": [("white", "player"), ("white", "player"), ("black", "player"), ("black", "player")],
}


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return rng.choice([0, 1, -1, 24, 2**70, -(2**64), 1e308])
    if kind == 1:
        return rng.choice([None, True, False])
    if kind in (2, 3, 4):
        return "".join(rng.choice(NASTY + ["x", "red", "1", " "]) for _ in range(rng.randrange(1, 6)))
    if kind == 5:
        return rng.random()
    if kind in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(FIELDS + NASTY): _value(rng, depth + 1) for _ in range(rng.randrange(0, 3))}


def hostile_frame(rng: random.Random) -> str:
    """One frame: mostly a protocol action with odd fields, sometimes not JSON at all."""
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(["{", "[]", "null", '"x"', "{}", '{"action": 1}', "\\ud800", "{" * 50 + "}" * 50])
    if roll < 0.08:
        return json.dumps({"action": "rename", "name": "x" * 20_000})  # over the 16 KiB frame limit
    message: dict[str, Any] = {"action": rng.choice(ACTIONS)}
    for _ in range(rng.randrange(0, 5)):
        message[rng.choice(FIELDS)] = _value(rng)
    text = json.dumps(message)
    for escaped in NASTY:  # json.dumps wrote "\\" for the backslashes of our escapes
        text = text.replace(json.dumps(escaped)[1:-1], escaped)
    return text


async def _room(port: int, slug: str, game: str) -> list[str]:
    sessions = [await asyncio.to_thread(join_player, port, slug, f"p{i}") for i in range(4)]
    url, origin = f"ws://127.0.0.1:{port}/ws/r/{slug}/", f"http://127.0.0.1:{port}"
    for index, session in enumerate(sessions):
        async with connect(url, origin=origin, additional_headers={"Cookie": f"sessionid={session}"}) as ws:
            await ws.recv()
            if index == 0 and game != "codenames":
                await ws.send(json.dumps({"action": "set_game", "game": game}))
            team, role = SEATS[game][index]
            await ws.send(json.dumps({"action": "sit", "team": team, "role": role}))
            if index == 3:
                await ws.send(json.dumps({"action": "start_game"}))
            await asyncio.sleep(0.2)  # the server applies these in order; nothing is measured here
    return sessions


async def blast(port: int, slug: str, session: str, frames: list[str], tally: Counter[str]) -> None:
    url, origin = f"ws://127.0.0.1:{port}/ws/r/{slug}/", f"http://127.0.0.1:{port}"
    pending = list(frames)
    while pending:
        try:
            async with connect(
                url, origin=origin, additional_headers={"Cookie": f"sessionid={session}"}
            ) as ws:
                await ws.recv()
                while pending:
                    await ws.send(pending.pop())
                    tally["sent"] += 1
                    await asyncio.sleep(0.11)  # within the socket's own limit (10 a second)
                    while True:
                        try:
                            reply = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                        except TimeoutError:
                            break
                        if reply.get("type") == "error":
                            tally[f"error:{reply['code']}"] += 1
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else 1006
            tally[f"closed:{code}"] += 1


async def check_pages(port: int, rooms: dict[str, list[str]], tally: Counter[str]) -> None:
    for slug, sessions in rooms.items():
        for session in sessions:
            async with connect(
                f"ws://127.0.0.1:{port}/ws/r/{slug}/",
                origin=f"http://127.0.0.1:{port}",
                additional_headers={"Cookie": f"sessionid={session}"},
            ) as ws:
                first = json.loads(await ws.recv())
                tally["seats rendered" if first.get("type") == "state" else "seats broken"] += 1


async def main(frames: int, seed: int) -> None:
    config = configure()
    migrate(config)
    env = server_env(config, "config.settings")
    server = Server("product", "config.asgi:application", free_port(), env, Path(tempfile.mkdtemp()))
    server.start()
    try:
        await server.wait_ready()
        rng = random.Random(seed)
        rooms = {f"hostile-{game}-{seed}": await _room(server.port, f"hostile-{game}-{seed}", game)
                 for game in SEATS}  # fmt: skip
        tally: Counter[str] = Counter()
        jobs = []
        for slug, sessions in rooms.items():
            for session in sessions:
                batch = [hostile_frame(rng) for _ in range(frames // 8)]
                jobs.append(blast(server.port, slug, session, batch, tally))
        await asyncio.gather(*jobs)
        await check_pages(server.port, rooms, tally)
        print(f"database {config.vendor}, layer {config.layer}; {tally['sent']} hostile frames")
        for key, count in sorted(tally.items()):
            print(f"  {key:<32} {count}")
        print(
            f"closes with 1011: {tally['closed:1011']}; server_error answers: {tally['error:server_error']}"
        )
        print(f"server log tracebacks: {server.log_path.read_text(errors='replace').count('Traceback')}")
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.hostile", description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(asyncio.wait_for(main(args.frames, args.seed), timeout=900))
