"""The operators' view: rooms, players and games, with closing a room or removing a player
live (their sockets are told and closed) — never by deleting rows behind the app's back."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.text import smart_split, unescape_string_literal
from django.utils.translation import gettext as _

from rooms import limits, operators
from rooms.games import game_names, get_game
from rooms.models import ChatMessage, GameMove, Player, Room


class ListedLookupsOnly(admin.ModelAdmin):
    """Filters only through the changelist's own filters.

    Django lets a changelist's URL filter on ANY local field with any lookup
    (``?device_token__regex=^[A-Z]``, ``?state__key__0=assassin``): an operator's
    browser, or a script with a stolen session, could read a secret one yes/no at a
    time. Here only the fields of ``list_filter`` may be filtered, by value or emptiness
    (what those filters send); anything else is refused (400).
    """

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        listed = {item if isinstance(item, str) else item[0] for item in self.list_filter}
        field, _sep, rest = lookup.partition("__")
        return field in listed and rest in {"", "exact", "isnull"}


def _throttled_login(login: Any) -> Any:
    """The admin's sign-in, limited per address (``admin_logins_per_ip``): each wrong
    password costs the server a third of a second of CPU, so a loop of guesses would
    slow every game on it."""

    def view(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if request.method == "POST" and not limits.hit(
            "admin_logins_per_ip", request.META.get("REMOTE_ADDR")
        ):
            from rooms.views import too_many

            return too_many(request, _("Too many sign-in attempts from your network: wait a minute."))
        response: HttpResponse = login(request, extra_context)
        return response

    return view


admin.site.login = _throttled_login(admin.site.login)  # type: ignore[method-assign]


class PlayerInline(admin.TabularInline):
    model = Player
    fields = ("name", "team", "role", "connections", "last_seen", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Room)
class RoomAdmin(ListedLookupsOnly):
    list_display = ("slug", "game", "language", "people", "version", "updated_at", "created_at")
    list_filter = ("game", "language")
    search_fields = ("slug", "players__name")
    readonly_fields = (
        "slug",
        "game",
        "version",
        "language",
        "settings",
        "scoreboard",
        "created_at",
        "updated_at",
    )
    inlines = [PlayerInline]
    actions = ["close_rooms"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Room]:
        return super().get_queryset(request).annotate(people=Count("players"))

    @admin.display(ordering="people")
    def people(self, room: Any) -> int:
        return int(room.people)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # rooms are made by their first player

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # "close" instead: it tells the room's sockets

    @admin.action(description="Close the selected rooms (players are told; everything is deleted)")
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        # Each room closes in its own transaction, its row locked first (operators.room_close).
        closed = sum(
            operators.room_close(slug=slug) for slug in list(queryset.values_list("slug", flat=True))
        )
        self.message_user(request, f"{closed} room(s) closed.", messages.SUCCESS)


@admin.register(Player)
class PlayerAdmin(ListedLookupsOnly):
    list_display = ("name", "room", "team", "role", "connections", "last_seen", "joined_at")
    list_filter = ("role",)
    search_fields = ("name", "room__slug", "public_id")
    # The session identity and the device link are secrets: never shown, even here.
    fields = ("name", "room", "public_id", "team", "role", "connections", "last_seen", "joined_at")
    readonly_fields = fields
    actions = ["remove_players"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # "remove" instead: it tells the player's sockets and the room

    @admin.action(description="Remove the selected players from their rooms (live)")
    def remove_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        removed = sum(operators.player_remove(pk=pk) for pk in queryset.values_list("pk", flat=True))
        self.message_user(request, f"{removed} player(s) removed.", messages.SUCCESS)


HIDDEN = "(hidden until the game is over)"


def _said_during_a_running_game() -> Q:
    """A team line said while its room had a game running that is not over yet.

    Any game's record, of any registered game: a room plays one, and dealing a new game
    closes the previous one (``rooms.play``), so an unfinished game created at or before
    the line is the one the line was said during.
    """
    running = Q()
    for name in game_names():
        record = get_game(name).record
        running |= Q(
            Exists(
                record.objects.filter(
                    room_id=OuterRef("room_id"), finished=False, created_at__lte=OuterRef("created_at")
                )
            )
        )
    return Q(channel__startswith="team:") & running


@admin.register(ChatMessage)
class ChatMessageAdmin(ListedLookupsOnly):
    """Table talk, to read and delete (a deleted line is gone from every history; the
    sockets that showed it keep it until they reload).

    A team line said during a game still running is a team's secret (a Decrypto team's
    whisper): listed, but its text is neither shown nor searched until that game is over.
    """

    list_display = ("created_at", "room", "channel", "author_name", "shown_text")
    list_filter = ("channel",)
    # Searched by get_search_results below: text only where it is shown (a search on a
    # hidden text would answer yes/no about it, one guess at a time).
    search_fields = ("room__slug", "author_name", "text")
    fields = ("room", "channel", "author_name", "author_public_id", "shown_text", "created_at")
    readonly_fields = fields
    list_select_related = ("room",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatMessage]:
        return super().get_queryset(request).annotate(text_hidden=_said_during_a_running_game())

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[ChatMessage], search_term: str
    ) -> tuple[QuerySet[ChatMessage], bool]:
        # Django's own search (each word in any field), with the text matched only where shown.
        for bit in smart_split(search_term):
            if bit.startswith(('"', "'")) and bit[0] == bit[-1]:
                bit = unescape_string_literal(bit)
            queryset = queryset.filter(
                Q(room__slug__icontains=bit)
                | Q(author_name__icontains=bit)
                | (Q(text__icontains=bit) & ~_said_during_a_running_game())
            )
        return queryset, False

    @admin.display(description="text")
    def shown_text(self, line: ChatMessage) -> str:
        hidden = getattr(line, "text_hidden", None)
        if hidden is None:  # a line not read through get_queryset
            hidden = ChatMessage.objects.filter(pk=line.pk).filter(_said_during_a_running_game()).exists()
        return HIDDEN if hidden else line.text

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GameMove)
class GameMoveAdmin(ListedLookupsOnly):
    """A game's move log. While the game runs a step shows its kind, seat and action name
    only: the deal holds the key or the keywords, a move may hold a team's draft."""

    list_display = (
        "room",
        "game",
        "number",
        "step",
        "kind",
        "name",
        "team",
        "role",
        "bot",
        "action_name",
        "version",
    )
    list_filter = ("game", "kind", "bot")
    search_fields = ("room__slug", "name")
    fields = (
        "room", "game", "number", "step", "kind", "player", "name", "team", "role", "bot",
        "action_name", "shown_action", "at", "version",
    )  # fmt: skip
    readonly_fields = fields
    list_select_related = ("room",)

    @admin.display(description="action")
    def action_name(self, move: GameMove) -> str:
        if move.kind == GameMove.DEAL:
            return "(deal)"
        return str(move.action.get("action", "")) if move.kind == GameMove.MOVE else "(deadline)"

    @admin.display(description="action as sent")
    def shown_action(self, move: GameMove) -> str:
        finished = (
            get_game(move.game)
            .record.objects.filter(room_id=move.room_id, number=move.number, finished=True)
            .exists()
        )
        if not finished:
            return HIDDEN
        return json.dumps(move.action, ensure_ascii=False)[:4000]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log goes with its room (closing it, or the retention)


class GameAdmin(ListedLookupsOnly):
    """A game's records, for the game's own admin module to register
    (``admin.site.register(MyGame, GameAdmin)``): to read, never to change.

    While a game runs its state (the key, the keywords, the codes, the drafts) and its
    bot notes are hidden; once it is over they are shown, as the players' views then show
    them. The seed (it derives every secret) is never shown. Nothing here is editable:
    a record is the engine's, and a field changed behind it (``steps``, say) breaks every
    later move of its game.
    """

    list_display = ("room", "number", "finished", "deadline", "steps", "updated_at")
    list_filter = ("finished",)
    search_fields = ("room__slug",)
    fields = (
        "room", "number", "finished", "deadline", "steps", "created_at", "updated_at",
        "shown_bot_notes", "shown_state",
    )  # fmt: skip
    readonly_fields = fields

    @admin.display(description="bot notes")
    def shown_bot_notes(self, record: Any) -> str:
        if not record.finished:
            return HIDDEN
        return json.dumps(record.bot_notes, ensure_ascii=False)[:4000]

    @admin.display(description="state")
    def shown_state(self, record: Any) -> str:
        if not record.finished:
            return HIDDEN
        return json.dumps(record.state, ensure_ascii=False)[:20000]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


admin.site.site_header = "Wordrooms: operators"
