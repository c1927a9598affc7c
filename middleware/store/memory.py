"""``MemoryStore``: in-process session state, bounded in sessions, idle time and ledger calls per session."""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence

from ruleweave._kernel.delivery import RECORD_LIMIT
from ruleweave.errors import ConfigError
from ruleweave.store.base import LedgerEntries

DEFAULT_MAX_SESSIONS = 10_000
"""Sessions a ``MemoryStore`` keeps; past this the least recently used one is dropped."""

DEFAULT_IDLE_TTL = 24 * 3600.0
"""Seconds a ``MemoryStore`` session may go unused before it is dropped."""

DEFAULT_MAX_CALLS = 1_024
"""Tool calls per session whose ledger records a ``MemoryStore`` keeps (the newest); an older call's
notices stay claimed, so they are never repeated, but ``forget_calls`` can no longer re-arm them."""


class _Session:
    """One session's state (a plain class: a hook process must not import ``dataclasses``)."""

    __slots__ = ("calls", "claimed", "queue", "record", "used", "values")

    def __init__(self, used: float) -> None:
        self.used = used
        self.claimed: dict[str, tuple[str, str] | None] = {}  # key -> (call, record)
        self.calls: dict[str, list[str]] = {}  # call id -> keys, in claim order
        self.values: dict[str, str] = {}
        self.queue: deque[str] = deque()
        self.record: deque[str] = deque(maxlen=RECORD_LIMIT)


class MemoryStore:
    """A ``SessionStore`` in a dict guarded by a lock; safe across threads and tasks.

    It is bounded: at most ``max_sessions`` sessions (least recently used
    dropped first) and none idle for more than ``idle_ttl`` seconds (dropped
    lazily, on the next call that touches the store). A dropped session
    starts afresh: its notices can be injected again. Within a session, the
    claimed keys are bounded by the rule set (one per notice source, plus one
    per user turn) and the ledger keeps the records of the newest
    ``max_calls`` tool calls: an older call's notices stay claimed (never
    repeated) without their record, the bulk of a call's bytes.

    Args:
        max_sessions: Sessions kept at once (default 10,000).
        idle_ttl: Seconds a session may go unused (default one day).
        max_calls: Tool calls per session whose ledger records are kept (default 1,024).
        clock: Monotonic time source (tests pass a fake one).

    Raises:
        ConfigError: A bound is not positive.
    """

    def __init__(
        self,
        *,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        idle_ttl: float = DEFAULT_IDLE_TTL,
        max_calls: int = DEFAULT_MAX_CALLS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_sessions < 1 or idle_ttl <= 0 or max_calls < 1:
            raise ConfigError("MemoryStore needs max_sessions >= 1, idle_ttl > 0 and max_calls >= 1.")
        self.max_sessions = max_sessions
        self.max_calls = max_calls
        self.idle_ttl = idle_ttl
        self._clock = clock
        self._lock = _thread.allocate_lock()
        self._sessions: OrderedDict[str, _Session] = OrderedDict()

    def __len__(self) -> int:
        """Sessions held now (expired ones included until the next purge)."""
        return len(self._sessions)

    def _session(self, session_id: str) -> _Session:
        """The session's state, made if missing; purges idle and surplus sessions (lock held)."""
        now = self._clock()
        sessions = self._sessions
        while sessions:
            oldest_id, oldest = next(iter(sessions.items()))
            if now - oldest.used <= self.idle_ttl:
                break
            del sessions[oldest_id]
        state = sessions.get(session_id)
        if state is None:
            state = sessions[session_id] = _Session(now)
            while len(sessions) > self.max_sessions:
                sessions.popitem(last=False)
        else:
            state.used = now
            sessions.move_to_end(session_id)
        return state

    # -- claims and the ledger -----------------------------------------------

    def claim(self, session_id: str, key: str) -> bool:
        """Mark ``key`` taken; True only for the first caller."""
        return self.claim_many(session_id, (key,))[0]

    async def aclaim(self, session_id: str, key: str) -> bool:
        """Async twin of ``claim`` (no I/O: never yields, so it is atomic too)."""
        return self.claim(session_id, key)

    def claim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Claim ``keys`` at once; the ledger records ``records[i]`` under ``call_id`` for each win."""
        won: list[bool] = []
        with self._lock:
            state = self._session(session_id)
            for i, key in enumerate(keys):
                if key in state.claimed:
                    won.append(False)
                    continue
                won.append(True)
                if call_id is None:
                    state.claimed[key] = None
                else:
                    state.claimed[key] = (call_id, records[i] if i < len(records) else "")
                    held = state.calls.get(call_id)
                    if held is None:
                        held = state.calls[call_id] = []
                        if len(state.calls) > self.max_calls:
                            self._drop_oldest_call(state)
                    held.append(key)
        return won

    @staticmethod
    def _drop_oldest_call(state: _Session) -> None:
        """Forget the oldest call's records; its keys stay claimed, so its notices never come again."""
        oldest = next(iter(state.calls))
        for key in state.calls.pop(oldest):
            state.claimed[key] = None

    async def aclaim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Async twin of ``claim_many``."""
        return self.claim_many(session_id, keys, call_id=call_id, records=records)

    def release(self, session_id: str, prefix: str = "") -> None:
        """Forget claimed keys starting with ``prefix``, and their ledger entries."""
        with self._lock:
            state = self._session(session_id)
            for key in [k for k in state.claimed if k.startswith(prefix)]:
                self._unclaim(state, key)

    async def arelease(self, session_id: str, prefix: str = "") -> None:
        """Async twin of ``release``."""
        self.release(session_id, prefix)

    @staticmethod
    def _unclaim(state: _Session, key: str) -> None:
        held = state.claimed.pop(key, None)
        if held is None:
            return
        keys = state.calls.get(held[0])
        if keys is not None:
            keys.remove(key)
            if not keys:
                del state.calls[held[0]]

    def _entries(self, state: _Session, call_ids: Sequence[str]) -> LedgerEntries:
        out: LedgerEntries = {}
        for call_id in dict.fromkeys(call_ids):
            keys = state.calls.get(call_id)
            if keys:
                out[call_id] = [(key, held[1]) for key in keys if (held := state.claimed[key])]
        return out

    def ledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """The ``(key, record)`` pairs each call holds."""
        with self._lock:
            return self._entries(self._session(session_id), call_ids)

    async def aledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``ledger``."""
        return self.ledger(session_id, call_ids)

    def forget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Release exactly the keys ``call_ids`` hold; returns the dropped entries."""
        with self._lock:
            state = self._session(session_id)
            dropped = self._entries(state, call_ids)
            for pairs in dropped.values():
                for key, _ in pairs:
                    self._unclaim(state, key)
            return dropped

    async def aforget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``forget_calls``."""
        return self.forget_calls(session_id, call_ids)

    # -- values ---------------------------------------------------------------

    def get(self, session_id: str, key: str) -> str | None:
        """The stored value or ``None``."""
        with self._lock:
            return self._session(session_id).values.get(key)

    async def aget(self, session_id: str, key: str) -> str | None:
        """Async twin of ``get``."""
        return self.get(session_id, key)

    def put(self, session_id: str, key: str, value: str) -> None:
        """Store a value."""
        with self._lock:
            self._session(session_id).values[key] = value

    async def aput(self, session_id: str, key: str, value: str) -> None:
        """Async twin of ``put``."""
        self.put(session_id, key, value)

    def incr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Add ``amount`` to the counter under ``key``; the new value (a non-integer counts as 0)."""
        with self._lock:
            values = self._session(session_id).values
            try:
                current = int(values.get(key) or 0)
            except ValueError:
                current = 0
            values[key] = str(current + amount)
            return current + amount

    async def aincr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Async twin of ``incr``."""
        return self.incr(session_id, key, amount)

    # -- the delivery queue and record ----------------------------------------

    def enqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Add ``items`` at the back of the queue, or before its first item, in order."""
        with self._lock:
            queue = self._session(session_id).queue
            if front:
                queue.extendleft(reversed(items))
            else:
                queue.extend(items)

    async def aenqueue(self, session_id: str, items: Sequence[str], *, front: bool = False) -> None:
        """Async twin of ``enqueue``."""
        self.enqueue(session_id, items, front=front)

    def take_queue(self, session_id: str) -> list[str]:
        """Remove and return every queued item, first first."""
        with self._lock:
            queue = self._session(session_id).queue
            taken = list(queue)
            queue.clear()
            return taken

    async def atake_queue(self, session_id: str) -> list[str]:
        """Async twin of ``take_queue``."""
        return self.take_queue(session_id)

    def record(self, session_id: str, entries: Sequence[str]) -> None:
        """Append to the delivery record (the oldest dropped past ``RECORD_LIMIT``)."""
        with self._lock:
            self._session(session_id).record.extend(entries)

    async def arecord(self, session_id: str, entries: Sequence[str]) -> None:
        """Async twin of ``record``."""
        self.record(session_id, entries)

    def deliveries(self, session_id: str) -> list[str]:
        """The delivery record, oldest first."""
        with self._lock:
            return list(self._session(session_id).record)

    async def adeliveries(self, session_id: str) -> list[str]:
        """Async twin of ``deliveries``."""
        return self.deliveries(session_id)

    # -- lifetime -------------------------------------------------------------

    def forget(self, session_id: str) -> None:
        """Drop everything of the session."""
        with self._lock:
            self._sessions.pop(session_id, None)

    async def aforget(self, session_id: str) -> None:
        """Async twin of ``forget``."""
        self.forget(session_id)

    def close(self) -> None:
        """Nothing to release."""

    async def aclose(self) -> None:
        """Nothing to release."""
