"""Languages at the socket edge: which language a connection reads, and error texts in it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header


def socket_language(scope: dict[str, Any]) -> str:
    """The language the page was served in: the switcher's cookie, else Accept-Language."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in parse_accept_lang_header(accept) if code != "*"]
    for code in candidates:
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def render_message(message: Any, params: dict[str, Any], language: str) -> str:
    """A (lazy) message in ``language``, its ``%(name)s`` placeholders filled from params."""
    with translation.override(language):
        text = str(message)
    if params and "%(" in text:
        try:
            return text % params
        except (KeyError, TypeError, ValueError):
            return text
    return text
