"""The floor: the framework's own broadcast of one move, with no database and no game.

    DJANGO_SETTINGS_MODULE=bench.floor_settings python -m daphne -p PORT bench.floor:application

Whatever the product costs above this is the price of its own work per move.
"""

import json
import os
from collections import defaultdict
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.floor_settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

# One process per floor, so a plain dict is the room's whole history.
VERSIONS: defaultdict[str, int] = defaultdict(int)


class FloorConsumer(AsyncWebsocketConsumer):
    """One socket in one room: a version on connect, a patch per move."""

    async def connect(self) -> None:
        self.slug = self.scope["url_route"]["kwargs"]["slug"]
        self.group = f"room.{self.slug}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_state()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            return
        if not isinstance(message, dict):
            return
        if message.get("action") == "propose":
            VERSIONS[self.slug] += 1
            event = {"type": "room.move", "version": VERSIONS[self.slug], "position": message.get("position")}
            await self.channel_layer.group_send(self.group, event)
        elif message.get("action") == "ping":
            # The page's keep-alive (static/js/room.js): the least any server must answer.
            await self.send(text_data='{"type":"pong"}')
        elif message.get("action") == "sync":
            # The protocol's answer to a gap, so a bot that missed a patch is not stuck.
            await self.send_state()

    async def send_state(self) -> None:
        await self.send(text_data=json.dumps({"type": "state", "version": VERSIONS[self.slug]}))

    async def room_move(self, event: dict[str, Any]) -> None:
        version = event["version"]
        ops = [["set", ["play", "proposals"], {"x": event["position"]}]]
        patch = {"type": "patch", "version": version, "base": version - 1, "ops": ops}
        await self.send(text_data=json.dumps(patch, separators=(",", ":")))


application = ProtocolTypeRouter(
    {"websocket": URLRouter([re_path(r"^ws/r/(?P<slug>[a-z0-9-]{3,40})/$", FloorConsumer.as_asgi())])}
)
