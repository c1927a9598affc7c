"""Opening ``SQLiteStore``'s file: create it private to the user, check it is ours, WAL, schema.

A damaged file (``ruleweave._kernel.sqlite.damaged``) is moved aside with the
files SQLite keeps beside it (``move_aside``) and a fresh one is made, here
on opening and by ``SQLiteStore`` when a call finds a damaged page.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

try:  # the C module: the ``sqlite3`` package also imports ``datetime`` (see ``ruleweave._kernel.sqlite``)
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter without CPython's module layout
    import sqlite3  # type: ignore[no-redef]

from ruleweave._kernel import claimed
from ruleweave._kernel.sqlite import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    create_schema,
    file_identity,
    transaction,
)


def open_file(path: Path, busy_timeout: float) -> tuple[sqlite3.Connection, tuple[int, int] | None]:
    """A connection to the store file at ``path`` (created if missing), checked and ready.

    Args:
        path: The database file (its directory is created, mode 0700, when missing).
        busy_timeout: Seconds to wait for another process's write.

    Returns:
        The connection (autocommit, usable from any thread) and the file's ``file_identity``.

    Raises:
        sqlite3.Error: The file cannot be opened, is damaged, another application's or a newer
            ruleweave's.
        OSError: The directory or file cannot be created.
    """
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # A new file may reuse a deleted one's inode: no memo of its claims may vouch for this one.
        claimed.invalidate(str(path))
        # Create the file private to the user; SQLite gives -wal/-shm the same mode.
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
    identity = file_identity(str(path))
    conn = sqlite3.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    try:
        deadline = time.monotonic() + busy_timeout
        while True:
            try:
                prepare(conn)
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
    return conn, identity


def prepare(conn: sqlite3.Connection) -> None:
    """Check the file is ours, switch to WAL and create or check the schema."""
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    if app_id not in (0, APPLICATION_ID):
        raise sqlite3.DatabaseError("the file is another application's database")
    conn.execute("PRAGMA journal_mode = WAL")
    # WAL + NORMAL: a crash of the process loses nothing; power loss may lose the last writes.
    conn.execute("PRAGMA synchronous = NORMAL")
    if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
        transaction(conn, lambda: create_schema(conn), write=True)  # or migrate an older file
