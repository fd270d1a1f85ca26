"""This deployment's claim on its Redis prefix (issue 31).

Two deployments that share a Redis server and a ``REDIS_PREFIX`` (a staging restored from
production's backup, set up with the production environment file) hear each other's
pushes and share every limit counter. Each deployment names itself on Redis by its
database: ``<REDIS_PREFIX>:deployment`` holds the database's identity, set by the first
process to start. A process whose database is another refuses to start, and ``/readyz``
answers 503 with ``"deployment": "conflict"`` while it lasts.

The identity is the database server's own (PostgreSQL's ``system_identifier``, which no
dump carries) and the database's name; a SQLite file's real path. So a restore into the
same database keeps it, and a copy on another server or under another name differs. After
moving the database to another server (or a PostgreSQL upgrade to a new cluster), run
``manage.py deployment --claim`` once: the prefix then belongs to the new database.
"""

from __future__ import annotations

import hashlib
import logging
import os

from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)

TIMEOUT = 0.8  # seconds Redis gets to answer at start
# A claim lasts a week, renewed at each start; /readyz makes it again when it has gone. A
# deployment taken down for good frees its prefix by itself.
CLAIM_SECONDS = 7 * 24 * 3600


class Conflict(Exception):
    """The prefix is claimed by a deployment on another database."""

    def __init__(self, theirs: str) -> None:
        self.theirs = theirs
        super().__init__(message(theirs))


def key() -> str:
    return f"{settings.REDIS_PREFIX}:deployment"


def identity() -> str:
    """This process's database: a hash of what identifies it, then its name (for people)."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        from django.db import DatabaseError, transaction

        with connection.cursor() as cursor:
            try:
                with transaction.atomic():
                    cursor.execute(
                        "SELECT system_identifier::text, current_database() FROM pg_control_system()"
                    )
                    system, name = cursor.fetchone()
            except DatabaseError:  # a host that hides the control data: its address instead
                cursor.execute(
                    "SELECT concat(inet_server_addr(), ':', inet_server_port()), current_database()"
                )
                system, name = cursor.fetchone()
        raw = f"postgresql:{system}:{name}"
    elif connection.vendor == "sqlite":
        name = os.path.basename(str(db["NAME"]))
        raw = f"sqlite:{os.path.realpath(str(db['NAME']))}"
    else:
        name = str(db.get("NAME"))
        raw = f"{connection.vendor}:{db.get('HOST')}:{db.get('PORT')}:{name}"
    return f"{hashlib.sha256(raw.encode()).hexdigest()[:16]} {name}"


def message(theirs: str) -> str:
    their_name = theirs.partition(" ")[2] or "another database"
    return (
        f"REDIS_PREFIX {settings.REDIS_PREFIX!r} belongs to another deployment (database "
        f"{their_name!r}, not this one): the two would hear each other's games and share their "
        "limits. Give this deployment a REDIS_PREFIX of its own; or, if this database replaced "
        "that one (moved to another server), run `manage.py deployment --claim`."
    )


def decide(mine: str, theirs: bytes | str | None) -> None:
    """Raise ``Conflict`` when the prefix's stored identity is another database's."""
    if isinstance(theirs, bytes):
        theirs = theirs.decode(errors="replace")
    if theirs is not None and theirs.partition(" ")[0] != mine.partition(" ")[0]:
        raise Conflict(theirs)


def _client() -> object:
    import redis

    return redis.Redis.from_url(settings.REDIS_URL, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)


def claim(force: bool = False) -> str:
    """Claim the prefix for this database (``force``: take it over); its identity."""
    mine = identity()
    client = _client()
    try:
        if force:
            client.set(key(), mine, ex=CLAIM_SECONDS)  # type: ignore[attr-defined]
            return mine
        pipe = client.pipeline()  # type: ignore[attr-defined]
        pipe.set(key(), mine, nx=True, ex=CLAIM_SECONDS)
        pipe.get(key())
        _, theirs = pipe.execute()
        decide(mine, theirs)
        client.expire(key(), CLAIM_SECONDS)  # type: ignore[attr-defined]
    finally:
        client.close()  # type: ignore[attr-defined]
    return mine


def check_at_start() -> None:
    """Refuse to start (exit with the reason) on a prefix claimed by another database.
    With Redis or the database away, start anyway and say so: ``/readyz`` checks again."""
    if not settings.REDIS_URL or not getattr(settings, "DEPLOYMENT_GUARD", True):
        return
    try:
        claim()
    except Conflict as conflict:
        log.critical("%s", conflict)
        raise SystemExit(f"refusing to start: {conflict}") from None
    except Exception as error:  # Redis or the database away: not a reason to stay down
        log.warning("could not check this deployment's Redis prefix at start (%s)", type(error).__name__)
    finally:
        connection.close()
