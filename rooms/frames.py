"""A socket frame, checked before anything acts on it: size, JSON, depth, an action name,
and text the game can keep (no controls, no lone surrogates)."""

from __future__ import annotations

import json
import math
import re
import time
from typing import Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from rooms.errors import RoomError

MAX_FRAME_BYTES = 16 * 1024
MAX_DEPTH = 4


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def parse_frame(text: str | None, data: bytes | None) -> dict[str, Any]:
    """Turn a frame into an action dict, or raise RoomError saying what is wrong with it."""
    if data is not None and text is None:
        raise RoomError("bad_frame", _("Binary frames are not accepted; send JSON text."))
    if not text:
        raise RoomError("bad_frame", _("Empty message."))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise RoomError(
            "too_large", _("Messages are limited to %(limit)s KiB."), limit=MAX_FRAME_BYTES // 1024
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise RoomError("bad_json", _("That message is not valid JSON.")) from None
    if not isinstance(message, dict):
        raise RoomError("bad_message", _("A message is a JSON object with an 'action'."))
    if _depth(message) > MAX_DEPTH:
        raise RoomError("bad_message", _("That message is nested too deeply."))
    if not isinstance(message.get("action"), str):
        raise RoomError("bad_message", _("A message needs an 'action' string."))
    if not _clean_text(message):
        raise RoomError(
            "bad_text", _("That message contains characters that cannot be used (control or broken Unicode).")
        )
    return message


# Characters no text of the game may hold: C0 and C1 controls (bar tab and line breaks)
# and lone surrogates, which JSON's "\ud800" escapes can smuggle in but UTF-8 cannot
# encode: stored, such a string could never be sent to anyone again.
_BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def _clean_text(value: Any) -> bool:
    """True when every string in ``value`` (keys included) is text the game can keep."""
    if isinstance(value, str):
        return _BAD_TEXT.search(value) is None
    if isinstance(value, dict):
        return all(_clean_text(key) and _clean_text(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_clean_text(item) for item in value)
    return True


def ref_of(text: str | None) -> Any:
    """A dropped message's ``ref``, so its sender knows which one was dropped."""
    if not text or len(text) > MAX_FRAME_BYTES:
        return None
    try:
        ref = json.loads(text).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return ref if isinstance(ref, str | int) else None


def check_age(at: Any, action: str) -> None:
    """Refuse a move that arrives long after its tap (``at``: the tap's time by the server's
    clock as the page reads it, in milliseconds).

    A phone whose network dropped without a reset keeps its socket; what it sent meanwhile
    waits in a buffer and would land when the network comes back, a minute later on a
    board that has moved on. ``ping`` and ``sync`` are answered whatever their age.
    """
    if at is None or action in ("ping", "sync"):
        return
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        raise RoomError("bad_message", _("'at' is the time of the move in milliseconds."))
    age = time.time() - at / 1000
    limit = float(settings.MOVE_MAX_AGE_SECONDS)
    if age > limit:
        raise RoomError(
            "too_late",
            _("That move was sent %(seconds)s s ago, while the connection was down: nothing was changed."),
            seconds=int(age),
            limit=int(limit),
        )
