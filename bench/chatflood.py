"""Table talk flooded by one browser: how many lines reach the room's readers.

    python -m bench.chatflood                    # SQLite + in-memory layer
    DATABASE_URL=… REDIS_URL=… python -m bench.chatflood --sockets 50 --seconds 15

One session (one browser, one address: 127.0.9.8) opens ``--sockets`` sockets to a room
and each sends `say` at its own socket's pace (one every 1.5 s, the sockets spread over
it, so the address stays under its message limit), with the product's limits on (as
deployed). A second browser, from another address, reads the room and counts the lines
it is shown; it says one line itself at the end, to show a reader is never blocked by
another's flood. Prints figures; asserts nothing. Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from collections import Counter
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from bench.bots import join_player
from bench.servers import Server, configure, free_port, migrate, server_env

FLOODER = "127.0.9.8"
READER = "127.0.9.7"
EVERY = 1.5  # the per-socket allowance's pace (rooms.chat.EVERY)


async def _socket(port: int, slug: str, session: str, source: str) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{port}/ws/r/{slug}/",
        origin=Origin(f"http://127.0.0.1:{port}"),
        additional_headers={"Cookie": f"sessionid={session}"},
        open_timeout=20,
        local_addr=(source, 0),
    )


async def _flood(ws: ClientConnection, number: int, sockets: int, stop: float, answers: Counter[str]) -> None:
    # Each socket at its own allowance's pace, the sockets spread over that pace: what
    # stays under every per-socket and per-address message limit the server had before.
    await asyncio.sleep(EVERY * number / sockets)
    sent = 0
    while time.monotonic() < stop:
        await ws.send(json.dumps({"action": "say", "channel": "room", "text": f"flood {number}.{sent}"}))
        sent += 1
        await asyncio.sleep(EVERY)
    answers["sent"] += sent


async def _read(ws: ClientConnection, stop: float, shown: list[float], answers: Counter[str]) -> None:
    while (left := stop - time.monotonic()) > 0:
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), left))
        except TimeoutError:
            return
        if message.get("type") == "chat" and not message["history"]:
            shown.extend(time.monotonic() for _ in message["messages"])
        elif message.get("type") == "error":
            answers[message["code"]] += 1


async def run(sockets: int, seconds: float) -> None:
    config = configure()
    migrate(config)
    port = free_port()
    server = Server("chatflood", "config.asgi:application", port, server_env(config, "config.settings", True),
                    Path(tempfile.mkdtemp(prefix="chatflood-")))  # fmt: skip
    server.start()
    await server.wait_ready()
    try:
        slug = f"chatflood-{int(time.time())}"
        flooder = join_player(port, slug, "Flood", source=FLOODER)
        reader = join_player(port, slug, "Reader", source=READER)
        floods = [await _socket(port, slug, flooder, FLOODER) for _ in range(sockets)]
        watcher = await _socket(port, slug, reader, READER)
        flood_answers: Counter[str] = Counter()
        reader_answers: Counter[str] = Counter()
        shown: list[float] = []
        start = time.monotonic()
        stop = start + seconds
        reading = asyncio.ensure_future(_read(watcher, stop + 2, shown, reader_answers))
        errors: list[asyncio.Future[None]] = [
            asyncio.ensure_future(_read(ws, stop + 2, [], flood_answers)) for ws in floods
        ]
        await asyncio.gather(*(_flood(ws, n, sockets, stop, flood_answers) for n, ws in enumerate(floods)))
        await asyncio.gather(reading, *errors)
        lines = [t for t in shown if t <= stop + 1]
        print(f"{config.vendor} + {config.layer}: {sockets} sockets of one browser for {seconds:.0f} s")
        refused = {code: n for code, n in flood_answers.items() if code != "sent"}
        print(f"  sent {flood_answers['sent']} lines; answers: {refused}")
        print(f"  the reader was shown {len(lines)} lines: {len(lines) / seconds:.2f} lines/s")
        await watcher.send(json.dumps({"action": "say", "channel": "room", "text": "still here"}))
        mine = json.loads(await asyncio.wait_for(watcher.recv(), 5))
        while not (mine.get("type") == "chat" or mine.get("type") == "error"):
            mine = json.loads(await asyncio.wait_for(watcher.recv(), 5))
        print(f"  the reader's own line after the flood: {mine.get('type')} {mine.get('code', '')}".rstrip())
        for ws in [*floods, watcher]:
            await ws.close()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # 55: under the 60 open sockets an address may hold on one process.
    parser.add_argument("--sockets", type=int, default=55)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    asyncio.run(run(args.sockets, args.seconds))


if __name__ == "__main__":
    main()
