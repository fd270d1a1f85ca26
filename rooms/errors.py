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
