import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before the routing (and so the models) is imported.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from config.access import with_access_log  # noqa: E402
from config.health import with_health_checks  # noqa: E402
from rooms import deployment, drain  # noqa: E402
from rooms.routing import websocket_urlpatterns  # noqa: E402

# A Redis prefix claimed by another database's deployment: exit with the reason (before
# any socket could hear that deployment's games).
deployment.check_at_start()


def _close_bad_sockets_with_a_reason() -> None:
    """Daphne leaves autobahn failing a broken connection (invalid UTF-8 in a text frame, a
    protocol error) by dropping TCP: the client sees 1006 and no reason. Failing with a
    close frame instead gives it the code (1007 for invalid UTF-8)."""
    from daphne import ws_protocol

    original = ws_protocol.WebSocketFactory.__init__

    def __init__(self: ws_protocol.WebSocketFactory, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)
        self.setProtocolOptions(failByDrop=False)

    if not getattr(original, "closes_with_reason", False):
        __init__.closes_with_reason = True  # type: ignore[attr-defined]
        ws_protocol.WebSocketFactory.__init__ = __init__  # type: ignore[method-assign]


_close_bad_sockets_with_a_reason()

# Outermost: every request and socket gets its id before anything could log a line of it.
application = with_access_log(
    ProtocolTypeRouter(
        {
            # /healthz and /readyz first: no Host check, no HTTPS redirect (config/health.py).
            "http": with_health_checks(django_asgi_app),
            # Cookies only: the room socket reads the one session value it needs itself, once
            # (Channels' session middleware would wrap every frame sent to check for a save).
            "websocket": AllowedHostsOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
        }
    )
)

# On SIGTERM, close the sockets with 1012 and count their players out before exiting.
drain.install()

if settings.GAME_CLOCK:
    from rooms import clock  # noqa: E402

    clock.start()
