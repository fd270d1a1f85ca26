from typing import Any


class RoomError(Exception):
    """A request that cannot be granted: answered to its sender only, nothing changes.

    ``code`` is stable (clients and translations key on it); ``message`` is for people.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params
