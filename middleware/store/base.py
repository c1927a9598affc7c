"""The ``SessionStore`` protocol: where per-session state lives.

A store is a seam like an HTTP transport. Everything a session needs to
continue in another process lives behind it:

* **claims** — keys taken at most once (``inject:…`` notices, ``ttsr:once:…``
  streamed rules, a user turn already steered). ``claim`` and
  ``claim_many`` are atomic: exactly one caller wins a key, across threads,
  tasks, processes or machines;
* **the notice ledger** — ``claim_many(..., call_id=…, records=…)`` also
  records, for each key this caller won, a string under the tool call's id,
  in the same atomic step. ``ledger`` reads those records back and
  ``forget_calls`` releases exactly the keys those calls hold. A ledger
  entry exists only while its key is claimed: ``release`` drops the entries
  of the keys it releases;
* **values** — small strings (``get``/``put``) and atomic counters
  (``incr``): the TTSR turn, repeat state, retry attempts, the serialised
  steering decision;
* **the delivery queue** — pieces of context a hook answer could not fit,
  in order (``enqueue``, at the back or the front; ``take_queue`` takes them
  all at once, so two callers never both get an item);
* **the delivery record** — what went out, waited or was cut, one entry per
  piece and action (``record``, ``deliveries``), the newest
  ``ruleweave._kernel.delivery.RECORD_LIMIT`` per session. Items and entries
  are opaque strings to a store (their format: ``ruleweave._kernel.delivery``).

``forget`` drops everything of one session. Keys are opaque strings (they
may hold ``:``, ``/``, ``#`` and any Unicode); session ids likewise. Sync
and async twins share names, the async ones prefixed with ``a``. A store
that cannot reach its backend raises ``StoreError`` (foreign errors are
translated at the seam); the session turns that into a ``store_error``
event and carries on (fail-open).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

LedgerEntries = dict[str, list[tuple[str, str]]]
"""Per tool call id, the ``(key, record)`` pairs it holds, in claim order."""


@runtime_checkable
class SessionStore(Protocol):
    """Per-session state shared by every call of a session."""

    def claim(self, session_id: str, key: str) -> bool:
        """Mark ``key`` as taken for the session; True only for the first caller."""
        ...

    async def aclaim(self, session_id: str, key: str) -> bool:
        """Async twin of ``claim``."""
        ...

    def claim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Claim several keys in one atomic step (one round trip for a remote store).

        Args:
            session_id: The session.
            keys: The keys, in order (a key repeated is won at most once).
            call_id: When given, the ledger records ``records[i]`` under this id for
                every ``keys[i]`` this caller won.
            records: One string per key (empty: record ``''``).

        Returns:
            Whether this caller won each key, in order.
        """
        ...

    async def aclaim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Async twin of ``claim_many``."""
        ...

    def release(self, session_id: str, prefix: str = "") -> None:
        """Forget every claimed key of the session that starts with ``prefix`` (and its ledger entry)."""
        ...

    async def arelease(self, session_id: str, prefix: str = "") -> None:
        """Async twin of ``release``."""
        ...

    def ledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """The ``(key, record)`` pairs each of ``call_ids`` holds (calls holding none are left out)."""
        ...

    async def aledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``ledger``."""
        ...

    def forget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Release exactly the keys ``call_ids`` hold and drop their entries; returns what was dropped."""
        ...

    async def aforget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``forget_calls``."""
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

    def incr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Add ``amount`` to the integer value under ``key`` (missing: 0) atomically; the new value."""
        ...

    async def aincr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Async twin of ``incr``."""
        ...

    def enqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Add ``items`` to the session's delivery queue, in order: at its back, or before its first item."""
        ...

    async def aenqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Async twin of ``enqueue``."""
        ...

    def take_queue(self, session_id: str) -> list[str]:
        """Remove and return every item of the session's queue, first first, in one atomic step."""
        ...

    async def atake_queue(self, session_id: str) -> list[str]:
        """Async twin of ``take_queue``."""
        ...

    def record(self, session_id: str, entries: Sequence[str]) -> None:
        """Append ``entries`` to the session's delivery record (its oldest dropped past the limit)."""
        ...

    async def arecord(self, session_id: str, entries: Sequence[str]) -> None:
        """Async twin of ``record``."""
        ...

    def deliveries(self, session_id: str) -> list[str]:
        """The session's delivery record, oldest first."""
        ...

    async def adeliveries(self, session_id: str) -> list[str]:
        """Async twin of ``deliveries``."""
        ...

    def forget(self, session_id: str) -> None:
        """Drop everything the store holds for the session."""
        ...

    async def aforget(self, session_id: str) -> None:
        """Async twin of ``forget``."""
        ...

    def close(self) -> None:
        """Release resources."""
        ...

    async def aclose(self) -> None:
        """Async twin of ``close``."""
        ...
