"""``LruCache``: a bounded, thread-safe mapping that forgets the least recently used entry.

Every per-process cache in ruleweave (prompt parts per custom prompt, nested
instruction lookups per directory, the session pool) is one of these, so
memory stays bounded however many sessions, prompts or invented paths an
agent throws at a long-running process.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """At most ``maxsize`` entries; reading or writing an entry makes it the most recent.

    Args:
        maxsize: The bound (at least 1).
    """

    def __init__(self, maxsize: int) -> None:
        self.maxsize = max(1, maxsize)
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return iter(list(self._data))

    def get(self, key: K) -> V | None:
        """The value under ``key`` (now the most recent), or ``None``.

        Lock-free: each ``OrderedDict`` call is atomic under the GIL, and a key
        evicted between the two calls only loses its move to the end.
        """
        data = self._data
        value = data.get(key)
        if value is not None:
            try:  # not contextlib.suppress: this runs several times per tool call
                data.move_to_end(key)
            except KeyError:
                return value  # evicted meanwhile: only the move is lost
        return value

    def last_cached(self, keys: Sequence[K], default: V) -> tuple[int, V]:
        """Where building along ``keys`` can resume: how many keys lead up to the last one that
        is cached, and its value (``(0, default)`` when none is).

        The nested lookups build a directory's entry on its parent's: a first touch of a new
        directory reads that one directory, not the whole chain again.
        """
        for known in range(len(keys), 0, -1):
            value = self.get(keys[known - 1])
            if value is not None:
                return known, value
        return 0, default

    def setdefault(self, key: K, value: V) -> V:
        """The value under ``key`` if present, else ``value`` stored; the least recent may go."""
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
                return found
            self._data[key] = value
            if len(self._data) > self.maxsize:
                self._data.popitem(last=False)
            return value

    def pop(self, key: K) -> V | None:
        """Remove and return the value under ``key`` (``None`` when absent)."""
        with self._lock:
            return self._data.pop(key, None)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._data.clear()
