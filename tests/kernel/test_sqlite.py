"""The claim the hook runs (``ruleweave._kernel.sqlite``), on the file ``SQLiteStore`` made."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleweave._kernel.sqlite import APPLICATION_ID, claim_and_take, open_claims
from ruleweave.store import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    """A store that has made its file."""
    made = SQLiteStore(tmp_path / "state.db")
    yield made
    made.close()


def test_claims_on_a_second_connection_are_the_stores(store: SQLiteStore) -> None:
    """Keys claimed on a connection of its own are taken for the store, with their ledger records, and back;
    a kept value is taken once."""
    assert store.claim_many("s", ["inject:a"]) == [True]
    conn = open_claims(str(store.path))
    assert conn is not None
    won, taken = claim_and_take(conn, "s", ["inject:a", "inject:b", "inject:b"], "c1", ["ra", "rb"], "k")
    assert (won, taken) == ([False, True, False], None)
    assert store.claim_many("s", ["inject:b"]) == [False]
    assert store.ledger("s", ["c1"]) == {"c1": [("inject:b", "rb")]}
    store.put("s", "k", "kept")
    assert claim_and_take(conn, "s", [], None, [], "k") == ([], "kept")
    assert claim_and_take(conn, "s", [], None, [], "k") == ([], None)
    assert store.get("s", "k") == ""
    conn.close()


def test_an_expired_session_starts_afresh(store: SQLiteStore) -> None:
    """A session unused for longer than the TTL loses its claims and values before the next claim."""
    conn = open_claims(str(store.path))
    assert conn is not None
    assert claim_and_take(conn, "s", ["inject:a"], now=1000.0, ttl=60) == ([True], None)
    assert claim_and_take(conn, "s", ["inject:a"], now=1050.0, ttl=60) == ([False], None)
    assert claim_and_take(conn, "s", ["inject:a"], now=1200.0, ttl=60) == ([True], None)
    conn.close()


def test_a_failed_claim_writes_nothing(store: SQLiteStore) -> None:
    """A claim that fails part-way is rolled back: no key is taken and the error reaches the caller."""
    conn = open_claims(str(store.path))
    assert conn is not None
    with pytest.raises(sqlite3.Error):
        claim_and_take(conn, "s", ["inject:a", object()], "c1", ["ra", "rb"])  # type: ignore[list-item]
    assert not conn.in_transaction
    assert store.claim("s", "inject:a")
    conn.close()


def test_only_the_stores_own_files_are_opened(tmp_path: Path, store: SQLiteStore) -> None:
    """No file, a file that is not a database, another application's database or another schema version
    is not opened for claims (the hook then takes its full path)."""
    assert open_claims(str(tmp_path / "missing.db")) is None
    assert open_claims(str(tmp_path)) is None
    (tmp_path / "garbage.db").write_bytes(b"not a database at all" * 100)
    assert open_claims(str(tmp_path / "garbage.db")) is None
    with sqlite3.connect(tmp_path / "other.db") as other:
        other.execute("CREATE TABLE t (x)")
        other.execute("PRAGMA application_id = 7")
    other.close()
    assert open_claims(str(tmp_path / "other.db")) is None
    with sqlite3.connect(store.path) as mine:
        assert mine.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        mine.execute("PRAGMA user_version = 99")
    mine.close()
    assert open_claims(str(store.path)) is None


def test_the_claim_imports_neither_sqlite3_nor_datetime(store: SQLiteStore) -> None:
    """The hook's claim runs on CPython's _sqlite3 alone: the sqlite3 package would import datetime."""
    code = (
        "import sys\n"
        "from ruleweave._kernel.sqlite import claim_and_take, open_claims\n"
        f"conn = open_claims({str(store.path)!r})\n"
        "assert claim_and_take(conn, 's', ['inject:x']) == ([True], None)\n"
        "assert 'sqlite3' not in sys.modules and 'datetime' not in sys.modules, sorted(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    assert not store.claim("s", "inject:x")


def test_the_claim_falls_back_to_the_sqlite3_package(store: SQLiteStore) -> None:
    """Where _sqlite3 cannot be imported on its own, the sqlite3 package serves the claim."""
    code = (
        "import sys, sqlite3\n"
        "sys.modules['_sqlite3'] = None\n"
        "from ruleweave._kernel import sqlite as kernel\n"
        "assert kernel.sqlite3 is sqlite3\n"
        f"conn = kernel.open_claims({str(store.path)!r})\n"
        "assert kernel.claim_and_take(conn, 's', ['inject:y']) == ([True], None)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    assert not store.claim("s", "inject:y")
