"""What changed between two versions of one view, as a short list of operations.

A push sends each socket only the changes to the view its seat already holds, so a
proposal costs a few dozen bytes instead of the whole room. Operations
(``docs/protocol.md``, the ``patch`` message):

- ``["set", path, value]``: the value at ``path`` (its parent exists) becomes ``value``;
- ``["del", path]``: the object key at ``path`` is removed;
- ``["push", path, items]``: ``items`` are appended to the array at ``path``.

``path`` is a list of object keys and array indices from the state's root.
"""

from __future__ import annotations

import json
import time
from typing import Any

Op = list[Any]


def diff(old: Any, new: Any, path: tuple[Any, ...] = ()) -> list[Op]:
    """Operations that turn ``old`` into ``new`` (both plain JSON values)."""
    if type(old) is not type(new):
        # Strict on types: 1, 1.0 and True are equal in Python, not in the browser.
        return [["set", list(path), new]]
    if isinstance(new, dict | list) and _same(old, new):
        return []  # most of a view is unchanged: compared at C speed, not walked
    if isinstance(new, dict):
        ops: list[Op] = [["del", [*path, key]] for key in old if key not in new]
        for key, value in new.items():
            if key in old:
                ops += diff(old[key], value, (*path, key))
            else:
                ops.append(["set", [*path, key], value])
        return ops
    if isinstance(new, list):
        return _diff_list(old, new, path)
    return [] if old == new else [["set", list(path), new]]


def _diff_list(old: list[Any], new: list[Any], path: tuple[Any, ...]) -> list[Op]:
    if len(new) < len(old):
        return [["set", list(path), new]]
    ops: list[Op] = []
    for index, value in enumerate(old):
        ops += diff(value, new[index], (*path, index))
    if len(new) > len(old):
        ops.append(["push", list(path), new[len(old) :]])
    return ops


def apply(value: Any, ops: list[Op]) -> Any:
    """``value`` with ``ops`` applied (a new structure; ``value`` itself is unchanged).

    The server never needs this; tests and Python clients (bots) do.
    """
    import copy

    result = copy.deepcopy(value)
    for op in ops:
        kind, path = op[0], op[1]
        if not path:
            result = copy.deepcopy(op[2])
            continue
        parent = result
        for key in path[:-1]:
            parent = parent[key]
        if kind == "set":
            parent[path[-1]] = copy.deepcopy(op[2])
        elif kind == "del":
            del parent[path[-1]]
        elif kind == "push":
            parent[path[-1]].extend(copy.deepcopy(op[2]))
        else:
            raise ValueError(f"unknown patch operation {kind!r}")
    return result


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON (Python's own equality calls True, 1 and 1.0 equal); C-speed encoding."""
    return old == new and _encode(old) == _encode(new)


_encode = json.JSONEncoder(separators=(",", ":")).encode


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class PatchCache:
    """The encoded patch of each view from one snapshot to the next, built at most once."""

    def __init__(self, previous: dict[str, Any] | None, snapshot: dict[str, Any]) -> None:
        self.previous = previous
        self.snapshot = snapshot
        self.now = time.time()
        self._base_ops: list[Any] | None = None
        self._ops: dict[str, list[Any]] = {}
        self._text: dict[str, str] = {}

    def applies(self, version: int) -> bool:
        """True when a socket holding its view at ``version`` can take the patch."""
        return self.previous is not None and self.previous["version"] == version

    def ops(self, key: str) -> list[Any]:
        """The room part's changes (the same for every view), then the game view's."""
        assert self.previous is not None
        if self._base_ops is None:
            base = diff(self.previous["base"], self.snapshot["base"])
            # The frame's own "version" says it; the client sets it.
            self._base_ops = [op for op in base if op[1] != ["version"]]
        if key not in self._ops:
            play = diff(self.previous["views"].get(key), self.snapshot["views"].get(key), ("play",))
            self._ops[key] = self._base_ops + play
        return self._ops[key]

    def message(self, key: str, extra: list[Any] | None = None) -> str:
        """The patch frame for view ``key`` (shared by its sockets unless ``extra`` ops)."""
        if extra:
            return encode(self._frame(self.ops(key) + extra))
        if key not in self._text:
            self._text[key] = encode(self._frame(self.ops(key)))
        return self._text[key]

    def _frame(self, ops: list[Any]) -> dict[str, Any]:
        assert self.previous is not None
        return {
            "type": "patch",
            "version": self.snapshot["version"],
            "base": self.previous["version"],
            "now": self.now,
            "ops": ops,
        }
