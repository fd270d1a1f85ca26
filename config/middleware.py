"""Response headers that keep a page from loading or sending anything it should not."""

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

# Everything comes from this server (no CDN): a laptop on a LAN hosts a game night.
# No inline script may run, so even a name that slipped past escaping could not act.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response


class FriendlyNotFoundMiddleware:
    """The players' "no such room" page even under DEBUG (``make run``): a mistyped room on
    a LAN should not show Django's technical page, which the CSP also blocks in part."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 404 and settings.DEBUG and not request.path.startswith("/static/"):
            from rooms.views import not_found

            return not_found(request)
        return response


class DatabaseAwayMiddleware:
    """While the database is unreachable, pages and forms answer a short 503 page that says
    to try again (with ``Retry-After``), not a server error: nothing was changed, and the
    same request works once the database is back."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.db import InterfaceError, OperationalError
        from django.shortcuts import render
        from django.utils.translation import gettext as _

        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logging.getLogger(__name__).warning("database away: %s answered 503 (%s)", request.path, exception)
        message = _("The server cannot reach its database for a moment. Nothing was changed: try again.")
        response = render(request, "503.html", {"message": message}, status=503)
        response["Retry-After"] = "5"
        response["Cache-Control"] = "no-store"
        return response
