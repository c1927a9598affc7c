"""``SQLiteStore``: session state in one SQLite file, shared by threads and processes.

The file's schema and the statements shared with the Claude Code hook (which
claims notices in the same file without importing this package) are in
``ruleweave._kernel.sqlite``: a claim is a row inserted ``ON CONFLICT DO
NOTHING``, so exactly one inserter wins it, in every thread and process.
Sessions unused for ``ttl`` seconds are dropped: a session is checked when it
is used, and all expired ones are purged at most once a minute per store.
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

try:  # the C module: the ``sqlite3`` package also imports ``datetime`` (see ``ruleweave._kernel.sqlite``)
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter without CPython's module layout
    import sqlite3  # type: ignore[no-redef]

from ruleweave._kernel import claimed
from ruleweave._kernel.sqlite import (
    DEFAULT_BUSY_TIMEOUT,
    DEFAULT_TTL,
    SESSION_TABLES,
    claim_and_take,
    damaged,
    drop_session,
    last_used,
    move_aside,
    read_value,
    touch_session,
    transaction,
)
from ruleweave._kernel.state import STATE_FILE, state_directory
from ruleweave.errors import ConfigError, StoreError
from ruleweave.log import LibraryLogger
from ruleweave.store._sqlite_delivery import SQLiteDelivery
from ruleweave.store._sqlite_open import open_file
from ruleweave.store.base import LedgerEntries

T = TypeVar("T")

MIN_SQLITE = (3, 24, 0)  # ON CONFLICT … DO NOTHING / DO UPDATE (upsert)
PURGE_EVERY = 60.0  # seconds between sweeps for expired sessions, per store object

_log = LibraryLogger("ruleweave.store")


def default_state_path(env: Mapping[str, str], home: Path, *, platform: str = sys.platform) -> Path:
    """Where ``SQLiteStore()`` keeps its file when given no path: ``state.db`` in the state directory
    (``$RULEWEAVE_STATE_DIR``, else ``ruleweave`` in the user state dir: ``$XDG_STATE_HOME``,
    ``~/.local/state``; see ``ruleweave._kernel.state.state_directory``), as the hook finds it.

    Args:
        env: The environment to read (``os.environ`` in the one place that builds defaults).
        home: The user's home directory.
        platform: ``sys.platform`` (tests pass another).

    Returns:
        The database file's path.
    """
    return Path(state_directory(env, str(home), platform)) / STATE_FILE


class SQLiteStore(SQLiteDelivery):
    """A ``SessionStore`` in one SQLite file (WAL mode), safe across threads and processes.

    One connection per process, guarded by a lock: threads of one process take
    turns (SQLite's own locks would make them busy-wait), processes wait for
    each other up to ``busy_timeout``. The async twins run the same code in a
    worker thread, so they never block the event loop.

    A damaged file (corrupt or not a database, found on opening or in any call)
    is renamed ``<name>.damaged-<UTC time>`` with its ``-wal``/``-shm`` and a fresh
    one replaces it: past claims are lost (a notice may come once more). A file of
    another application or a newer ruleweave is never moved.

    Args:
        path: The database file (created with its directory, mode 0700, if
            missing). Default: ``default_state_path(os.environ, Path.home())``.
        ttl: Seconds a session may go unused before its state is dropped
            (default one week).
        busy_timeout: Seconds to wait for another process's write (default 5).
        clock: Wall-clock time source; the file outlives processes, so it must
            be ``time.time``-like (tests pass a fake one).

    Attributes:
        recovered: The paths this object moved damaged files to, oldest first.

    Raises:
        ConfigError: ``ttl`` or ``busy_timeout`` is not positive.
        StoreError: The directory cannot be created, or the file cannot be
            opened or is not a ruleweave state database.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        ttl: float = DEFAULT_TTL,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if ttl <= 0 or busy_timeout <= 0:
            raise ConfigError("SQLiteStore needs ttl > 0 and busy_timeout > 0.")
        if tuple(int(part) for part in sqlite3.sqlite_version.split(".")) < MIN_SQLITE:
            raise StoreError(
                f"SQLiteStore needs SQLite 3.24 or newer; this Python links SQLite {sqlite3.sqlite_version}."
            )
        # The one place the store's defaults read the environment.
        self.path = Path(path) if path is not None else default_state_path(os.environ, Path.home())
        self.ttl = float(ttl)
        self.busy_timeout = float(busy_timeout)
        self._clock = clock
        self._lock = _thread.allocate_lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._purged_at = -float("inf")
        self._purge_every = min(PURGE_EVERY, self.ttl)
        # A read refreshes last_used only when it is this stale, so reads seldom write.
        self._refresh_every = min(PURGE_EVERY, self.ttl / 10)
        self.recovered: list[str] = []
        self._opened: tuple[int, int] | None = None  # (device, inode) of the file the connection has
        try:
            with self._lock:
                self._connection()
        except (sqlite3.Error, OSError, ValueError) as exc:  # ValueError: a NUL in the path
            raise StoreError(f"Cannot open the SQLite store {self.path}: {_reason(exc)}.") from exc

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    # -- connection -------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        """This process's connection, opened on first use (and again after close or fork; lock held)."""
        if self._conn is None or self._pid != os.getpid():
            # A connection inherited through fork() must not be used (or closed) by the child.
            self._conn = self._open()
            self._pid = os.getpid()
        return self._conn

    def _open(self) -> sqlite3.Connection:
        try:
            return self._open_once()
        except sqlite3.DatabaseError as exc:
            if not damaged(exc):
                raise
            self._move_aside()
            return self._open_once()

    def _move_aside(self) -> None:
        """Move the damaged file away, so the next open starts afresh (lock held)."""
        self._close_connection()
        claimed.invalidate(str(self.path))  # its claims are gone: no memo may vouch for them
        moved = move_aside(str(self.path), self._opened)  # None: another process did already
        if moved is not None:
            self.recovered.append(moved)
            _log.warning("sqlite_store_recovered", path=str(self.path), moved_to=moved)

    def _close_connection(self) -> None:
        """Close this process's connection (lock held)."""
        conn, self._conn = self._conn, None
        if conn is not None and self._pid == os.getpid():
            with suppress(sqlite3.Error):
                conn.close()

    def _open_once(self) -> sqlite3.Connection:
        conn, self._opened = open_file(self.path, self.busy_timeout)
        return conn

    def _run(self, action: str, op: Callable[[sqlite3.Connection, float], T]) -> T:
        """Run ``op`` on the connection with the lock held, translating every failure to StoreError."""
        try:
            with self._lock:
                try:
                    return self._attempt(op)
                except sqlite3.DatabaseError as exc:
                    if not damaged(exc):
                        raise
                    self._move_aside()  # a damaged page found in use: start afresh, and run op there
                    return self._attempt(op)
        except (sqlite3.Error, OSError, UnicodeError) as exc:
            raise StoreError(f"Could not {action} in the SQLite store {self.path}: {_reason(exc)}.") from exc

    def _attempt(self, op: Callable[[sqlite3.Connection, float], T]) -> T:
        conn = self._connection()
        now = self._clock()
        if now - self._purged_at >= self._purge_every:
            self._purge(conn, now)
            self._purged_at = now
        return op(conn, now)

    def _write(self, action: str, session_id: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` in a write transaction on a live session (an expired one is wiped first)."""

        def op(conn: sqlite3.Connection, now: float) -> T:
            def write() -> T:
                touch_session(conn, session_id, now, self.ttl)
                return body(conn)

            return transaction(conn, write, write=True)

        return self._run(action, op)

    @contextmanager
    def _releasing(self) -> Iterator[None]:
        """Around an operation that releases claims: ``claimed.unclaiming`` held, so that no hook
        trusts a memo of keys claimed before (``ruleweave._kernel.claimed``)."""
        held = claimed.unclaiming(str(self.path))
        try:
            yield
        finally:
            claimed.done(held)

    def _read(self, action: str, session_id: str, body: Callable[[sqlite3.Connection], T], empty: T) -> T:
        """Run ``body`` in a read transaction; ``empty`` when the session is unknown or expired."""

        def read(conn: sqlite3.Connection, now: float) -> tuple[float, T] | None:
            used = last_used(conn, session_id)
            if used is None or used < now - self.ttl:
                return None
            return used, body(conn)

        def op(conn: sqlite3.Connection, now: float) -> T:
            found = transaction(conn, lambda: read(conn, now), write=False)
            if found is None:
                return empty
            used, result = found
            if now - used >= self._refresh_every:
                # Best effort: a read must not fail because another process holds the write lock.
                with suppress(sqlite3.OperationalError):
                    conn.execute(
                        "UPDATE sessions SET last_used = max(last_used, ?) WHERE session = ?",
                        (now, session_id),
                    )
            return result

        return self._run(action, op)

    def _purge(self, conn: sqlite3.Connection, now: float) -> None:
        """Drop every session unused for ``ttl`` seconds, with all its rows."""
        cutoff = now - self.ttl
        # Look first without the write lock: most sweeps find nothing.
        if conn.execute("SELECT 1 FROM sessions WHERE last_used < ? LIMIT 1", (cutoff,)).fetchone() is None:
            return
        expired = "SELECT session FROM sessions WHERE last_used < ?"

        def purge() -> None:
            for table in SESSION_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE session IN ({expired})", (cutoff,))
            conn.execute("DELETE FROM sessions WHERE last_used < ?", (cutoff,))

        transaction(conn, purge, write=True)
        claimed.sweep(str(self.path), cutoff)  # their memos: long untrusted (``claimed.MAX_AGE``)

    # -- claims and the ledger --------------------------------------------------

    def claim(self, session_id: str, key: str) -> bool:
        """Mark ``key`` taken for the session; True only for the first caller.

        Raises:
            StoreError: The database cannot be read or written.
        """
        return self.claim_many(session_id, (key,))[0]

    async def aclaim(self, session_id: str, key: str) -> bool:
        """Async twin of ``claim``."""
        return await _in_thread(self.claim, session_id, key)

    def claim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Claim ``keys`` in one transaction; the ledger records ``records[i]`` under ``call_id`` per win.

        Args:
            session_id: The session.
            keys: The keys, in order (a key repeated is won at most once).
            call_id: When given, record ``records[i]`` under this id for every key won.
            records: One string per key (missing: ``''``).

        Returns:
            Whether this caller won each key, in order.

        Raises:
            StoreError: The database cannot be read or written.
        """

        def op(conn: sqlite3.Connection, now: float) -> list[bool]:
            # The hook's warm path claims with this same function (on its own connection).
            return claim_and_take(conn, session_id, keys, call_id, records, ttl=self.ttl, now=now)[0]

        return self._run("claim keys", op)

    async def aclaim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Async twin of ``claim_many``."""
        return await _in_thread(
            lambda: self.claim_many(session_id, keys, call_id=call_id, records=records)
        )

    def release(self, session_id: str, prefix: str = "") -> None:
        """Forget the session's claimed keys starting with ``prefix``, and their ledger entries.

        Raises:
            StoreError: The database cannot be read or written.
        """

        def body(conn: sqlite3.Connection) -> None:
            if not prefix:
                conn.execute("DELETE FROM claims WHERE session = ?", (session_id,))
                return
            # No LIKE (its wildcards): in SQLite's binary order, as in Python's, the keys
            # starting with prefix are exactly the run that begins at prefix.
            rows = conn.execute(
                "SELECT key FROM claims WHERE session = ? AND key >= ? ORDER BY key", (session_id, prefix)
            )
            doomed = []
            for (key,) in rows:
                if not key.startswith(prefix):
                    break
                doomed.append((session_id, key))
            conn.executemany("DELETE FROM claims WHERE session = ? AND key = ?", doomed)

        with self._releasing():
            self._write("release keys", session_id, body)

    async def arelease(self, session_id: str, prefix: str = "") -> None:
        """Async twin of ``release``."""
        await _in_thread(self.release, session_id, prefix)

    @staticmethod
    def _entries(conn: sqlite3.Connection, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        out: LedgerEntries = {}
        for call_id in dict.fromkeys(call_ids):
            rows = conn.execute(
                "SELECT key, record FROM claims WHERE session = ? AND call_id = ? ORDER BY seq",
                (session_id, call_id),
            ).fetchall()
            if rows:
                out[call_id] = [(key, record) for key, record in rows]
        return out

    def ledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """The ``(key, record)`` pairs each of ``call_ids`` holds, in claim order.

        Args:
            session_id: The session.
            call_ids: The tool call ids to look up.

        Returns:
            Per call id holding at least one key, its pairs; other ids are left out.

        Raises:
            StoreError: The database cannot be read.
        """
        return self._read(
            "read the ledger", session_id, lambda conn: self._entries(conn, session_id, call_ids), {}
        )

    async def aledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``ledger``."""
        return await _in_thread(self.ledger, session_id, call_ids)

    def forget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Release exactly the keys ``call_ids`` hold and drop their entries.

        Args:
            session_id: The session.
            call_ids: The tool call ids whose keys to release.

        Returns:
            The dropped entries, as ``ledger`` would have returned them.

        Raises:
            StoreError: The database cannot be read or written.
        """

        def body(conn: sqlite3.Connection) -> LedgerEntries:
            dropped = self._entries(conn, session_id, call_ids)
            conn.executemany(
                "DELETE FROM claims WHERE session = ? AND call_id = ?", [(session_id, c) for c in dropped]
            )
            return dropped

        with self._releasing():
            return self._write("forget calls", session_id, body)

    async def aforget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``forget_calls``."""
        return await _in_thread(self.forget_calls, session_id, call_ids)

    # -- values -------------------------------------------------------------------

    def get(self, session_id: str, key: str) -> str | None:
        """The value stored under ``key``, or ``None``.

        Raises:
            StoreError: The database cannot be read.
        """
        return self._read("read a value", session_id, lambda conn: read_value(conn, session_id, key), None)

    async def aget(self, session_id: str, key: str) -> str | None:
        """Async twin of ``get``."""
        return await _in_thread(self.get, session_id, key)

    def put(self, session_id: str, key: str, value: str) -> None:
        """Store ``value`` under ``key``.

        Raises:
            StoreError: The database cannot be written.
        """
        self._write("store a value", session_id, lambda conn: _set(conn, session_id, key, value))

    async def aput(self, session_id: str, key: str, value: str) -> None:
        """Async twin of ``put``."""
        await _in_thread(self.put, session_id, key, value)

    def incr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Add ``amount`` to the counter under ``key`` atomically (missing or not an integer: 0 first).

        Read and write share one write transaction, so concurrent increments
        never lose an update, and the value is parsed exactly like
        ``MemoryStore`` does (Python ``int``, no 64-bit limit).

        Returns:
            The new value.

        Raises:
            StoreError: The database cannot be read or written.
        """

        def body(conn: sqlite3.Connection) -> int:
            text = read_value(conn, session_id, key)
            try:
                current = int(text) if text else 0
            except ValueError:
                current = 0
            _set(conn, session_id, key, str(current + amount))
            return current + amount

        return self._write("increment a counter", session_id, body)

    async def aincr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Async twin of ``incr``."""
        return await _in_thread(self.incr, session_id, key, amount)

    # -- lifetime -----------------------------------------------------------------

    def forget(self, session_id: str) -> None:
        """Drop everything the store holds for the session.

        Raises:
            StoreError: The database cannot be written.
        """


        def op(conn: sqlite3.Connection, now: float) -> None:
            transaction(conn, lambda: drop_session(conn, session_id), write=True)

        with self._releasing():
            self._run("forget a session", op)

    async def aforget(self, session_id: str) -> None:
        """Async twin of ``forget``."""
        await _in_thread(self.forget, session_id)

    def close(self) -> None:
        """Close the connection (idempotent; a later call opens a new one)."""
        with self._lock:
            self._close_connection()

    async def aclose(self) -> None:
        """Async twin of ``close``."""
        await _in_thread(self.close)


async def _in_thread(fn: Callable[..., T], /, *args: object) -> T:
    """``asyncio.to_thread``, imported on first await: a hook process that never awaits skips asyncio."""
    import asyncio

    return await asyncio.to_thread(fn, *args)


def _set(conn: sqlite3.Connection, session_id: str, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO vals (session, key, value) VALUES (?, ?, ?)"
        " ON CONFLICT (session, key) DO UPDATE SET value = excluded.value",
        (session_id, key, value),
    )


def _reason(exc: BaseException) -> str:
    """The exception's message without a trailing period, for embedding in one sentence."""
    text = str(exc).strip() or type(exc).__name__
    return text.rstrip(".")
