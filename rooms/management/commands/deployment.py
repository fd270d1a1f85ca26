"""``manage.py deployment``: which database this deployment's Redis prefix belongs to.

``--claim`` gives the prefix to this database (after moving it to another server or a new
PostgreSQL cluster: rooms/deployment.py). Exit status 1 when another database holds it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rooms import deployment


class Command(BaseCommand):
    help = "Show or claim this deployment's Redis prefix (REDIS_PREFIX) for its database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--claim", action="store_true", help="take the prefix over for this database")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.REDIS_URL:
            raise CommandError("REDIS_URL is not set: there is no prefix to claim.")
        try:
            mine = deployment.claim(force=options["claim"])
        except deployment.Conflict as conflict:
            raise CommandError(str(conflict)) from None
        verb = "claimed for" if options["claim"] else "belongs to"
        self.stdout.write(
            f"REDIS_PREFIX {settings.REDIS_PREFIX!r} {verb} database {mine.partition(' ')[2]!r}"
        )
