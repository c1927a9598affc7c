"""The delivery queue and record of the SessionStore contract, against every store (real servers)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from ruleweave import SessionStore
from ruleweave._kernel.delivery import RECORD_LIMIT
from ruleweave._kernel.sqlite import SCHEMA, SCHEMA_VERSION
from ruleweave.store import SQLiteStore
from tests.store.test_contract import StoreFactory, handles, store

__all__ = ["handles", "store"]  # the contract's fixtures, one per store kind

AWKWARD = ['{"a": [1]}', "line\nbreak", "nul\x00byte", "🙂 é 中", "", "-", "[]"]


def test_queue_keeps_order_and_is_taken_once(store: SessionStore) -> None:
    """Items come back in order; the front goes before the first item; a take empties the queue."""
    assert store.take_queue("s") == []
    store.enqueue("s", ["b", "c"])
    store.enqueue("s", ["d"])
    store.enqueue("s", ["a0", "a1"], front=True)
    store.enqueue("s", [])
    store.enqueue("other", ["x"])
    assert store.take_queue("s") == ["a0", "a1", "b", "c", "d"]
    assert store.take_queue("s") == []
    assert store.take_queue("other") == ["x"]


def test_queue_items_round_trip(store: SessionStore) -> None:
    """Queue items keep JSON, newlines, NUL and any Unicode exactly, the empty string too."""
    store.enqueue("s", AWKWARD)
    assert store.take_queue("s") == AWKWARD


def test_queue_front_after_a_take(store: SessionStore) -> None:
    """Putting taken items back at the front keeps them before what others queued meanwhile."""
    store.enqueue("s", ["1", "2", "3"])
    taken = store.take_queue("s")
    store.enqueue("s", ["4"])  # another caller, meanwhile
    store.enqueue("s", taken[1:], front=True)
    assert store.take_queue("s") == ["2", "3", "4"]


def test_queue_taken_by_one_of_many(handles: StoreFactory) -> None:
    """Parallel takes from several handles: each item reaches exactly one taker."""
    first = handles()
    first.enqueue("s", [str(i) for i in range(200)])
    stores = [handles() for _ in range(4)]
    got: list[list[str]] = [[] for _ in stores]
    barrier = threading.Barrier(len(stores))

    def take(i: int) -> None:
        barrier.wait()
        for _ in range(5):
            got[i].extend(stores[i].take_queue("s"))

    threads = [threading.Thread(target=take, args=(i,)) for i in range(len(stores))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted((item for found in got for item in found), key=int) == [str(i) for i in range(200)]
    assert sum(1 for found in got if found) == 1  # one take got all of them at once


def test_record_appends_and_is_per_session(store: SessionStore) -> None:
    """The record keeps entries oldest first, per session; reading it changes nothing."""
    assert store.deliveries("s") == []
    store.record("s", ["e1", "e2"])
    store.record("s", [])
    store.record("t", ["other"])
    store.record("s", AWKWARD)
    assert store.deliveries("s") == ["e1", "e2", *AWKWARD]
    assert store.deliveries("s") == ["e1", "e2", *AWKWARD]
    assert store.deliveries("t") == ["other"]


def test_record_is_bounded(store: SessionStore) -> None:
    """Past RECORD_LIMIT entries the oldest are dropped."""
    store.record("s", [f"e{i}" for i in range(RECORD_LIMIT - 10)])
    store.record("s", [f"e{i}" for i in range(RECORD_LIMIT - 10, RECORD_LIMIT + 25)])
    kept = store.deliveries("s")
    assert len(kept) == RECORD_LIMIT
    assert kept[0] == "e25" and kept[-1] == f"e{RECORD_LIMIT + 24}"


def test_queue_and_record_outlive_release_not_forget(store: SessionStore) -> None:
    """Releasing claims keeps the queue and record; forget drops them with the session."""
    store.claim("s", "inject:a")
    store.enqueue("s", ["q"])
    store.record("s", ["r"])
    store.release("s")
    assert store.deliveries("s") == ["r"]
    store.forget("s")
    assert store.take_queue("s") == [] and store.deliveries("s") == []


def test_shared_between_handles(handles: StoreFactory) -> None:
    """A second handle on the same backend sees the first one's queue and record."""
    one, two = handles(), handles()
    one.enqueue("s", ["q1"])
    one.record("s", ["r1"])
    assert two.take_queue("s") == ["q1"]
    assert two.deliveries("s") == ["r1"]


def test_async_twins_of_queue_and_record(store: SessionStore) -> None:
    """The async twins do what the sync methods do."""

    async def main() -> tuple[list[str], list[str]]:
        await store.aenqueue("s", ["b"])
        await store.aenqueue("s", ["a"], front=True)
        await store.arecord("s", ["r1", "r2"])
        taken = await store.atake_queue("s")
        record = await store.adeliveries("s")
        await store.aclose()
        return taken, record

    assert asyncio.run(main()) == (["a", "b"], ["r1", "r2"])


def test_sqlite_file_of_schema_1_is_migrated(tmp_path: Path) -> None:
    """A state file written by the previous schema keeps its claims and gains the queue and record."""
    path = tmp_path / "state.db"
    conn = sqlite3.connect(path)
    for statement in SCHEMA:
        conn.execute(statement)
    conn.execute("PRAGMA application_id = 1381454676")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO sessions VALUES ('s', 1e12)")
    conn.execute("INSERT INTO claims (session, key) VALUES ('s', 'inject:a')")
    conn.commit()
    conn.close()
    store = SQLiteStore(path, clock=lambda: 1e12)
    assert not store.claim("s", "inject:a")
    store.enqueue("s", ["q"])
    store.record("s", ["r"])
    assert store.take_queue("s") == ["q"] and store.deliveries("s") == ["r"]
    store.close()
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    check.close()
