"""A socket frame, checked before anything acts on it: size, JSON, depth, an action name,
and text the game can keep (no controls, no lone surrogates)."""

from __future__ import annotations

import json
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


def _size(text: str) -> int:
    """The frame's length in bytes as it came (lone surrogates counted, not refused here)."""
    return len(text.encode("utf-8", "surrogatepass"))


def parse_frame(text: str | None, data: bytes | None) -> dict[str, Any]:
    """Turn a frame into an action dict, or raise RoomError saying what is wrong with it."""
    if data is not None and text is None:
        raise RoomError("bad_frame", _("Binary frames are not accepted; send JSON text."))
    if not text:
        raise RoomError("bad_frame", _("Empty message."))
    if _size(text) > MAX_FRAME_BYTES:
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
    """A dropped message's ``ref``, so its sender knows which one was dropped.

    A frame over the limit is never read, so a ``too_large`` answer names no ``ref``. The
    limit is counted in bytes, as ``parse_frame`` counts it: by characters, a frame of
    16 Ki multi-byte characters that ``parse_frame`` refused would be read here.
    """
    if not text or len(text) > MAX_FRAME_BYTES or _size(text) > MAX_FRAME_BYTES:
        return None
    try:
        ref = json.loads(text).get("ref")
    except (ValueError, AttributeError, RecursionError):
        return None
    return ref if isinstance(ref, str | int) else None


# The latest time a JavaScript Date can hold (8.64e15 ms, in the year 275760): every
# clock a client may read fits, and every number up to it is exact as a float, so the
# age below is plain arithmetic (a 400-digit integer would overflow a float).
MAX_AT_MS = 8_640_000_000_000_000
# ``too_late`` says how old a move was; past an hour the figure tells a person nothing
# more, and an ``at`` of 0 would otherwise say some 1.7 billion seconds.
MAX_AGE_SHOWN = 3600
_ABSENT = object()


def take_at(message: dict[str, Any]) -> None:
    """Remove ``at`` from ``message``, refusing the message when ``at`` is not a time or is
    too old (``at``: the tap's time in milliseconds since the Unix epoch, by the server's
    clock as the page reads it).

    A phone whose network dropped without a reset keeps its socket; what it sent meanwhile
    waits in a buffer and would land when the network comes back, a minute later on a
    board that has moved on. ``ping`` and ``sync`` are answered whatever their ``at``
    (even a malformed one): they change nothing, and a refused ping would look like a dead
    connection. Only an absent ``at`` goes unchecked; ``null`` is a malformed one. An
    ``at`` ahead of the server's clock (a client clock running fast) is a fresh move.
    """
    at = message.pop("at", _ABSENT)
    if at is _ABSENT or message["action"] in ("ping", "sync"):
        return
    # Compared, never converted: NaN and infinities fail the range, huge integers too.
    if isinstance(at, bool) or not isinstance(at, int | float) or not 0 <= at <= MAX_AT_MS:
        raise RoomError("bad_message", _("'at' is the time of the move in milliseconds."))
    age = time.time() - at / 1000
    limit = float(settings.MOVE_MAX_AGE_SECONDS)
    if age > limit:
        raise RoomError(
            "too_late",
            _("That move was sent %(seconds)s s ago, while the connection was down: nothing was changed."),
            seconds=min(int(age), MAX_AGE_SHOWN),
            limit=int(limit),
        )
