"""The delivery queue and record of ``SQLiteStore``: its ``queue`` and ``deliveries`` tables.

A mixin over the store's own connection and transactions (``_read``,
``_write``); the statements are ``ruleweave._kernel.sqlite``'s, which the
Claude Code hook's warm path runs too (it checks the queue and writes the
record of the notices it answers with, on its own connection).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from ruleweave._kernel.sqlite import append_entries, push_queue, queued, read_entries, take_queue

if TYPE_CHECKING:
    import sqlite3

T = TypeVar("T")


class SQLiteDelivery:
    """``enqueue``, ``take_queue``, ``record``, ``deliveries`` and their async twins, for ``SQLiteStore``."""

    if TYPE_CHECKING:

        def _write(self, action: str, session_id: str, body: Callable[[sqlite3.Connection], T]) -> T: ...

        def _read(
            self, action: str, session_id: str, body: Callable[[sqlite3.Connection], T], empty: T
        ) -> T: ...

    def enqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Add ``items`` at the back of the session's queue, or before its first item, in order.

        Raises:
            StoreError: The database cannot be written.
        """
        if items:
            self._write("queue pieces", session_id, lambda conn: push_queue(conn, session_id, items, front))

    async def aenqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Async twin of ``enqueue``."""
        await _in_thread(lambda: self.enqueue(session_id, items, front=front))

    def take_queue(self, session_id: str) -> list[str]:
        """Remove and return every item of the session's queue, first first, in one transaction.

        Raises:
            StoreError: The database cannot be read or written.
        """
        # Most sessions have nothing waiting: a read answers them without the write lock.
        if not self._read("read the queue", session_id, lambda conn: queued(conn, session_id), False):
            return []
        return self._write("take the queue", session_id, lambda conn: take_queue(conn, session_id))

    async def atake_queue(self, session_id: str) -> list[str]:
        """Async twin of ``take_queue``."""
        return await _in_thread(lambda: self.take_queue(session_id))

    def record(self, session_id: str, entries: Sequence[str]) -> None:
        """Append ``entries`` to the session's delivery record, keeping its newest ``RECORD_LIMIT``.

        Raises:
            StoreError: The database cannot be written.
        """
        if entries:
            self._write(
                "record deliveries", session_id, lambda conn: append_entries(conn, session_id, entries)
            )

    async def arecord(self, session_id: str, entries: Sequence[str]) -> None:
        """Async twin of ``record``."""
        await _in_thread(lambda: self.record(session_id, entries))

    def deliveries(self, session_id: str) -> list[str]:
        """The session's delivery record, oldest first.

        Raises:
            StoreError: The database cannot be read.
        """
        empty: list[str] = []
        return self._read("read deliveries", session_id, lambda conn: read_entries(conn, session_id), empty)

    async def adeliveries(self, session_id: str) -> list[str]:
        """Async twin of ``deliveries``."""
        return await _in_thread(lambda: self.deliveries(session_id))


async def _in_thread(fn: Callable[[], T]) -> T:
    """``asyncio.to_thread``, imported on first await (a hook process that never awaits skips asyncio)."""
    import asyncio

    return await asyncio.to_thread(fn)
