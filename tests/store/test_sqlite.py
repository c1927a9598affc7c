"""SQLiteStore: processes, persistence, expiry and failures, on real files."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sqlite3
import stat
import time
from multiprocessing.queues import Queue
from pathlib import Path

import pytest

from ruleweave import ConfigError, StoreError
from ruleweave._kernel.sqlite import APPLICATION_ID, SCHEMA_VERSION
from ruleweave.store import SQLiteStore
from ruleweave.store.sqlite import default_state_path
from tests.store.race_worker import MANY_KEYS, RaceResult, race


class FakeClock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def rows(path: Path, table: str, session: str) -> int:
    """How many rows ``table`` holds for ``session``, read with a connection of its own."""
    with sqlite3.connect(path) as conn:
        count: int = conn.execute(f"SELECT count(*) FROM {table} WHERE session = ?", (session,)).fetchone()[0]
    return count


# -- where the file lives ----------------------------------------------------------------------------


def test_default_path_override() -> None:
    """RULEWEAVE_STATE_DIR wins over everything, with ~ expanded against the given home."""
    home = Path("/home/u")
    env = {"RULEWEAVE_STATE_DIR": "/srv/rw", "XDG_STATE_HOME": "/x"}
    assert default_state_path(env, home) == Path("/srv/rw/state.db")
    assert default_state_path({"RULEWEAVE_STATE_DIR": "~/rw"}, home) == Path("/home/u/rw/state.db")


def test_default_path_xdg_and_platforms() -> None:
    """XDG_STATE_HOME (absolute only), else ~/.local/state, ~/Library/Application Support on macOS."""
    home = Path("/home/u")
    assert default_state_path({"XDG_STATE_HOME": "/xdg"}, home) == Path("/xdg/ruleweave/state.db")
    assert default_state_path({"XDG_STATE_HOME": "rel"}, home, platform="linux") == Path(
        "/home/u/.local/state/ruleweave/state.db"
    )
    assert default_state_path({}, home, platform="linux") == Path("/home/u/.local/state/ruleweave/state.db")
    assert default_state_path({}, home, platform="darwin") == Path(
        "/home/u/Library/Application Support/ruleweave/state.db"
    )
    assert default_state_path({"LOCALAPPDATA": "/appdata"}, home, platform="win32") == Path(
        "/appdata/ruleweave/state.db"
    )


def test_no_path_uses_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLiteStore() puts its file under RULEWEAVE_STATE_DIR; directory 0700, file 0600."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "state"))
    store = SQLiteStore()
    try:
        assert store.path == tmp_path / "state" / "state.db"
        assert store.claim("s", "k")
        assert stat.S_IMODE((tmp_path / "state").stat().st_mode) == 0o700
        assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    finally:
        store.close()


def test_file_settings(tmp_path: Path) -> None:
    """The file is in WAL mode and carries the schema version and ruleweave's application id."""
    SQLiteStore(tmp_path / "s.db").close()
    with sqlite3.connect(tmp_path / "s.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


# -- persistence and processes -----------------------------------------------------------------------


def test_state_survives_reopen(tmp_path: Path) -> None:
    """Claims, the ledger and values survive closing the store and opening the file again."""
    path = tmp_path / "s.db"
    store = SQLiteStore(path)
    store.claim_many("s", ["a", "b"], call_id="c", records=["ra", "rb"])
    store.put("s", "v", "kept")
    store.incr("s", "n", 7)
    store.close()
    again = SQLiteStore(path)
    try:
        assert again.claim_many("s", ["a", "b", "c"]) == [False, False, True]
        assert again.ledger("s", ["c"]) == {"c": [("a", "ra"), ("b", "rb")]}
        assert again.get("s", "v") == "kept"
        assert again.incr("s", "n") == 8
    finally:
        again.close()


def test_processes_and_threads_claim_exactly_once(tmp_path: Path) -> None:
    """4 processes × 16 threads race for a key, ten keys and a counter: one winner each, no lost count."""
    path = str(tmp_path / "race" / "state.db")
    processes, threads = 4, 16
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(processes)
    results: Queue[RaceResult] = ctx.Queue()
    children = [ctx.Process(target=race, args=(path, start, results, threads)) for _ in range(processes)]
    for child in children:
        child.start()
    reports = [results.get(timeout=120) for _ in children]
    for child in children:
        child.join(timeout=60)
        assert child.exitcode == 0
    assert sum(single for single, _, _, _ in reports) == 1
    wins = {key: sum(many[key] for _, many, _, _ in reports) for key in MANY_KEYS}
    assert wins == dict.fromkeys(MANY_KEYS, 1)
    assert sorted(count for _, _, counts, _ in reports for count in counts) == list(range(1, 65))
    store = SQLiteStore(path)
    try:
        winners = [call for _, _, _, calls in reports for call in calls]
        ledger = store.ledger("s", winners)
        assert sorted(key for pairs in ledger.values() for key, record in pairs if key == record) == MANY_KEYS
    finally:
        store.close()


# -- expiry -------------------------------------------------------------------------------------------


def test_ttl_expires_a_session(tmp_path: Path) -> None:
    """A session unused for ttl seconds starts afresh; using it keeps it alive."""
    clock = FakeClock()
    store = SQLiteStore(tmp_path / "s.db", ttl=100, clock=clock)
    try:
        store.claim_many("s", ["a"], call_id="c", records=["r"])
        store.put("s", "v", "1")
        clock.now += 60
        assert not store.claim("s", "a")  # a write refreshes last use
        clock.now += 90
        assert store.get("s", "v") == "1"  # 90 s after the last use: alive, and refreshed by the read
        clock.now += 90
        assert store.ledger("s", ["c"]) == {"c": [("a", "r")]}
        clock.now += 101
        assert store.get("s", "v") is None
        assert store.ledger("s", ["c"]) == {}
        assert store.claim("s", "a")
        assert store.incr("s", "v") == 1
    finally:
        store.close()


def test_expired_sessions_are_purged(tmp_path: Path) -> None:
    """Expired sessions lose all their rows on a later sweep, live ones keep theirs."""
    clock = FakeClock()
    path = tmp_path / "s.db"
    store = SQLiteStore(path, ttl=100, clock=clock)
    try:
        store.claim_many("old", ["a"], call_id="c")
        store.put("old", "v", "1")
        clock.now += 50
        store.put("young", "v", "1")
        clock.now += 70  # old: 120 s unused, young: 70 s
        store.get("young", "v")
        for table in ("claims", "vals", "sessions"):
            assert rows(path, table, "old") == 0, table
        assert rows(path, "vals", "young") == 1
    finally:
        store.close()


def test_expired_across_handles(tmp_path: Path) -> None:
    """Expiry is decided by the file's last-use time, so any handle on the file sees it."""
    clock = FakeClock()
    path = tmp_path / "s.db"
    first = SQLiteStore(path, ttl=10, clock=clock)
    second = SQLiteStore(path, ttl=10, clock=clock)
    try:
        first.put("s", "v", "1")
        clock.now += 11
        assert second.get("s", "v") is None
        assert second.claim("s", "k")
        assert first.get("s", "v") is None
    finally:
        first.close()
        second.close()


# -- failures -----------------------------------------------------------------------------------------


def test_corrupt_file(tmp_path: Path) -> None:
    """A file that is not a database is moved aside, kept byte for byte, and a fresh store replaces it."""
    path = tmp_path / "state.db"
    junk = b"this is not an SQLite database, just some text that is long enough" * 20
    path.write_bytes(junk)
    store = SQLiteStore(path)
    try:
        [moved] = store.recovered
        assert Path(moved).read_bytes() == junk and Path(moved).name.startswith("state.db.damaged-")
        assert store.claim("s", "k") and not store.claim("s", "k")
    finally:
        store.close()


def test_foreign_database(tmp_path: Path) -> None:
    """Another application's SQLite database is refused rather than written into."""
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StoreError, match="another application's database"):
        SQLiteStore(path)


def test_newer_schema(tmp_path: Path) -> None:
    """A file written by a newer schema version is refused with StoreError."""
    path = tmp_path / "s.db"
    SQLiteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer ruleweave"):
        SQLiteStore(path)


def test_directory_cannot_be_created(tmp_path: Path) -> None:
    """A path below a regular file raises StoreError naming the path, at construction."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match=r"Cannot open the SQLite store .*file/sub/state\.db"):
        SQLiteStore(blocker / "sub" / "state.db")


def test_path_is_a_directory(tmp_path: Path) -> None:
    """A directory where the file should be raises StoreError."""
    (tmp_path / "state.db").mkdir()
    with pytest.raises(StoreError, match=r"state\.db"):
        SQLiteStore(tmp_path / "state.db")


def test_locked_database_raises_store_error(tmp_path: Path) -> None:
    """A write blocked past the busy timeout by another connection raises StoreError naming the file."""
    path = tmp_path / "s.db"
    store = SQLiteStore(path, busy_timeout=0.1)
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        expected = r"Could not claim keys in the SQLite store .*s\.db: database is locked"
        with pytest.raises(StoreError, match=expected):
            store.claim("s", "k")
        assert time.monotonic() - started < 5
        blocker.execute("ROLLBACK")
        assert store.claim("s", "k")  # the store recovers once the lock is gone
    finally:
        blocker.close()
        store.close()


def test_async_twins_do_not_block_the_loop(tmp_path: Path) -> None:
    """While an aclaim waits for another connection's lock, the event loop keeps running."""
    path = tmp_path / "s.db"
    store = SQLiteStore(path, busy_timeout=5)
    blocker = sqlite3.connect(path, isolation_level=None)

    async def main() -> tuple[bool, int]:
        blocker.execute("BEGIN IMMEDIATE")
        claim = asyncio.create_task(store.aclaim("s", "k"))
        ticks = 0
        for _ in range(20):
            await asyncio.sleep(0.01)
            ticks += 1
        assert not claim.done()
        blocker.execute("COMMIT")
        return await claim, ticks

    try:
        won, ticks = asyncio.run(main())
        assert won and ticks == 20
    finally:
        blocker.close()
        store.close()


def test_bad_arguments(tmp_path: Path) -> None:
    """A non-positive ttl or busy timeout is a ConfigError."""
    with pytest.raises(ConfigError):
        SQLiteStore(tmp_path / "s.db", ttl=0)
    with pytest.raises(ConfigError):
        SQLiteStore(tmp_path / "s.db", busy_timeout=-1)


def test_unencodable_key_is_a_store_error(tmp_path: Path) -> None:
    """A key SQLite cannot hold (a lone surrogate) raises StoreError rather than a foreign error."""
    store = SQLiteStore(tmp_path / "s.db")
    try:
        with pytest.raises(StoreError):
            store.claim("s", "\udc80")
        assert store.claim("s", "ok")
    finally:
        store.close()


def test_fork_safety_reopens(tmp_path: Path) -> None:
    """A store used in a forked child opens its own connection there."""
    if not hasattr(os, "fork"):
        pytest.fail("this test needs os.fork")
    store = SQLiteStore(tmp_path / "s.db")
    store.claim("s", "parent")
    ctx = multiprocessing.get_context("fork")
    child = ctx.Process(target=store.claim, args=("s", "child"))
    child.start()
    child.join(timeout=30)
    try:
        assert child.exitcode == 0
        assert not store.claim("s", "child")
    finally:
        store.close()
