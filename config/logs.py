"""Log lines an operator can search: time, level and logger on every line.

``LOG_FORMAT=text`` (the default) writes ``2026-11-26T21:30:00.123Z WARNING rooms.bus:
message``; ``LOG_FORMAT=json`` one JSON object per line (``time``, ``level``, ``logger``,
``message`` and, with a traceback, ``exception``) for a log collector.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def _utc_iso(record: logging.LogRecord) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
        return _utc_iso(record)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _utc_iso(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """The LOGGING setting for ``LOG_FORMAT`` (an unknown one falls back to text; a
    system check says so)."""
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"site": {"()": formatter}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "site"}},
        "root": {"handlers": ["console"], "level": level},
    }
