"""Log lines an operator can search: time, level and logger on every line.

``LOG_FORMAT=text`` (the default) writes ``2026-11-26T21:30:00.123Z WARNING rooms.bus:
message``; ``LOG_FORMAT=json`` one JSON object per line (``time``, ``level``, ``logger``,
``message`` and, with a traceback, ``exception``) for a log collector.

Every line written while a request or a socket is being served names it (``Context``):
``[r1f2e3d4c 203.0.113.9]`` in text, ``"id"`` and ``"client"`` in JSON, the id made by the
access log (config/access.py) and the address as the proxy-trust logic resolved it
(Daphne's ``--proxy-headers``). Shared work (the hub's tasks, the clock) names none.

No line carries a game's secret (``Secrets``, on the handler whatever the format or
level): a database error keeps its class and first line, never the row or values the
server quotes after it ("DETAIL: Failing row contains (…)", a key's value), SQL logged
at DEBUG keeps its duration only (its text holds the values), and a device link's
token is cut from any path.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import traceback
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


# What a database server says after its first line: the row, the values, the query.
_DETAIL = re.compile(r"^(DETAIL|HINT|CONTEXT|LINE \d+|QUERY|STATEMENT|WHERE):.*$", re.MULTILINE)
_FAILING_ROW = re.compile(r"Failing row contains.*$", re.MULTILINE)
_QUOTED = re.compile(r'"[^"\n]*"|\'[^\'\n]*\'')
_DEVICE_LINK = re.compile(r"(/device/)[A-Za-z0-9_-]+")
WITHHELD = "(withheld)"
SQL_LOGGERS = ("django.db.backends",)


@dataclass(frozen=True)
class Work:
    """A request or a socket being served: its id, its client's address, and the task
    that serves it (tasks it starts, such as the hub's shared loops, are not its work)."""

    id: str
    client: str | None
    task: object | None


current_work: ContextVar[Work | None] = ContextVar("wordrooms_work", default=None)


def work_of_this_line() -> Work | None:
    work = current_work.get()
    if work is None:
        return None
    try:
        task = asyncio.current_task()
    except RuntimeError:  # a thread running the work's synchronous part (asgiref copies the context)
        return work
    return work if task is None or task is work.task else None


class Context(logging.Filter):
    """Names the request or socket whose work wrote the line (``work_id``, ``client``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        work = work_of_this_line()
        if work is not None and not hasattr(record, "work_id"):
            record.work_id, record.client = work.id, work.client
        return True


def _is_database_error(error: BaseException) -> bool:
    module = type(error).__module__
    return module.startswith(("django.db", "psycopg", "sqlite3"))


def _safe_database_message(error: BaseException) -> str:
    """The first line of a database error, quoted values withheld (schema names kept:
    ``duplicate key value violates unique constraint "codenames_game_number"``)."""
    first = str(error).split("\n", 1)[0]
    diag = None
    for cause in (error, error.__cause__):
        diag = getattr(cause, "diag", None) if cause is not None else None
        if diag is not None:
            break
    names = {
        f'"{name}"'
        for name in (
            getattr(diag, attribute, None)
            for attribute in ("constraint_name", "table_name", "column_name", "schema_name", "datatype_name")
        )
        if name
    }
    return _QUOTED.sub(lambda quoted: quoted[0] if quoted[0] in names else WITHHELD, first)


def _chain(error: BaseException | None) -> list[BaseException]:
    """An exception and every one it was raised from or during."""
    found: list[BaseException] = []
    while error is not None and error not in found:
        found.append(error)
        error = error.__cause__ or error.__context__
    return found


def scrub(text: str, errors: list[BaseException] | None = None) -> str:
    """``text`` without what a database error quotes or a device link carries."""
    for error in errors or []:
        said = str(error)
        if said and _is_database_error(error):
            text = text.replace(said, _safe_database_message(error))
    text = _DETAIL.sub(lambda line: f"{line[1]}: {WITHHELD}", text)
    text = _FAILING_ROW.sub(f"Failing row {WITHHELD}", text)
    return _DEVICE_LINK.sub(rf"\1{WITHHELD}", text)


class Secrets(logging.Filter):
    """Rewrites each record so that no game secret reaches a log line (see the module doc)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == SQL_LOGGERS[0] or record.name.startswith(SQL_LOGGERS[0] + "."):
            duration = getattr(record, "duration", None)
            record.msg = "(%.3f) query (SQL and parameters withheld)" if duration is not None else "query"
            record.args = (duration,) if duration is not None else None
            for attribute in ("sql", "params"):
                record.__dict__.pop(attribute, None)
        errors = _chain(record.exc_info[1]) if record.exc_info else []
        for arg in record.args if isinstance(record.args, tuple) else ():
            if isinstance(arg, BaseException):
                errors += _chain(arg)
        try:
            message = record.getMessage()
        except Exception:  # a call with the wrong arguments: its arguments are not shown
            message = f"(unformattable log message) {record.msg}"
        record.msg, record.args = scrub(message, errors), None
        if record.exc_info:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
            record.exc_info = None
        if record.exc_text:
            record.exc_text = scrub(record.exc_text, errors)
        return True


def _utc_iso(record: logging.LogRecord) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return _utc_iso(record)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        work_id = getattr(record, "work_id", None)
        if work_id is None:
            return line
        head = f"{record.asctime} {record.levelname} {record.name}"
        return f"{head} [{work_id} {getattr(record, 'client', None) or '-'}]{line[len(head) :]}"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _utc_iso(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        work_id = getattr(record, "work_id", None)
        if work_id is not None:
            line["id"], line["client"] = work_id, getattr(record, "client", None)
        access = getattr(record, "access", None)
        if isinstance(access, dict):
            line.update(access)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


ACCESS_LOGGER = "wordrooms.access"


def logging_config(log_format: str, level: str, access: bool = False) -> dict[str, Any]:
    """The LOGGING setting for ``LOG_FORMAT`` (an unknown one falls back to text; a
    system check says so); ``access``: a line per request and per socket (config/access.py)
    whatever ``level``."""
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"site": {"()": formatter}},
        "filters": {"context": {"()": Context}, "secrets": {"()": Secrets}},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "site",
                "filters": ["context", "secrets"],
            }
        },
        "loggers": {
            ACCESS_LOGGER: {"level": "INFO" if access else "WARNING"},
            # Django's own handler for DEBUG (plain text, no filter) goes: its lines come
            # through this one, in this format, scrubbed.
            "django": {"handlers": [], "level": level, "propagate": True},
        },
        "root": {"handlers": ["console"], "level": level},
    }
