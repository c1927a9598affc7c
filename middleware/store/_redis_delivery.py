"""The delivery queue and record of ``RedisStore``: two lists beside the session's hashes.

A mixin over the store's one-round-trip script calls (``_call``, ``_acall``);
the scripts (``ENQUEUE``, ``TAKE_QUEUE``, ``RECORD``, ``DELIVERIES``) are in
``ruleweave.store._redis_scripts``, and renew the session's TTL like every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleweave._kernel.delivery import RECORD_LIMIT
from ruleweave.store._redis_scripts import DELIVERIES, ENQUEUE, RECORD, TAKE_QUEUE, Script


class RedisDelivery:
    """``enqueue``, ``take_queue``, ``record``, ``deliveries`` and their async twins, for ``RedisStore``."""

    if TYPE_CHECKING:

        def _call(self, action: str, script: Script, session_id: str, args: Sequence[str | int]) -> Any: ...

        async def _acall(
            self, action: str, script: Script, session_id: str, args: Sequence[str | int]
        ) -> Any: ...

    def enqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Add ``items`` at the back of the session's queue, or before its first item, in one script.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        if items:
            self._call("queue pieces", ENQUEUE, session_id, ("1" if front else "0", *items))

    async def aenqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Async twin of ``enqueue``."""
        if items:
            await self._acall("queue pieces", ENQUEUE, session_id, ("1" if front else "0", *items))

    def take_queue(self, session_id: str) -> list[str]:
        """Remove and return every item of the session's queue, first first, in one script.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        return _texts(self._call("take the queue", TAKE_QUEUE, session_id, ()))

    async def atake_queue(self, session_id: str) -> list[str]:
        """Async twin of ``take_queue``."""
        return _texts(await self._acall("take the queue", TAKE_QUEUE, session_id, ()))

    def record(self, session_id: str, entries: Sequence[str]) -> None:
        """Append ``entries`` to the session's delivery record, keeping its newest ``RECORD_LIMIT``.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        if entries:
            self._call("record deliveries", RECORD, session_id, (RECORD_LIMIT, *entries))

    async def arecord(self, session_id: str, entries: Sequence[str]) -> None:
        """Async twin of ``record``."""
        if entries:
            await self._acall("record deliveries", RECORD, session_id, (RECORD_LIMIT, *entries))

    def deliveries(self, session_id: str) -> list[str]:
        """The session's delivery record, oldest first.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        return _texts(self._call("read deliveries", DELIVERIES, session_id, ()))

    async def adeliveries(self, session_id: str) -> list[str]:
        """Async twin of ``deliveries``."""
        return _texts(await self._acall("read deliveries", DELIVERIES, session_id, ()))


def _texts(values: Sequence[bytes | str]) -> list[str]:
    return [value.decode() if isinstance(value, bytes) else value for value in values]
