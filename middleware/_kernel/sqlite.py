"""The SQLite state file: its schema, and the statements both its users run.

Schema (``PRAGMA user_version`` 2, ``PRAGMA application_id`` ``0x52575354``)::

    sessions(session TEXT PRIMARY KEY, last_used REAL)        -- one row per live session
    claims(seq INTEGER PRIMARY KEY, session, key, call_id, record, UNIQUE(session, key))
    vals(session, key, value, PRIMARY KEY(session, key))
    queue(session, pos, item, PRIMARY KEY(session, pos))       -- pieces waiting, in pos order
    deliveries(seq INTEGER PRIMARY KEY, session, entry)        -- the delivery record

A file of schema 1 gains the last two tables (``MIGRATIONS``) when
``SQLiteStore`` opens it; the hook's warm path opens only a file of this
schema. Queue items and record entries are ``ruleweave._kernel.delivery``'s.

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
``SQLiteStore.claim_many`` runs (``claim_and_take``; ``claim_with_queue`` also
takes the delivery queue and writes what goes back and the delivery record).

Standard library only, and no ``typing``: the hook's warm path imports this
module. It imports the C module ``_sqlite3`` that ``sqlite3`` wraps (the
package also imports ``datetime`` for default adapters never used here, a
tenth of the hook's warm start-up); its classes and errors are the
package's own.
"""

from __future__ import annotations

import os
import time

from ruleweave._kernel.delivery import RECORD_LIMIT

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

SCHEMA_VERSION = 2
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
"""The statements that create schema 1 in an empty file (``MIGRATIONS`` take it on)."""

MIGRATIONS = {
    1: (
        """CREATE TABLE IF NOT EXISTS queue (
            session TEXT NOT NULL,
            pos INTEGER NOT NULL,
            item TEXT NOT NULL,
            PRIMARY KEY (session, pos)
        ) WITHOUT ROWID""",
        """CREATE TABLE IF NOT EXISTS deliveries (
            seq INTEGER PRIMARY KEY,
            session TEXT NOT NULL,
            entry TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS deliveries_by_session ON deliveries (session, seq)",
    ),
}
"""Per schema version, the statements that take a file of that version to the next one."""

SESSION_TABLES = ("claims", "vals", "queue", "deliveries")
"""The tables holding rows of a session besides ``sessions`` itself."""


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


def create_schema(conn: sqlite3.Connection) -> None:
    """Write schema ``SCHEMA_VERSION`` into an empty file, or migrate an older one (in a write transaction).

    Raises:
        sqlite3.DatabaseError: The file holds another application's tables, or a newer schema.
    """
    version = conn.execute("PRAGMA user_version").fetchone()[0]  # another process may have won
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(
            f"it was written by a newer ruleweave (schema {version}, this one knows {SCHEMA_VERSION})"
        )
    if version == 0:
        if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise sqlite3.DatabaseError("the file is another application's database")
        for statement in SCHEMA:
            conn.execute(statement)
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        version = 1
    while version < SCHEMA_VERSION:
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
        version += 1
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def drop_session(conn: sqlite3.Connection, session_id: str) -> None:
    """Delete every row of the session (inside a write transaction)."""
    for table in (*SESSION_TABLES, "sessions"):
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

    This is ``SQLiteStore.claim_many``; the hook's warm path runs the same claims
    through ``claim_with_queue``.

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
    return transaction(
        conn, lambda: _claim(conn, session_id, keys, call_id, records, take, ttl, at), write=True
    )


def claim_with_queue(
    conn: sqlite3.Connection,
    session_id: str,
    queue: str,
    keys: Sequence[str],
    call_id: str | None,
    records: Sequence[str],
    take: str | None,
    then: Callable[[sqlite3.Connection, list[bool], str | None, list[str]], None],
    *,
    ttl: float = DEFAULT_TTL,
    ready: Callable[[list[str], str | None], bool] | None = None,
) -> tuple[list[bool], str | None] | None:
    """The hook's warm claim: ``queue``'s waiting pieces taken and ``claim_and_take``'s claims made, then
    ``then(conn, won, taken, waiting)`` (which packs the answer, puts back what does not fit and writes
    the delivery record), in one write transaction.

    Args:
        conn: A connection (``open_claims``).
        session_id: The session.
        queue: The delivery queue the answer sends first (``delivery.queue_id``).
        keys: As ``claim_and_take``.
        call_id: As ``claim_and_take``.
        records: As ``claim_and_take``.
        take: As ``claim_and_take``.
        then: Run last inside the transaction.
        ttl: Seconds a session may go unused before its state is dropped.
        ready: Asked first, with the waiting pieces and the value ``take`` names (nothing taken or
            claimed yet): ``False`` leaves everything as it was.

    Returns:
        As ``claim_and_take``; ``None`` (nothing written) when ``ready`` said no.

    Raises:
        sqlite3.Error: The database failed; nothing was written.
    """
    at = time.time()

    def body() -> tuple[list[bool], str | None] | None:
        waiting = _queue_items(conn, queue)
        kept = None if take is None else read_value(conn, session_id, take)
        if ready is not None and not ready(waiting, kept):
            return None
        if waiting:
            conn.execute("DELETE FROM queue WHERE session = ?", (queue,))
        won, taken = _claim(conn, session_id, keys, call_id, records, take, ttl, at)
        then(conn, won, taken, waiting)
        return won, taken

    return transaction(conn, body, write=True)


def _claim(
    conn: sqlite3.Connection, session_id: str, keys: Sequence[str], call_id: str | None,
    records: Sequence[str], take: str | None, ttl: float, at: float,
) -> tuple[list[bool], str | None]:
    """The claims and the take (inside a write transaction)."""
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


def queued(conn: sqlite3.Connection, session_id: str) -> bool:
    """Whether the session has pieces waiting in its queue (one indexed look-up)."""
    return conn.execute("SELECT 1 FROM queue WHERE session = ? LIMIT 1", (session_id,)).fetchone() is not None


def push_queue(conn: sqlite3.Connection, session_id: str, items: Sequence[str], front: bool) -> None:
    """Add ``items`` to the back of the session's queue, or before its first item (in a write transaction)."""
    if not items:
        return
    if front:
        (low,) = conn.execute("SELECT min(pos) FROM queue WHERE session = ?", (session_id,)).fetchone()
        start = (0 if low is None else low) - len(items)
    else:
        (high,) = conn.execute("SELECT max(pos) FROM queue WHERE session = ?", (session_id,)).fetchone()
        start = 0 if high is None else high + 1
    conn.executemany(
        "INSERT INTO queue (session, pos, item) VALUES (?, ?, ?)",
        [(session_id, start + i, text) for i, text in enumerate(items)],
    )


def take_queue(conn: sqlite3.Connection, session_id: str) -> list[str]:
    """Remove and return every item of the session's queue, first first (in a write transaction)."""
    items = _queue_items(conn, session_id)
    if items:
        conn.execute("DELETE FROM queue WHERE session = ?", (session_id,))
    return items


def _queue_items(conn: sqlite3.Connection, session_id: str) -> list[str]:
    """Every item of the session's queue, first first."""
    rows = conn.execute("SELECT item FROM queue WHERE session = ? ORDER BY pos", (session_id,)).fetchall()
    return [str(text) for (text,) in rows]


def append_entries(
    conn: sqlite3.Connection, session_id: str, entries: Sequence[str], limit: int = RECORD_LIMIT
) -> None:
    """Append to the session's delivery record, keeping its newest ``limit`` entries (in a write
    transaction)."""
    if not entries:
        return
    conn.executemany(
        "INSERT INTO deliveries (session, entry) VALUES (?, ?)", [(session_id, text) for text in entries]
    )
    conn.execute(
        "DELETE FROM deliveries WHERE session = ? AND seq <= (SELECT seq FROM deliveries WHERE session = ?"
        " ORDER BY seq DESC LIMIT 1 OFFSET ?)",
        (session_id, session_id, limit),
    )


def read_entries(conn: sqlite3.Connection, session_id: str) -> list[str]:
    """The session's delivery record, oldest first."""
    rows = conn.execute("SELECT entry FROM deliveries WHERE session = ? ORDER BY seq", (session_id,))
    return [str(text) for (text,) in rows]


DAMAGED_CODES = (11, 26)
"""SQLite's primary result codes for a damaged file: ``SQLITE_CORRUPT`` and ``SQLITE_NOTADB``."""

DAMAGED_SUFFIX = ".damaged-"
"""What a damaged state file's new name adds before a UTC timestamp: ``state.db.damaged-20261201T101500Z``."""

SIDECARS = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database: moved with it, or a fresh file would replay a damaged log."""


def damaged(exc: BaseException) -> bool:
    """Whether ``exc`` says the database file itself is damaged (not locked, full, or unopenable)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)  # Python 3.11+
    if isinstance(code, int):
        return code & 0xFF in DAMAGED_CODES
    text = str(exc)
    return text == "file is not a database" or "malformed" in text


def file_identity(path: str) -> tuple[int, int] | None:
    """The file's ``(device, inode)``, or ``None`` when it is missing."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def move_aside(path: str, identity: tuple[int, int] | None = None, now: float | None = None) -> str | None:
    """Rename a damaged database, and the files SQLite keeps beside it, with a timestamp suffix.

    The damaged file is kept for inspection; the next open creates a fresh one.

    Args:
        path: The database file.
        identity: The ``file_identity`` of the file found damaged: when ``path`` is another
            file now, another process moved the damaged one and made a fresh one, left alone.
        now: Wall-clock seconds for the suffix (default: ``time.time()``).

    Returns:
        The database's new path, or ``None`` when it was not moved (missing, or another file).

    Raises:
        OSError: The file could not be renamed.
    """
    found = file_identity(path)
    if found is None or (identity is not None and found != identity):
        return None
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() if now is None else now))
    target = f"{path}{DAMAGED_SUFFIX}{stamp}"
    n = 1
    while os.path.lexists(target):  # two damages within one second
        n += 1
        target = f"{path}{DAMAGED_SUFFIX}{stamp}-{n}"
    os.rename(path, target)
    for sidecar in SIDECARS:
        try:  # noqa: SIM105 - contextlib is not on the hook's warm path
            os.rename(path + sidecar, target + sidecar)
        except FileNotFoundError:
            pass
    return target
