import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the routing (and so the models) is imported.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from rooms.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Cookies only: the room socket reads the one session value it needs itself, once
        # (Channels' session middleware would wrap every frame sent to check for a save).
        "websocket": AllowedHostsOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

if settings.GAME_CLOCK:
    from rooms import clock  # noqa: E402

    clock.start()
