"""Log lines carry time, level and logger; LOG_FORMAT=json gives one object per line."""

from __future__ import annotations

import io
import json
import logging
import re

from config.logs import JsonFormatter, TextFormatter, logging_config


def _emit(formatter: logging.Formatter, *, boom: bool = False) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    log = logging.getLogger("rooms.test-logs")
    log.addHandler(handler)
    log.propagate = False
    try:
        if boom:
            try:
                raise ValueError("the clock fell over")
            except ValueError:
                log.exception("pass failed in room %s", "friday")
        else:
            log.warning("room %s: ünïcode «kept»", "friday")
    finally:
        log.removeHandler(handler)
        log.propagate = True
    return stream.getvalue()


def test_text_lines_have_time_level_and_logger() -> None:
    line = _emit(TextFormatter())
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARNING rooms\.test-logs: room friday", line)


def test_json_lines_parse_with_every_field() -> None:
    record = json.loads(_emit(JsonFormatter()))
    assert record["level"] == "WARNING" and record["logger"] == "rooms.test-logs"
    assert record["message"] == "room friday: ünïcode «kept»"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", record["time"])
    assert "exception" not in record


def test_json_lines_carry_the_traceback_on_one_line() -> None:
    text = _emit(JsonFormatter(), boom=True)
    assert text.count("\n") == 1  # one line per record, whatever the traceback
    record = json.loads(text)
    assert record["level"] == "ERROR" and "ValueError: the clock fell over" in record["exception"]


def test_the_setting_picks_the_formatter() -> None:
    assert logging_config("json", "INFO")["formatters"]["site"]["()"] is JsonFormatter
    assert logging_config("text", "INFO")["formatters"]["site"]["()"] is TextFormatter
    assert logging_config("json", "INFO")["root"]["level"] == "INFO"
