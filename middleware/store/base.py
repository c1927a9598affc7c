"""The ``SessionStore`` protocol: where per-session state lives.

A store is a seam like an HTTP transport: sessions only ``claim`` keys
(atomically: exactly one caller wins, even across threads, tasks or
processes), ``release`` them to re-arm notices, and ``get``/``put`` small
string values (TTSR repeat counters, the current turn). Sync and async
twins have the same names, the async ones prefixed with ``a``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable


@runtime_checkable
class SessionStore(Protocol):
    """Per-session state shared by every call of a session."""

    def claim(self, session_id: str, key: str) -> bool:
        """Mark ``key`` as taken for the session; True only for the first caller."""
        ...

    async def aclaim(self, session_id: str, key: str) -> bool:
        """Async twin of ``claim``."""
        ...

    def release(self, session_id: str, prefix: str = "") -> None:
        """Forget every claimed key of the session that starts with ``prefix``."""
        ...

    async def arelease(self, session_id: str, prefix: str = "") -> None:
        """Async twin of ``release``."""
        ...

    def get(self, session_id: str, key: str) -> str | None:
        """The value stored under ``key``, or ``None``."""
        ...

    async def aget(self, session_id: str, key: str) -> str | None:
        """Async twin of ``get``."""
        ...

    def put(self, session_id: str, key: str, value: str) -> None:
        """Store ``value`` under ``key``."""
        ...

    async def aput(self, session_id: str, key: str, value: str) -> None:
        """Async twin of ``put``."""
        ...

    def close(self) -> None:
        """Release resources."""
        ...

    async def aclose(self) -> None:
        """Async twin of ``close``."""
        ...
