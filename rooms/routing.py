from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from rooms.consumers import RoomConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Any other socket path (a mistyped room, a device link of the wrong length): refused
    at the handshake, not a server error with a traceback."""

    channel_layer_alias = "__none__"

    async def connect(self) -> None:
        await self.close()


websocket_urlpatterns = [
    re_path(r"^ws/r/(?P<slug>[a-z0-9-]{3,40})/$", RoomConsumer.as_asgi()),
    # The table view's socket: a visitor's, whatever session the browser holds.
    re_path(r"^ws/r/(?P<slug>[a-z0-9-]{3,40})/(?P<view>table)/$", RoomConsumer.as_asgi()),
    re_path(
        r"^ws/r/(?P<slug>[a-z0-9-]{3,40})/device/(?P<token>[A-Za-z0-9_-]{20,64})/$", RoomConsumer.as_asgi()
    ),
    re_path(r"", NoSuchSocket.as_asgi()),
]
