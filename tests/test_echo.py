"""Bounded echoes: short reprs for error messages, bounded plain JSON for the event log."""

from __future__ import annotations

import json

from ruleweave._text.echo import MAX_LOGGED_ITEMS, loggable, shown


def test_shown_is_a_short_repr_with_the_whole_size_when_cut() -> None:
    """Small values show whole; a megabyte shows its head and its size; objects show their type."""
    assert shown("abc") == "'abc'" and shown(None) == "None" and shown(42) == "42"
    long = shown("x" * 1_000_000)
    assert len(long) < 250 and long.endswith("(1000000 characters)")
    assert len(shown(b"\x00" * 1_000_000)) < 250
    assert shown(2**100) == "an integer of 101 bits" and shown([1]) == "a value of type list"


def test_loggable_is_plain_json_and_marks_every_cut() -> None:
    """Tuples become lists, odd keys and values become markers, long containers end with a marker."""
    data = loggable({"t": (1, 2), 3: {1, 2}, "n": 10**30, "items": list(range(1000))})
    assert json.loads(json.dumps(data)) == data
    assert data["t"] == [1, 2] and data["3"] == "[ruleweave: a value of type set]"
    assert data["n"] == "[ruleweave: an integer of 100 bits]"
    assert len(data["items"]) == MAX_LOGGED_ITEMS + 1
    assert data["items"][-1] == "[ruleweave: 744 more items cut]"
