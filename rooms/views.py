"""Pages: the home page, a room's page and its join form. GET never writes anything."""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import re
from typing import Any

import segno
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_POST

from rooms import history, limits, services
from rooms.errors import RoomError
from rooms.games import game_names, get_game
from rooms.i18n import render_message
from rooms.models import Room
from rooms.slugs import SLUG_ANY_CASE_RE, is_valid_slug, random_slug
from rooms.state import room_state

# The site as an app ("Add to Home Screen"): its name, its mark, its colours (app.css's
# light --bg for the splash, the accent for the bar).
MANIFEST_ICONS = (("img/icon-192.png", "192x192"), ("img/icon-512.png", "512x512"))


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    icons: list[dict[str, str]] = [
        {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": "any maskable"}
        for path, sizes in MANIFEST_ICONS
    ]
    icons.append({"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"})
    response = JsonResponse(
        {
            "name": "Wordrooms",
            "short_name": "Wordrooms",
            "id": "/",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#f6efe3",
            "theme_color": "#0d6e62",
            "icons": icons,
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def design(request: HttpRequest) -> HttpResponse:
    """The design sheet (docs/design.md): every token and component on one page, for people
    building a screen and for the docs' screenshots (bench.screenshots --pages /design/).
    Linked from nowhere; its labels are class and token names, its words the site's own."""
    from rooms.design import tokens

    every = tokens()
    return render(
        request,
        "design.html",
        {
            "colours": [t for t in every if t.colour],
            "others": [t for t in every if not t.colour and not t.name.startswith("--chevron")],
            "sizes": ["--fs-sm", "--fs-md", "--fs-lg", "--fs-xl", "--fs-2xl"],
            "spaces": [f"--space-{n}" for n in range(1, 7)],
        },
    )


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    games = [get_game(name) for name in game_names()]
    return render(request, "rooms/home.html", {"games": games, "error": request.GET.get("error") == "1"})


@require_GET
def howto(request: HttpRequest, game: str) -> HttpResponse:
    """How to play a game, in the page's language; ``?bare=1``: the rules alone, for the
    room's own dialog (so a player reads them without leaving the game)."""
    if game not in game_names():
        raise Http404("no such game")
    language = get_language() or "en"
    # Every language the site offers has its rules page (tests/rooms/test_pages.py).
    known = {code for code, _name in settings.LANGUAGES}
    template = get_game(game).howto_template(language if language in known else "en")
    if request.GET.get("bare") == "1":
        return render(request, "howto/bare.html", {"rules": template})
    games = [get_game(name) for name in game_names()]
    return render(request, "howto/page.html", {"game": get_game(game), "games": games, "rules": template})


@require_GET
def new_room(request: HttpRequest) -> HttpResponse:
    """A fresh memorable room name for the chosen game; stored only when someone joins."""
    game = request.GET.get("game", "")
    url = reverse("room", args=[random_slug()])
    if game in game_names():
        url += f"?game={game}"
    return redirect(url)


@require_GET
def go(request: HttpRequest) -> HttpResponse:
    """Open a room by a typed name: 'Game Night' becomes /r/game-night/."""
    typed = request.GET.get("name", "").strip().lower()
    slug = re.sub(r"[\s_]+", "-", typed)
    slug = re.sub(r"-{2,}", "-", slug).strip("-")
    if not is_valid_slug(slug):
        return redirect(reverse("home") + "?error=1")
    return redirect("room", slug=slug)


def _lowercase(request: HttpRequest, view: str, slug: str) -> HttpResponse:
    """A room typed with capitals: the same room, its query kept. Checked before anything
    is rendered, so ``/r/Friday/?table=1`` still reaches the table view, never the
    opener's own (secret) view."""
    if not SLUG_ANY_CASE_RE.fullmatch(slug):
        raise Http404("no such room")
    if view == "room" and request.GET.get("table") == "1":
        view = "table"
    url = reverse(view, args=[slug.lower()])
    query = request.GET.copy()
    query.pop("table", None)
    if query:
        url += "?" + query.urlencode()
    return HttpResponseRedirect(url, status=301)


@require_GET
def room(request: HttpRequest, slug: str) -> HttpResponse:
    if not is_valid_slug(slug):
        return _lowercase(request, "room", slug)
    if request.GET.get("table") == "1":
        return redirect("table", slug=slug)
    return _room_page(request, slug)


@require_GET
def table(request: HttpRequest, slug: str) -> HttpResponse:
    """The table view for a shared screen (a TV): always a visitor's view of the room.

    It is opened from a player's own browser, which holds that player's session (a
    spymaster's key, an Encryptor's code): the session and any device link are never
    read here, so the screen everyone looks at carries nothing secret (its socket,
    ``/ws/r/<slug>/table/``, is served the same way).
    """
    if not is_valid_slug(slug):
        return _lowercase(request, "table", slug)
    return _room_page(request, slug, state=room_state(slug=slug, uid=None), table=True)


@require_GET
def device(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """A player's second screen (a spymaster's key on a phone, CN-S3), opened by its link."""
    if not is_valid_slug(slug):
        raise Http404("no such room")
    if request.GET.get("table") == "1":
        return redirect("table", slug=slug)
    state = room_state(slug=slug, uid=None, device_token=token)
    if state["you"] is None:
        # 256-bit links cannot be guessed, but guessing should not be free work either.
        if not limits.hit("device_failures_per_ip", request.META.get("REMOTE_ADDR")):
            return too_many(request, _("Too many wrong links from your network: wait a minute."))
        raise Http404("no such link")
    return _room_page(request, slug, state=state, device_token=token)


@require_GET
def device_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The QR code of the asking player's own device link (never anyone else's)."""
    state = room_state(slug=slug, uid=request.session.get("uid"))
    link = state["you"] and state["you"]["device_link"]
    if not link:
        raise Http404("no device link")
    buffer = io.BytesIO()
    segno.make(request.build_absolute_uri(link), error="m").save(
        buffer, kind="svg", scale=4, dark="#1f2430", light="#fff", xmldecl=False
    )
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "no-store"
    return response


def _room_page(
    request: HttpRequest,
    slug: str,
    error: str = "",
    status: int = 200,
    state: dict[str, Any] | None = None,
    device_token: str = "",
    table: bool = False,
) -> HttpResponse:
    if state is None:
        state = room_state(slug=slug, uid=request.session.get("uid"))
    link = request.build_absolute_uri(reverse("room", args=[slug]))
    # A stored room plays its own game; one nobody has joined yet, the game its link asked
    # for (the home page's one tap): its landing names that game and loads its files.
    chosen_game = request.GET.get("game", "")
    if state["stored"] or chosen_game not in game_names():
        chosen_game = state["game"]
    context = {
        "slug": slug,
        "state": state,
        "link": link,
        # A viewBox, not a fixed size: the table view draws the QR code as large as it likes.
        "qr_svg": segno.make(link, error="m").svg_inline(
            scale=4, dark="#1f2430", light="#ffffff", omitsize=True
        ),
        "joined": state["you"] is not None,
        "default_name": "" if table else request.session.get("name", ""),
        "chosen_game": chosen_game,
        "game_title": get_game(chosen_game).title,
        # Who is in the room already, for the landing's welcome (names are public in the room).
        **_here([p["name"] for p in state["players"] if not p.get("bot")]),
        "games": [get_game(name) for name in game_names()],
        # The TV's lobby names the game being set up (the room may switch while it waits).
        "game_titles": {name: str(get_game(name).title) for name in game_names()} if table else {},
        "error": error,
        "device_token": device_token,
        # A shared screen (a TV): the visitor's view of the game, without the lobby.
        "table": table,
    }
    context["seat_choices"] = _seat_choices(state, context["chosen_game"])
    # Each game's script and stylesheet, by their static (in production hashed) URLs: the
    # page loads the room's game now and another one only when the room switches to it.
    context["game_assets"] = {name: _assets(name) for name in game_names()}
    context["assets"] = context["game_assets"][chosen_game]
    response = render(request, "rooms/room.html", context, status=status)
    # A room's page shows live, personal state: never cache or share it.
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


def _here(names: list[str], shown: int = 4) -> dict[str, Any]:
    """The landing's "who is here": how many, and the first few names (then an ellipsis)."""
    listed = ", ".join(names[:shown]) + ("…" if len(names) > shown else "")
    return {"here_count": len(names), "here_names": listed}


def _assets(name: str) -> dict[str, str]:
    game = get_game(name)
    return {
        "js": static(game.script),
        "css": static(game.stylesheet),
        "i18n": reverse("javascript-catalog-game", args=[name]),
        "table_css": static(game.table_stylesheet),
    }


TEAM_NAMES = {"red": _lazy("Red"), "blue": _lazy("Blue"), "white": _lazy("White"), "black": _lazy("Black")}
TEAM_SYMBOLS = {"red": "◆", "blue": "●", "white": "○", "black": "■"}


def _seat_choices(state: dict[str, Any], game: str) -> list[dict[str, Any]]:
    """The join form's teams: a newcomer picks one (or to watch) in the same tap."""
    # A room nobody has joined yet plays the game its link asked for.
    teams = state["seating"]["teams"] if state.get("stored") else list(get_game(game).seating.teams)
    counts = {team: sum(1 for p in state["players"] if p["team"] == team) for team in teams}
    return [
        {
            "team": team,
            "name": TEAM_NAMES.get(team, team),
            "symbol": TEAM_SYMBOLS.get(team, ""),
            "count": counts[team],
        }
        for team in teams
    ]


def _kept_room(slug: str) -> Room:
    room = Room.objects.filter(slug=slug).first() if is_valid_slug(slug) else None
    if room is None:
        raise Http404("no such room")
    return room


def _finished(slug: str, ordinal: int) -> tuple[Room, history.Played]:
    """A finished game of the room, or 404: a running game's replay and export do not
    exist yet (its log holds the key, the keywords and codes)."""
    room = _kept_room(slug)
    played = history.finished_game(room, ordinal)
    if played is None:
        raise Http404("no such game")
    return room, played


@require_GET
def games(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's finished games, newest first, and its stats."""
    room = _kept_room(slug)
    lines, running, stats = history.room_history(room)
    context = {"room": room, "lines": lines, "running": running, "stats": stats}
    return render(request, "rooms/games.html", context)


@require_GET
def replay(request: HttpRequest, slug: str, ordinal: int) -> HttpResponse:
    """A finished game step by step, everything revealed."""
    room, played = _finished(slug, ordinal)
    data = history.replay(room, played)
    context = {
        "room": room,
        "played": played,
        "data": data,
        "script": static(played.game.replay_script) if played.game.replay_script else "",
        # The game's stylesheet and browser words, for the replay to look and read as it.
        "stylesheet": static(played.game.stylesheet),
        "catalogue": reverse("javascript-catalog-game", args=[played.game.name]),
        "summary": played.game.history_summary(played.game.load(played.record.state)),
    }
    return render(request, "rooms/replay.html", context)


@require_GET
def export(request: HttpRequest, slug: str, ordinal: int) -> HttpResponse:
    """A finished game as JSON (docs/protocol.md, "Game records")."""
    room, played = _finished(slug, ordinal)
    data = history.export(room, played)
    if data["deal"] is None:
        raise Http404("this game was played before games were kept")
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    # Saved as a file: a phone opens an inline JSON as a page and keeps nothing (issue 29).
    # The slug is ASCII letters, digits and hyphens, so the name needs no quoting.
    response["Content-Disposition"] = f'attachment; filename="{room.slug}-{ordinal}.json"'
    return response


@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    if not is_valid_slug(slug):
        raise Http404("no such room")
    uid = request.session.get("uid") or _first_uid(request)
    if not Room.objects.filter(slug=slug).exists() and not (
        limits.hit("rooms_per_ip", request.META.get("REMOTE_ADDR")) and limits.hit("rooms_per_session", uid)
    ):
        return too_many(request, _("Too many new rooms from here: join an existing room or wait a while."))
    try:
        services.room_join(
            slug=slug,
            uid=uid,
            name=request.POST.get("name", ""),
            game=request.POST.get("game"),
            seat=request.POST.get("seat", ""),
            language=get_language() or "en",
        )
    except RoomError as error:
        message = render_message(error.message, error.params, get_language() or "en")
        return _room_page(request, slug, error=message, status=400)
    request.session["uid"] = uid
    request.session["name"] = services.clean_name(request.POST.get("name", ""))
    return redirect("room", slug=slug)


def _first_uid(request: HttpRequest) -> str:
    """A browser's identity on its first join, the same for every request it sends at once.

    Before a join the browser has no session, but it has the CSRF cookie the room page
    set (a join is refused without it): the identity derives from it, so the same form
    sent several times at once makes one player, not several.
    """
    secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if not secret:
        return services.new_uid()
    digest = hmac.new(settings.SECRET_KEY.encode(), b"first-join:" + secret.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()).decode()[:32]


def too_many(request: HttpRequest, message: str) -> HttpResponse:
    """A limit was reached (rooms.limits): say so, and when to come back."""
    response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = "60"
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", {"message": _("There is no room with that name.")}, status=404)
