"""Response headers that keep a page from loading or sending anything it should not."""

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
