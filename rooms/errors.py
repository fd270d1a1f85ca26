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


class RoomBusy(Exception):
    """The room's row is locked by another transaction: the clock, which locks rooms with
    ``SKIP LOCKED``, moves on to the next and comes back on its next pass."""
