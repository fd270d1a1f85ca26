from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any


class RoomError(Exception):
    """A request that cannot be granted: answered to its sender only, nothing changes.

    ``code`` is stable (clients key on it); ``message`` is for people: usually a lazy
    translation whose ``%(name)s`` placeholders are filled from ``params`` in the
    language of the connection that receives it.
    """

    def __init__(self, code: str, message: Any, **params: Any) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.params = params


@contextmanager
def engine_errors(rule_error: type[Exception], messages: Mapping[str, Any]) -> Iterator[None]:
    """A game engine's refusals as room errors, in words the players' language will carry.

    Every engine raises one ``RuleError`` with a stable ``code``, an English ``message``
    and ``params``; ``messages`` are the game's translated texts by code.
    """
    try:
        yield
    except rule_error as error:
        code, message = getattr(error, "code", "bad_action"), getattr(error, "message", str(error))
        raise RoomError(code, messages.get(code, message), **getattr(error, "params", {})) from None


class RoomBusy(Exception):
    """The room's row is locked by another transaction: the clock, which locks rooms with
    ``SKIP LOCKED``, moves on to the next and comes back on its next pass."""
