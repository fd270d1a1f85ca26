"""Delete rooms idle for more than N days (the server's clock also does it, hourly)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from rooms.operators import purge_rooms


class Command(BaseCommand):
    help = "Delete rooms nobody has changed for N days and nobody is in (default ROOM_RETENTION_DAYS)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--days", type=int, default=settings.ROOM_RETENTION_DAYS)

    def handle(self, *args: Any, **options: Any) -> None:
        count = purge_rooms(days=options["days"])
        self.stdout.write(f"{count} room(s) idle for over {options['days']} days deleted")
