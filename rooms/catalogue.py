"""The browser's translations, in parts: the site's own strings for every page, and each
game's strings loaded with the game's script.

Django's catalogue sends every string of every script (26 KB in Italian) and helpers for
number formats that no script here uses; a room page would spend a quarter of its 100 KB
on it. Plurals get one small helper of our own (``ngettext``). A part holds the strings
that appear in its scripts' source: the site's (``static/js/``) or one game's (its app's
``static/``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.views.i18n import JavaScriptCatalog

from rooms.games import game_names, get_game

# The helpers, once per page (the site's part): gettext looks a string up in the parts
# loaded so far; interpolate fills "%(name)s" (named) or "%s" in turn; ngettext picks a
# count's form by the language's own rule (PLURAL: the expression in n of its catalogue's
# Plural-Forms), as Italian's "1 rimasto", "0 rimasti" and Portuguese's "0 restante".
_HELPERS = (
    "window.gettext=function(m){var v=window.wordroomsCatalog[m];"
    "return typeof v==='string'?v:Array.isArray(v)?v[0]:m};"
    "window.interpolate=function(f,o,named){if(named)return f.replace(/%\\((\\w+)\\)s/g,"
    "function(_,k){return String(o[k])});var i=0;return f.replace(/%s/g,function(){return String(o[i++])})};"
    "window.ngettext=function(s,p,n){var v=window.wordroomsCatalog[s],i=(PLURAL);"
    "i=typeof i==='boolean'?(i?1:0):i;return Array.isArray(v)&&v[i]?v[i]:n==1?s:p};"
)
# English, and any language whose catalogue does not say: one form for 1, another for the rest.
_DEFAULT_PLURAL = "(n != 1)"


def _sources(root: Path) -> str:
    return "\n".join(path.read_text("utf-8") for path in sorted(root.rglob("*.js")))


def _game_root(name: str) -> Path:
    """The static folder of the app that holds the game's script."""
    script = get_game(name).script
    found = finders.find(script)
    if not found:
        raise LookupError(f"{name}: its script {script} is not a static file")
    path = Path(found if isinstance(found, str) else found[0])
    return path.parents[len(Path(script).parts) - 1]


@cache
def part_sources(part: str) -> str:
    """The source text of the scripts whose strings make up ``part``."""
    if part == "site":
        return "\n".join(_sources(Path(folder)) for folder in settings.STATICFILES_DIRS)
    return _sources(_game_root(part))


def in_part(msgid: str, part: str) -> bool:
    """A string belongs to a game's part when its scripts use it and the site's do not."""
    if part == "site":
        return msgid in part_sources("site")
    return msgid in part_sources(part) and msgid not in part_sources("site")


class CataloguePart(JavaScriptCatalog):
    """``/jsi18n/`` (the site's strings and the helpers) or ``/jsi18n/<game>/``."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        part = kwargs.get("game") or "site"
        if part != "site" and part not in game_names():
            raise Http404("no such game")
        self.part = part
        return super().get(request, *args, **kwargs)

    def render_to_response(self, context: dict[str, Any], **response_kwargs: Any) -> HttpResponse:
        catalog = {
            key: value
            for key, value in context["catalog"].items()
            if isinstance(key, str) and in_part(key, self.part)
        }
        strings = json.dumps(catalog, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        # "</" never closes a script element, whatever a translation holds.
        strings = strings.replace("</", "<\\/")
        body = f"window.wordroomsCatalog=Object.assign(window.wordroomsCatalog||{{}},{strings});"
        if self.part == "site":
            # The rule comes from our own catalogues' headers (never from a request).
            body += _HELPERS.replace("PLURAL", context.get("plural") or _DEFAULT_PLURAL)
        return HttpResponse(body, content_type="text/javascript; charset=utf-8")
