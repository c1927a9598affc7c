"""``MemoryStore``: in-process session state (the default)."""

from __future__ import annotations

import threading


class MemoryStore:
    """A ``SessionStore`` in a dict guarded by a lock; safe across threads and tasks."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._claimed: dict[str, set[str]] = {}
        self._values: dict[str, dict[str, str]] = {}

    def claim(self, session_id: str, key: str) -> bool:
        """Mark ``key`` taken; True only for the first caller."""
        with self._lock:
            keys = self._claimed.setdefault(session_id, set())
            if key in keys:
                return False
            keys.add(key)
            return True

    async def aclaim(self, session_id: str, key: str) -> bool:
        """Async twin of ``claim`` (no I/O: never yields, so it is atomic too)."""
        return self.claim(session_id, key)

    def release(self, session_id: str, prefix: str = "") -> None:
        """Forget claimed keys starting with ``prefix``."""
        with self._lock:
            keys = self._claimed.get(session_id)
            if keys:
                keys.difference_update([k for k in keys if k.startswith(prefix)])

    async def arelease(self, session_id: str, prefix: str = "") -> None:
        """Async twin of ``release``."""
        self.release(session_id, prefix)

    def get(self, session_id: str, key: str) -> str | None:
        """The stored value or ``None``."""
        with self._lock:
            return self._values.get(session_id, {}).get(key)

    async def aget(self, session_id: str, key: str) -> str | None:
        """Async twin of ``get``."""
        return self.get(session_id, key)

    def put(self, session_id: str, key: str, value: str) -> None:
        """Store a value."""
        with self._lock:
            self._values.setdefault(session_id, {})[key] = value

    async def aput(self, session_id: str, key: str, value: str) -> None:
        """Async twin of ``put``."""
        self.put(session_id, key, value)

    def close(self) -> None:
        """Nothing to release."""

    async def aclose(self) -> None:
        """Nothing to release."""
