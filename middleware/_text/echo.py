"""Bounded echoes of values nobody vetted: in error messages and in the event log.

A model's tool arguments, a rule name from a cloned repository or a line of a
replay log can be any size and any shape. What ruleweave repeats of them is
capped: ``shown`` gives at most ``MAX_SHOWN_CHARS`` characters for an error
message (control characters escaped by ``repr``), and ``loggable`` turns an
argument structure into plain JSON data within ``MAX_LOGGED_DEPTH`` levels,
``MAX_LOGGED_ITEMS`` items per container, ``MAX_LOGGED_CHARS`` characters per
string and ``MAX_LOGGED_NODES`` values in all. Every cut is marked in the data
itself with a ``[ruleweave: …]`` string, and a value that cannot be read or
serialised becomes such a marker instead of losing the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import islice
from typing import Any

MAX_SHOWN_CHARS = 200
"""Characters of a string (or bytes) an error message repeats."""

MAX_LOGGED_CHARS = 4096
"""Characters of one logged string; the rest is cut and marked."""

MAX_LOGGED_ITEMS = 256
"""Items of one logged list or keys of one mapping (the touched-path cap too)."""

MAX_LOGGED_DEPTH = 8
"""Nesting levels logged; a container deeper than this becomes a marker."""

MAX_LOGGED_NODES = 4096
"""Values logged in one structure; past this, items are cut and marked."""

_MAX_KEY_CHARS = 200


def shown(value: object, limit: int = MAX_SHOWN_CHARS) -> str:
    """``value`` for an error message: its ``repr``, at most about ``limit`` characters.

    Args:
        value: Anything a caller passed.
        limit: Characters of a string or bytes value kept.

    Returns:
        ``'abc'``, ``None``, ``42``, ``'aaa…' (1048576 characters)``, or ``a value of type Foo``.
    """
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
    if isinstance(value, str):
        return _cut(repr(value[:limit]), len(value), limit, "characters")
    if isinstance(value, (bytes, bytearray)):
        return _cut(repr(bytes(value[:limit])), len(value), limit, "bytes")
    return f"a value of type {type(value).__name__}"


def _cut(text: str, size: int, limit: int, unit: str) -> str:
    """A ``repr`` of a value's head, itself at most ``limit`` characters, with the whole size when cut."""
    if len(text) <= limit + 2 and size <= limit:
        return text
    return f"{text[:limit]}… ({size} {unit})"


def _marker(text: str) -> str:
    return f"[ruleweave: {text}]"


class _Copier:
    """One bounded copy: the node budget is shared by the whole structure."""

    def __init__(self) -> None:
        self.nodes = MAX_LOGGED_NODES

    def copy(self, value: Any, depth: int) -> Any:
        self.nodes -= 1
        if value is None or isinstance(value, (bool, float)):
            return value
        if isinstance(value, int):
            return value if value.bit_length() <= 64 else _marker(f"an integer of {value.bit_length()} bits")
        if isinstance(value, str):
            if len(value) <= MAX_LOGGED_CHARS:
                return str(value)
            return str(value[:MAX_LOGGED_CHARS]) + _marker(f"{len(value) - MAX_LOGGED_CHARS} characters cut")
        if isinstance(value, (bytes, bytearray)):
            return _marker(f"{len(value)} bytes")
        if isinstance(value, Mapping):
            if depth >= MAX_LOGGED_DEPTH:
                return _marker(f"nested deeper than {MAX_LOGGED_DEPTH} levels; cut")
            return self._mapping(value, depth)
        if isinstance(value, (list, tuple)):
            if depth >= MAX_LOGGED_DEPTH:
                return _marker(f"nested deeper than {MAX_LOGGED_DEPTH} levels; cut")
            return self._sequence(value, depth)
        return _marker(f"a value of type {type(value).__name__}")

    def _room(self) -> int:
        return max(0, min(MAX_LOGGED_ITEMS, self.nodes))

    def _mapping(self, value: Mapping[Any, Any], depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        total = len(value)
        for key, item in islice(value.items(), self._room()):
            name = key if isinstance(key, str) else shown(key)
            if len(name) > _MAX_KEY_CHARS:
                name = name[:_MAX_KEY_CHARS] + _marker("key cut")
            out[name] = self.copy(item, depth + 1)
        if total > len(out):
            out[_marker("cut")] = f"{total - len(out)} more keys"
        return out

    def _sequence(self, value: list[Any] | tuple[Any, ...], depth: int) -> list[Any]:
        kept = value[: self._room()]
        out = [self.copy(item, depth + 1) for item in kept]
        if len(value) > len(kept):
            out.append(_marker(f"{len(value) - len(kept)} more items cut"))
        return out


def loggable(value: Any) -> Any:
    """``value`` as the event log records it: plain JSON data, bounded, every cut marked.

    Never raises: a mapping whose ``items()`` raises, an object JSON cannot
    hold, or a structure too big becomes (or gains) a ``[ruleweave: …]`` marker.

    Args:
        value: Decoded tool arguments, or any other structure from outside.

    Returns:
        dicts with string keys, lists, strings, numbers, booleans and ``None``.
    """
    try:
        return _Copier().copy(value, 0)
    except Exception as exc:
        return _marker(f"could not be read ({type(exc).__name__})")
