"""Patches: what changed between two versions of a view, exact both ways."""

from rooms.patch import apply, diff


def test_patch_round_trip_is_exact() -> None:
    old = {"a": 1, "b": [1, 2], "c": {"d": True}, "e": "x", "f": [{"g": 1}]}
    new = {"a": 1.0, "b": [1, 2, 3], "c": {}, "e": None, "f": [{"g": 2}], "h": [0]}
    ops = diff(old, new)
    assert apply(old, ops) == new
    # Types are kept strictly: 1 and 1.0 and True are different to a browser.
    assert ["set", ["a"], 1.0] in ops and ["del", ["c", "d"]] in ops and ["push", ["b"], [3]] in ops
    assert diff(new, new) == []
    assert apply(new, diff(new, old)) == old
