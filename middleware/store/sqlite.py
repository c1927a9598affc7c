"""``SQLiteStore``: session state in one SQLite file, shared by threads and processes.

Schema (``PRAGMA user_version`` 1, ``PRAGMA application_id`` ``0x52575354``)::

    sessions(session TEXT PRIMARY KEY, last_used REAL)        -- one row per live session
    claims(seq INTEGER PRIMARY KEY, session, key, call_id, record, UNIQUE(session, key))
    vals(session, key, value, PRIMARY KEY(session, key))

A claim is a row of ``claims``: ``INSERT … ON CONFLICT DO NOTHING`` on the
``(session, key)`` uniqueness makes exactly one inserter the winner, in
every thread and process. ``call_id`` and ``record`` hold the ledger entry
(``NULL`` when the key was claimed without a call) and ``seq``, the rowid,
grows with every insert, so it orders a call's entries in claim order.
Sessions unused for ``ttl`` seconds are dropped: a session is checked when it
is used, and all expired ones are purged at most once a minute per store.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

from ruleweave.errors import ConfigError, StoreError
from ruleweave.store.base import LedgerEntries

T = TypeVar("T")

DEFAULT_TTL = 7 * 24 * 3600.0
"""Seconds a session may go unused before its state is dropped (one week)."""

DEFAULT_BUSY_TIMEOUT = 5.0
"""Seconds a call waits for another process's write to finish before failing."""

SCHEMA_VERSION = 1
"""The layout this module writes; kept in ``PRAGMA user_version``."""

APPLICATION_ID = 0x52575354  # "RWST": marks the file as a ruleweave state store
MIN_SQLITE = (3, 24, 0)  # ON CONFLICT … DO NOTHING / DO UPDATE (upsert)
PURGE_EVERY = 60.0  # seconds between sweeps for expired sessions, per store object

STATE_DIR_VAR = "RULEWEAVE_STATE_DIR"

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS sessions (
        session TEXT PRIMARY KEY,
        last_used REAL NOT NULL
    ) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS sessions_by_last_used ON sessions (last_used)",
    """CREATE TABLE IF NOT EXISTS claims (
        seq INTEGER PRIMARY KEY,
        session TEXT NOT NULL,
        key TEXT NOT NULL,
        call_id TEXT,
        record TEXT,
        UNIQUE (session, key)
    )""",
    "CREATE INDEX IF NOT EXISTS claims_by_call ON claims (session, call_id) WHERE call_id IS NOT NULL",
    """CREATE TABLE IF NOT EXISTS vals (
        session TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (session, key)
    ) WITHOUT ROWID""",
)


def default_state_path(env: Mapping[str, str], home: Path, *, platform: str = sys.platform) -> Path:
    """Where ``SQLiteStore()`` keeps its file when given no path.

    ``$RULEWEAVE_STATE_DIR/state.db`` when that is set; otherwise
    ``<user state dir>/ruleweave/state.db``, the user state dir being
    ``$XDG_STATE_HOME`` when set to an absolute path, else ``~/.local/state``
    (``~/Library/Application Support`` on macOS, ``%LOCALAPPDATA%`` on Windows).

    Args:
        env: The environment to read (``os.environ`` in the one place that builds defaults).
        home: The user's home directory.
        platform: ``sys.platform`` (tests pass another).

    Returns:
        The database file's path.
    """
    override = env.get(STATE_DIR_VAR)
    if override:
        # Expanded by hand: Path.expanduser would read HOME from os.environ again.
        if override == "~" or override.startswith("~/"):
            override = str(home) + override[1:]
        return Path(override) / "state.db"
    xdg = env.get("XDG_STATE_HOME")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore relative values
        base = Path(xdg)
    elif platform == "darwin":
        base = home / "Library" / "Application Support"
    elif platform == "win32":
        base = Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local")
    else:
        base = home / ".local" / "state"
    return base / "ruleweave" / "state.db"


@contextmanager
def _transaction(conn: sqlite3.Connection, *, write: bool) -> Iterator[None]:
    """BEGIN IMMEDIATE (takes the write lock up front, so it never has to upgrade) or BEGIN; COMMIT."""
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise


class SQLiteStore:
    """A ``SessionStore`` in one SQLite file (WAL mode), safe across threads and processes.

    One connection per process, guarded by a lock: threads of one process take
    turns (SQLite's own locks would make them busy-wait), processes wait for
    each other up to ``busy_timeout``. The async twins run the same code in a
    worker thread, so they never block the event loop.

    Args:
        path: The database file (created with its directory, mode 0700, if
            missing). Default: ``default_state_path(os.environ, Path.home())``.
        ttl: Seconds a session may go unused before its state is dropped
            (default one week).
        busy_timeout: Seconds to wait for another process's write (default 5).
        clock: Wall-clock time source; the file outlives processes, so it must
            be ``time.time``-like (tests pass a fake one).

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
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(
                f"SQLiteStore needs SQLite 3.24 or newer; this Python links SQLite {sqlite3.sqlite_version}."
            )
        # The one place the store's defaults read the environment.
        self.path = Path(path) if path is not None else default_state_path(os.environ, Path.home())
        self.ttl = float(ttl)
        self.busy_timeout = float(busy_timeout)
        self._clock = clock
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._purged_at = -float("inf")
        self._purge_every = min(PURGE_EVERY, self.ttl)
        # A read refreshes last_used only when it is this stale, so reads seldom write.
        self._refresh_every = min(PURGE_EVERY, self.ttl / 10)
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
        if not self.path.exists():
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # Create the file private to the user; SQLite gives -wal/-shm the same mode.
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        conn = sqlite3.connect(
            self.path, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            deadline = time.monotonic() + self.busy_timeout
            while True:
                try:
                    self._prepare(conn)
                    break
                except sqlite3.OperationalError as exc:
                    # Switching to WAL while another process opens the file can report
                    # "locked" without consulting the busy handler: try again briefly.
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.01)
        except BaseException:
            conn.close()
            raise
        return conn

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Check the file is ours, switch to WAL and create or check the schema."""
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id not in (0, APPLICATION_ID):
            raise sqlite3.DatabaseError("the file is another application's database")
        conn.execute("PRAGMA journal_mode = WAL")
        # WAL + NORMAL: a crash of the process loses nothing; power loss may lose the last writes.
        conn.execute("PRAGMA synchronous = NORMAL")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        with _transaction(conn, write=True):
            version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
            if version == 0:
                if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                    raise sqlite3.DatabaseError("the file is another application's database")
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            elif version > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(
                    f"it was written by a newer ruleweave (schema {version}, this one knows {SCHEMA_VERSION})"
                )

    def _run(self, action: str, op: Callable[[sqlite3.Connection, float], T]) -> T:
        """Run ``op`` on the connection with the lock held, translating every failure to StoreError."""
        try:
            with self._lock:
                conn = self._connection()
                now = self._clock()
                if now - self._purged_at >= self._purge_every:
                    self._purge(conn, now)
                    self._purged_at = now
                return op(conn, now)
        except (sqlite3.Error, OSError, UnicodeError) as exc:
            raise StoreError(f"Could not {action} in the SQLite store {self.path}: {_reason(exc)}.") from exc

    def _write(self, action: str, session_id: str, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` in a write transaction on a live session (an expired one is wiped first)."""

        def op(conn: sqlite3.Connection, now: float) -> T:
            with _transaction(conn, write=True):
                row = _last_used(conn, session_id)
                if row is not None and row[0] < now - self.ttl:
                    _drop(conn, session_id)
                conn.execute(
                    "INSERT INTO sessions (session, last_used) VALUES (?, ?) ON CONFLICT (session)"
                    " DO UPDATE SET last_used = max(last_used, excluded.last_used)",
                    (session_id, now),
                )
                return body(conn)

        return self._run(action, op)

    def _read(self, action: str, session_id: str, body: Callable[[sqlite3.Connection], T], empty: T) -> T:
        """Run ``body`` in a read transaction; ``empty`` when the session is unknown or expired."""

        def op(conn: sqlite3.Connection, now: float) -> T:
            with _transaction(conn, write=False):
                row = _last_used(conn, session_id)
                if row is None or row[0] < now - self.ttl:
                    return empty
                result = body(conn)
            if now - row[0] >= self._refresh_every:
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
        with _transaction(conn, write=True):
            conn.execute(f"DELETE FROM claims WHERE session IN ({expired})", (cutoff,))
            conn.execute(f"DELETE FROM vals WHERE session IN ({expired})", (cutoff,))
            conn.execute("DELETE FROM sessions WHERE last_used < ?", (cutoff,))

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

        def body(conn: sqlite3.Connection) -> list[bool]:
            won = []
            for i, key in enumerate(keys):
                record = None if call_id is None else (records[i] if i < len(records) else "")
                cursor = conn.execute(
                    "INSERT INTO claims (session, key, call_id, record) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (session_id, key, call_id, record),
                )
                won.append(cursor.rowcount == 1)
            return won

        return self._write("claim keys", session_id, body)

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

        def body(conn: sqlite3.Connection) -> str | None:
            row = _value(conn, session_id, key)
            return None if row is None else str(row[0])

        return self._read("read a value", session_id, body, None)

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
            row = _value(conn, session_id, key)
            try:
                current = int(row[0]) if row is not None and row[0] else 0
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
            with _transaction(conn, write=True):
                _drop(conn, session_id)

        self._run("forget a session", op)

    async def aforget(self, session_id: str) -> None:
        """Async twin of ``forget``."""
        await _in_thread(self.forget, session_id)

    def close(self) -> None:
        """Close the connection (idempotent; a later call opens a new one)."""
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None and self._pid == os.getpid():
                with suppress(sqlite3.Error):
                    conn.close()

    async def aclose(self) -> None:
        """Async twin of ``close``."""
        await _in_thread(self.close)


async def _in_thread(fn: Callable[..., T], /, *args: object) -> T:
    """``asyncio.to_thread``, imported on first await: a hook process that never awaits skips asyncio."""
    import asyncio

    return await asyncio.to_thread(fn, *args)


def _last_used(conn: sqlite3.Connection, session_id: str) -> tuple[float] | None:
    row: tuple[float] | None = conn.execute(
        "SELECT last_used FROM sessions WHERE session = ?", (session_id,)
    ).fetchone()
    return row


def _value(conn: sqlite3.Connection, session_id: str, key: str) -> tuple[str] | None:
    row: tuple[str] | None = conn.execute(
        "SELECT value FROM vals WHERE session = ? AND key = ?", (session_id, key)
    ).fetchone()
    return row


def _set(conn: sqlite3.Connection, session_id: str, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO vals (session, key, value) VALUES (?, ?, ?)"
        " ON CONFLICT (session, key) DO UPDATE SET value = excluded.value",
        (session_id, key, value),
    )


def _drop(conn: sqlite3.Connection, session_id: str) -> None:
    for table in ("claims", "vals", "sessions"):
        conn.execute(f"DELETE FROM {table} WHERE session = ?", (session_id,))


def _reason(exc: BaseException) -> str:
    """The exception's message without a trailing period, for embedding in one sentence."""
    text = str(exc).strip() or type(exc).__name__
    return text.rstrip(".")
