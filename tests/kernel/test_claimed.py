"""The memo of claimed keys (``ruleweave._kernel.claimed``): trusted only while no release can have come
between the claim it records and now, on the same state file, for a bounded time."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleweave._kernel import claimed
from ruleweave._kernel.claimed import holding, known, memo_path, unclaiming
from ruleweave.store import SQLiteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    """A store that has made its file."""
    made = SQLiteStore(tmp_path / "state.db")
    yield made
    made.close()


def remember(db: str, session: str, keys: list[str], at: float | None = None) -> None:
    """What the hook's warm path does around a claim: hold, claim (here: nothing), write the memo."""
    held = holding(db)
    assert held is not None
    try:
        held.remember(session, keys, time.time() if at is None else at, None)
    finally:
        held.release()


def test_a_memo_vouches_for_the_keys_it_holds_and_no_others(store: SQLiteStore) -> None:
    db = str(store.path)
    assert not known(db, "s", ["inject:a"], None, time.time())  # no memo yet
    remember(db, "s", ["inject:a"])
    remember(db, "s", ["inject:b"])  # merged with the memo that still holds
    now = time.time()
    assert known(db, "s", ["inject:a", "inject:b"], None, now)
    assert not known(db, "s", ["inject:a", "inject:c"], None, now)  # one key unknown: the store decides
    assert not known(db, "other", ["inject:a"], None, now)  # another session's claims are not these
    assert not known(db, "s", [], None, now)  # nothing to vouch for: the caller has its own answer


@pytest.mark.parametrize(
    "release",
    [
        lambda s: s.release("s", "inject:"),
        lambda s: s.forget_calls("s", ["c1"]),
        lambda s: s.forget("s"),
    ],
    ids=["release", "forget_calls", "forget"],
)
def test_every_release_makes_the_memos_untrusted(store: SQLiteStore, release: object) -> None:
    """Keys released in the store (compaction, dropped tool calls, a forgotten session): no memo
    written before vouches for any key again, not even for keys the release left claimed."""
    db = str(store.path)
    store.claim_many("s", ["inject:a", "inject:b"], call_id="c1", records=["ra", "rb"])
    remember(db, "s", ["inject:a", "inject:b"])
    remember(db, "t", ["inject:a"])
    assert known(db, "s", ["inject:a"], None, time.time())
    release(store)  # type: ignore[operator]
    assert not known(db, "s", ["inject:a"], None, time.time())
    assert not known(db, "t", ["inject:a"], None, time.time())


def test_claims_leave_the_memos_trusted(store: SQLiteStore) -> None:
    """A claim never undoes one: claiming, storing values and reading leave every memo as it was."""
    db = str(store.path)
    remember(db, "s", ["inject:a"])
    store.claim_many("s", ["inject:b"], call_id="c2", records=["rb"])
    store.put("s", "k", "v")
    store.incr("s", "n")
    store.ledger("s", ["c2"])
    assert known(db, "s", ["inject:a"], None, time.time())


def test_a_release_waits_for_a_claim_in_flight_and_then_wins(store: SQLiteStore) -> None:
    """A hook holds the epoch lock from before its claim until its memo is written: a release cannot
    come in between, and once it has run, the memo written inside the hold is not trusted."""
    db = str(store.path)
    held = holding(db)
    assert held is not None
    released = threading.Event()

    def release() -> None:
        store.release("s", "inject:")
        released.set()

    worker = threading.Thread(target=release)
    worker.start()
    assert not released.wait(0.3)  # blocked behind the hold
    held.remember("s", ["inject:a"], time.time(), None)
    assert known(db, "s", ["inject:a"], None, time.time())
    held.release()
    worker.join(10)
    assert released.is_set()
    assert not known(db, "s", ["inject:a"], None, time.time())


def test_no_memo_is_written_while_a_release_runs(store: SQLiteStore) -> None:
    """A hook that finds the lock taken by a release claims without a memo (it never waits for one)."""
    fd = unclaiming(str(store.path))
    try:
        assert holding(str(store.path)) is None
    finally:
        claimed.done(fd)
    assert holding(str(store.path)) is not None


def test_a_memo_is_trusted_for_a_bounded_time(store: SQLiteStore) -> None:
    """``MAX_AGE``, or half the store's ttl if shorter: a session answered from its memo does not
    refresh ``last_used``, so it must go back to the store well before the sweep could drop it."""
    db = str(store.path)
    now = time.time()
    remember(db, "s", ["inject:a"], at=now - claimed.MAX_AGE + 5)
    assert known(db, "s", ["inject:a"], None, now)
    assert not known(db, "s", ["inject:a"], None, now + 10)
    assert not known(db, "s", ["inject:a"], 600.0, now)  # ttl 600 s: 300 s at most
    remember(db, "s", ["inject:a"], at=now + 60)  # written in the future: a clock that jumped
    assert not known(db, "s", ["inject:a"], None, now)


def test_a_replaced_state_file_is_not_vouched_for(store: SQLiteStore, tmp_path: Path) -> None:
    """The memo names the file's device and inode: another file at the path is another store."""
    db = str(store.path)
    remember(db, "s", ["inject:a"])
    other = tmp_path / "other.db"
    SQLiteStore(other).close()
    store.close()
    os.replace(other, db)
    assert not known(db, "s", ["inject:a"], None, time.time())


def test_a_new_state_file_changes_the_token(tmp_path: Path) -> None:
    """A deleted file's inode may come back for the next one: creating the file changes the token."""
    db = tmp_path / "state.db"
    SQLiteStore(db).close()
    remember(str(db), "s", ["inject:a"])
    token = (tmp_path / "state.db-claimed" / "epoch").read_text()
    for name in ("state.db", "state.db-wal", "state.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    SQLiteStore(db).close()
    assert (tmp_path / "state.db-claimed" / "epoch").read_text() != token


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: "not json",
        lambda text: json.dumps([9, *json.loads(text)[1:]]),  # another format
        lambda text: json.dumps([1, "another", *json.loads(text)[2:]]),  # a hash clash
        lambda text: json.dumps([*json.loads(text)[:5], "soon", ["inject:a"]]),
        lambda text: json.dumps([*json.loads(text)[:2], "f" * 32, *json.loads(text)[3:]]),  # a forged token
    ],
    ids=["garbage", "format", "session", "time", "token"],
)
def test_a_damaged_or_foreign_memo_vouches_for_nothing(store: SQLiteStore, damage: object) -> None:
    db = str(store.path)
    remember(db, "s", ["inject:a"])
    path = Path(memo_path(db, "s"))
    path.write_text(damage(path.read_text()))  # type: ignore[operator]
    assert not known(db, "s", ["inject:a"], None, time.time())


def test_an_epoch_file_without_a_token_gets_one(store: SQLiteStore) -> None:
    """An emptied epoch file (a release that could not write its token) vouches for nothing until a
    hook writes a new token; memos written before it stay untrusted."""
    db = str(store.path)
    remember(db, "s", ["inject:a"])
    epoch = Path(claimed.directory(db)) / claimed.EPOCH
    epoch.write_text("")
    assert not known(db, "s", ["inject:a"], None, time.time())
    remember(db, "s", ["inject:b"])
    assert known(db, "s", ["inject:b"], None, time.time())
    assert not known(db, "s", ["inject:a"], None, time.time())


def test_the_sweep_removes_memos_of_expired_sessions(tmp_path: Path) -> None:
    """The store's sweep of expired sessions also removes memos not written since (bounded disk)."""
    clock = [1_000_000.0]
    store = SQLiteStore(tmp_path / "state.db", ttl=100, clock=lambda: clock[0])
    db = str(store.path)
    store.claim_many("old", ["inject:a"])
    remember(db, "old", ["inject:a"])
    old = Path(memo_path(db, "old"))
    os.utime(old, (clock[0] - 50, clock[0] - 50))
    clock[0] += 101
    store.claim_many("new", ["inject:a"])  # the sweep runs first
    assert not old.exists()
    assert (Path(claimed.directory(db)) / claimed.EPOCH).exists()
    store.close()
