from django.urls import re_path

from rooms.consumers import RoomConsumer

websocket_urlpatterns = [
    re_path(r"^ws/r/(?P<slug>[a-z0-9-]{3,40})/$", RoomConsumer.as_asgi()),
    re_path(
        r"^ws/r/(?P<slug>[a-z0-9-]{3,40})/device/(?P<token>[A-Za-z0-9_-]{20,64})/$", RoomConsumer.as_asgi()
    ),
]
