"""Two server processes and a Redis that hangs: the lines said meanwhile reach the other
process's sockets from the database (in order, once each, to their readers only), and
nothing is doubled when Redis wakes up and delivers what it held."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from rooms.services import room_join, room_sit
from tests.conftest import DaphneServer, make_session
from tests.rooms.test_outage import PrivateRedis
from tests.rooms.test_survive import _open as open_screen

pytestmark = pytest.mark.django_db(transaction=True)


class Talk:
    """A socket read for its chat lines only (states and patches are let by)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.lines: list[str] = []

    async def until_line(self, text: str, timeout: float) -> float:
        """Seconds until the line ``text`` arrives (every line is kept on the way)."""
        start = time.monotonic()
        while text not in self.lines:
            left = timeout - (time.monotonic() - start)
            if left <= 0:
                raise TimeoutError(f"{text!r} never came; got {self.lines}")
            message = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            if message.get("type") == "chat" and not message["history"]:
                self.lines += [line["text"] for line in message["messages"]]
        return time.monotonic() - start

    async def say(self, channel: str, text: str) -> None:
        await self.ws.send(json.dumps({"action": "say", "channel": channel, "text": text}))
        await self.until_line(text, 10)


async def _open(server: DaphneServer, slug: str, session: str) -> Talk:
    return Talk((await open_screen(server, slug, session)).ws)


def test_lines_said_while_redis_hangs_reach_the_other_process_once_each(tmp_path: Path) -> None:
    slug = "talk-catch-up"
    for name, team in (("ada", "red"), ("bo", "red"), ("cy", "blue")):
        room_join(slug=slug, uid=f"{slug}-{name}", name=name)
        room_sit(slug=slug, uid=f"{slug}-{name}", team=team, role="operative")
    sessions = {name: make_session(f"{slug}-{name}") for name in ("ada", "bo", "cy")}
    redis = PrivateRedis(tmp_path)
    redis.start()
    url = f"redis://127.0.0.1:{redis.port}/0"
    env = {"PUSH_CHECK_SECONDS": "1"}
    first, second = DaphneServer(url, env).start(), DaphneServer(url, env).start()
    loop = asyncio.new_event_loop()
    try:

        async def play() -> dict[str, Any]:
            ada = await _open(first, slug, sessions["ada"])
            bo, cy = await _open(second, slug, sessions["bo"]), await _open(second, slug, sessions["cy"])
            # Through Redis while it answers.
            await ada.say("room", "zq-before")
            await bo.until_line("zq-before", 10)
            assert redis.proc is not None
            redis.proc.send_signal(signal.SIGSTOP)  # hung: connections open, nothing answered
            try:
                await ada.say("room", "zq-during-0")
                await ada.say("team", "zq-during-team")
                await ada.say("room", "zq-during-1")
                waited = await bo.until_line("zq-during-1", 15)
                await cy.until_line("zq-during-1", 15)
            finally:
                redis.proc.send_signal(signal.SIGCONT)
            # Redis delivers what it held, then this line: any double would come first.
            await ada.say("room", "zq-after")
            await bo.until_line("zq-after", 15)
            await cy.until_line("zq-after", 15)
            for talk in (ada, bo, cy):
                await talk.ws.close()
            return {"waited": waited, "bo": bo.lines, "cy": cy.lines}

        seen = loop.run_until_complete(play())
    finally:
        loop.close()
        first.stop()
        second.stop()
        redis.stop()
    print(f"\nthe other process showed the lines {seen['waited']:.2f} s after the last was said")
    room_lines = ["zq-before", "zq-during-0", "zq-during-1", "zq-after"]
    assert seen["bo"] == ["zq-before", "zq-during-0", "zq-during-team", "zq-during-1", "zq-after"]
    assert seen["cy"] == room_lines  # red's line never reaches blue, caught up or not
