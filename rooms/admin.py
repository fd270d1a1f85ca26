"""The operators' view: rooms, players and games, with closing a room or removing a player
live (their sockets are told and closed) — never by deleting rows behind the app's back."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from codenames.models import CodenamesGame
from decrypto.models import DecryptoGame
from rooms import services
from rooms.models import Player, Room


class PlayerInline(admin.TabularInline):
    model = Player
    fields = ("name", "team", "role", "connections", "last_seen", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
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
        closed = sum(services.room_close(slug=slug) for slug in queryset.values_list("slug", flat=True))
        self.message_user(request, f"{closed} room(s) closed.", messages.SUCCESS)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
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
        removed = sum(services.player_remove(pk=pk) for pk in queryset.values_list("pk", flat=True))
        self.message_user(request, f"{removed} player(s) removed.", messages.SUCCESS)


class GameAdmin(admin.ModelAdmin):
    list_display = ("room", "number", "finished", "deadline", "updated_at")
    list_filter = ("finished",)
    search_fields = ("room__slug",)
    # The state holds every secret of the game; the seed derives them all.
    exclude = ("state", "seed")
    readonly_fields = ("room", "number", "finished", "deadline", "created_at", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


admin.site.register(CodenamesGame, GameAdmin)
admin.site.register(DecryptoGame, GameAdmin)
admin.site.site_header = "Word game rooms: operators"
