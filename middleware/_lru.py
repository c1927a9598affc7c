"""``LruCache``: a bounded, thread-safe mapping that forgets the least recently used entry.

Every per-process cache in ruleweave (prompt parts per custom prompt, nested
instruction lookups per directory, the session pool) is one of these, so
memory stays bounded however many sessions, prompts or invented paths an
agent throws at a long-running process.
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruCache(Generic[K, V]):
    """At most ``maxsize`` entries; reading or writing an entry makes it the most recent.

    Args:
        maxsize: The bound (at least 1).
        weigh: With ``max_weight``, what an entry weighs (e.g. the items it holds).
        max_weight: A second bound: the entries' total weight (an entry heavier than it
            is not kept).
    """

    def __init__(
        self, maxsize: int, weigh: Callable[[V], int] | None = None, max_weight: int | None = None
    ) -> None:
        self.maxsize = max(1, maxsize)
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = _thread.allocate_lock()
        self._weigh = weigh if max_weight is not None else None
        self._max_weight = max_weight or 0
        self._weights: dict[K, int] = {}
        self.weight = 0
        """The entries' total weight (0 without ``weigh``)."""

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
            data = self._data
            found = data.get(key)
            if found is not None:
                data.move_to_end(key)
                return found
            if self._weigh is not None:
                weight = self._weigh(value)
                if weight > self._max_weight:
                    return value  # never kept: it alone would push out everything else
                self._weights[key] = weight
                self.weight += weight
                while self.weight > self._max_weight:
                    self._forget(data.popitem(last=False)[0])
            data[key] = value
            if len(data) > self.maxsize:
                self._forget(data.popitem(last=False)[0])
            return value

    def _forget(self, key: K) -> None:
        """Drop an entry's weight (lock held)."""
        if self._weigh is not None:
            self.weight -= self._weights.pop(key, 0)

    def pop(self, key: K) -> V | None:
        """Remove and return the value under ``key`` (``None`` when absent)."""
        with self._lock:
            self._forget(key)
            return self._data.pop(key, None)

    def clear(self) -> None:
        """Drop every entry."""
        with self._lock:
            self._data.clear()
            self._weights.clear()
            self.weight = 0
