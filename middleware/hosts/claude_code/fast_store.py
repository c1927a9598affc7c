"""Claims on ``SQLiteStore``'s file, for the hook's fast path, without importing the store package.

``SQLiteStore`` creates, checks and sweeps the database; this module only
opens a file that store already made (right application id and schema
version, else ``None``: the hook takes its full path) and runs the same
statements as ``SQLiteStore.claim_many`` in one write transaction, plus the
read-and-clear of one value. Its constants are ``ruleweave.store.sqlite``'s
(a test pins them), copied because importing that package costs the hook
more than the rest of its fast path.
"""

from __future__ import annotations

# The C module ``sqlite3`` wraps: the package itself also imports ``datetime`` for default
# adapters this module never uses, a tenth of the hook's warm start-up.
import _sqlite3 as sqlite3
import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

APPLICATION_ID = 0x52575354  # ruleweave.store.sqlite.APPLICATION_ID
SCHEMA_VERSION = 1  # ruleweave.store.sqlite.SCHEMA_VERSION
DEFAULT_TTL = 7 * 24 * 3600.0  # ruleweave.store.sqlite.DEFAULT_TTL
BUSY_TIMEOUT = 5.0  # ruleweave.store.sqlite.DEFAULT_BUSY_TIMEOUT


def open_claims(path: str) -> sqlite3.Connection | None:
    """A connection to an existing ruleweave state database, or ``None`` (missing, foreign, other schema)."""
    if not os.path.isfile(path):
        return None
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        (app_id,) = conn.execute("PRAGMA application_id").fetchone()
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        if app_id != APPLICATION_ID or version != SCHEMA_VERSION:
            conn.close()
            return None
        conn.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.Error:
        conn.close()
        return None
    return conn


def claim_and_take(
    conn: sqlite3.Connection,
    session_id: str,
    keys: Sequence[str],
    call_id: str | None,
    records: Sequence[str],
    take: str | None = None,
) -> tuple[list[bool], str | None]:
    """``SQLiteStore.claim_many`` and, with ``take``, that value read and set to ``''``, in one transaction.

    Args:
        conn: From ``open_claims``.
        session_id: The session.
        keys: The keys to claim, in order.
        call_id: The ledger's call id (``None``: no ledger entries).
        records: One ledger record per key.
        take: A value key to read and clear (a kept streamed-rule reminder).

    Returns:
        Whether each key was won, and the value taken (``None`` when absent or empty).

    Raises:
        sqlite3.Error: The database failed (the hook logs it and answers nothing).
    """
    now = time.time()
    conn.execute("BEGIN IMMEDIATE")
    try:
        row = conn.execute("SELECT last_used FROM sessions WHERE session = ?", (session_id,)).fetchone()
        if row is not None and row[0] < now - DEFAULT_TTL:
            for table in ("claims", "vals", "sessions"):
                conn.execute(f"DELETE FROM {table} WHERE session = ?", (session_id,))
        conn.execute(
            "INSERT INTO sessions (session, last_used) VALUES (?, ?) ON CONFLICT (session)"
            " DO UPDATE SET last_used = max(last_used, excluded.last_used)",
            (session_id, now),
        )
        won = []
        for i, key in enumerate(keys):
            record = None if call_id is None else (records[i] if i < len(records) else "")
            cursor = conn.execute(
                "INSERT INTO claims (session, key, call_id, record) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (session_id, key, call_id, record),
            )
            won.append(cursor.rowcount == 1)
        taken = None
        if take is not None:
            found = conn.execute(
                "SELECT value FROM vals WHERE session = ? AND key = ?", (session_id, take)
            ).fetchone()
            if found is not None and found[0]:
                taken = str(found[0])
                conn.execute(
                    "UPDATE vals SET value = '' WHERE session = ? AND key = ?", (session_id, take)
                )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return won, taken
