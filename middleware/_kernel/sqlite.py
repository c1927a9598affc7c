"""The SQLite state file: its schema, and the statements both its users run.

Schema (``PRAGMA user_version`` 1, ``PRAGMA application_id`` ``0x52575354``)::

    sessions(session TEXT PRIMARY KEY, last_used REAL)        -- one row per live session
    claims(seq INTEGER PRIMARY KEY, session, key, call_id, record, UNIQUE(session, key))
    vals(session, key, value, PRIMARY KEY(session, key))

A claim is a row of ``claims``: ``INSERT … ON CONFLICT DO NOTHING`` on the
``(session, key)`` uniqueness makes exactly one inserter the winner, in
every thread and process. ``call_id`` and ``record`` hold the ledger entry
(``NULL`` when the key was claimed without a call) and ``seq``, the rowid,
grows with every insert, so it orders a call's entries in claim order.
A write first drops the session if it went unused for the TTL, then marks it
used now (``touch_session``).

``SQLiteStore`` (``ruleweave.store.sqlite``) creates, checks and sweeps the
file and runs every operation; the Claude Code hook's warm path opens a file
that store made (``open_claims``) and claims its notices with the function
``SQLiteStore.claim_many`` runs (``claim_and_take``).

Standard library only, and no ``typing``: the hook's warm path imports this
module. It imports the C module ``_sqlite3`` that ``sqlite3`` wraps (the
package also imports ``datetime`` for default adapters never used here, a
tenth of the hook's warm start-up); its classes and errors are the
package's own.
"""

from __future__ import annotations

import os
import time

try:
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter without CPython's module layout: the package, datetime and all
    import sqlite3  # type: ignore[no-redef]

TYPE_CHECKING = False  # not typing's: the hook's warm path imports this module
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    T = TypeVar("T")

DEFAULT_TTL = 7 * 24 * 3600.0
"""Seconds a session may go unused before its state is dropped (one week)."""

DEFAULT_BUSY_TIMEOUT = 5.0
"""Seconds a call waits for another process's write to finish before failing."""

SCHEMA_VERSION = 1
"""The layout ruleweave writes; kept in ``PRAGMA user_version``."""

APPLICATION_ID = 0x52575354
"""``PRAGMA application_id``: "RWST" marks the file as a ruleweave state store."""

SCHEMA = (
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
"""The statements that create schema ``SCHEMA_VERSION`` in an empty file."""


def open_claims(path: str, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> sqlite3.Connection | None:
    """A connection to an existing ruleweave state file of this schema, or ``None``.

    Only ``SQLiteStore`` creates, migrates or sweeps the file: a file that is
    missing, not a database, another application's, or of another schema
    version is not opened here (the hook then takes its full path).

    Args:
        path: The database file.
        busy_timeout: Seconds to wait for another process's write.

    Returns:
        The connection (autocommit: ``transaction`` opens each transaction), or ``None``.
    """
    if not os.path.isfile(path):
        return None
    try:
        conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        (app_id,) = conn.execute("PRAGMA application_id").fetchone()
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if app_id != APPLICATION_ID or version != SCHEMA_VERSION:
            conn.close()
            return None
        # As SQLiteStore sets it (per connection): WAL + NORMAL loses nothing when a process crashes.
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.Error:
        conn.close()
        return None
    return conn


def transaction(conn: sqlite3.Connection, body: Callable[[], T], *, write: bool) -> T:
    """``body()`` in one transaction, committed when it returns and rolled back when it raises.

    A write transaction is ``BEGIN IMMEDIATE``: it takes the write lock up front,
    so it never has to upgrade a read lock (which could fail mid-way).

    Args:
        conn: An autocommit connection.
        body: What to run inside.
        write: Whether ``body`` writes.

    Returns:
        What ``body`` returned.

    Raises:
        sqlite3.Error: The database failed (whatever ``body`` raised is re-raised).
    """
    conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        result = body()
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            try:  # noqa: SIM105 - contextlib is not on the hook's warm path
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # the first failure is the one to report
        raise
    return result


def last_used(conn: sqlite3.Connection, session_id: str) -> float | None:
    """When the session was last used (wall-clock seconds), or ``None`` for an unknown session."""
    row = conn.execute("SELECT last_used FROM sessions WHERE session = ?", (session_id,)).fetchone()
    return None if row is None else float(row[0])


def drop_session(conn: sqlite3.Connection, session_id: str) -> None:
    """Delete every row of the session (inside a write transaction)."""
    for table in ("claims", "vals", "sessions"):
        conn.execute(f"DELETE FROM {table} WHERE session = ?", (session_id,))


def touch_session(conn: sqlite3.Connection, session_id: str, now: float, ttl: float) -> None:
    """Start a write on the session: drop it if it expired, then mark it used at ``now``.

    Args:
        conn: A connection inside a write transaction.
        session_id: The session.
        now: Wall-clock seconds.
        ttl: Seconds a session may go unused.
    """
    used = last_used(conn, session_id)
    if used is not None and used < now - ttl:
        drop_session(conn, session_id)
    conn.execute(
        "INSERT INTO sessions (session, last_used) VALUES (?, ?) ON CONFLICT (session)"
        " DO UPDATE SET last_used = max(last_used, excluded.last_used)",
        (session_id, now),
    )


def read_value(conn: sqlite3.Connection, session_id: str, key: str) -> str | None:
    """The value stored under ``key`` for the session, or ``None``."""
    row = conn.execute("SELECT value FROM vals WHERE session = ? AND key = ?", (session_id, key)).fetchone()
    return None if row is None else str(row[0])


def claim_and_take(
    conn: sqlite3.Connection,
    session_id: str,
    keys: Sequence[str],
    call_id: str | None = None,
    records: Sequence[str] = (),
    take: str | None = None,
    *,
    ttl: float = DEFAULT_TTL,
    now: float | None = None,
) -> tuple[list[bool], str | None]:
    """Claim ``keys`` and, with ``take``, read that value and set it to ``''``, in one write transaction.

    This is ``SQLiteStore.claim_many``; the hook also takes the streamed-rule
    reminder PreToolUse kept for the call, in the same transaction.

    Args:
        conn: A connection (``open_claims``, or ``SQLiteStore``'s).
        session_id: The session.
        keys: The keys to claim, in order (a key repeated is won at most once).
        call_id: When given, the ledger records ``records[i]`` under this id for every key won.
        records: One ledger record per key (missing: ``''``).
        take: A value key to read and clear.
        ttl: Seconds a session may go unused before its state is dropped.
        now: Wall-clock seconds (default: ``time.time()``).

    Returns:
        Whether each key was won, in order, and the value taken (``None`` when absent or empty).

    Raises:
        sqlite3.Error: The database failed; nothing was written.
    """
    at = time.time() if now is None else now

    def body() -> tuple[list[bool], str | None]:
        touch_session(conn, session_id, at, ttl)
        won = []
        for i, key in enumerate(keys):
            record = None if call_id is None else (records[i] if i < len(records) else "")
            cursor = conn.execute(
                "INSERT INTO claims (session, key, call_id, record) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (session_id, key, call_id, record),
            )
            won.append(cursor.rowcount == 1)
        taken = None if take is None else read_value(conn, session_id, take)
        if taken:
            conn.execute("UPDATE vals SET value = '' WHERE session = ? AND key = ?", (session_id, take))
        return won, taken or None

    return transaction(conn, body, write=True)
