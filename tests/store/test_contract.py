"""The SessionStore contract, run against every store implementation (real servers, no mocks)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleweave import MemoryStore, SessionStore
from ruleweave.store import RedisStore, SQLiteStore

StoreFactory = Callable[[], SessionStore]
"""Opens another handle on the same backend state (MemoryStore: the same object)."""

STORE_KINDS = ("memory", "redis", "sqlite")

# Keys and ids that break naive prefix matching or key building: LIKE wildcards,
# glob and Lua pattern characters, hash-tag braces, separators, quotes, Unicode.
AWKWARD = (
    "%", "_", "{", "}", "{}", ":", "#", "/", "*", "?", "[", "]", "\\", "'", '"', " ", "é", "🙂", ".", "-",
)


@pytest.fixture(params=STORE_KINDS)
def handles(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreFactory]:
    """Per store kind, a factory of handles that share one fresh backend state."""
    made: list[SessionStore] = []
    memory = MemoryStore()
    prefix = f"test:{uuid.uuid4().hex}:"
    url = request.getfixturevalue("redis_url") if request.param == "redis" else ""

    def open_handle() -> SessionStore:
        store: SessionStore
        if request.param == "memory":
            store = memory
        elif request.param == "sqlite":
            store = SQLiteStore(tmp_path / "state" / "state.db")
        else:
            store = RedisStore.from_url(url, prefix=prefix)
        made.append(store)
        return store

    yield open_handle
    for store in made:
        store.close()


@pytest.fixture
def store(handles: StoreFactory) -> SessionStore:
    """One store of each kind, empty."""
    return handles()


def test_is_a_session_store(store: SessionStore) -> None:
    """Every implementation satisfies the runtime-checkable protocol."""
    assert isinstance(store, SessionStore)


def test_claim_once_per_session(store: SessionStore) -> None:
    """A key is claimed once per session; other sessions claim independently."""
    assert store.claim("s1", "inject:a")
    assert not store.claim("s1", "inject:a")
    assert store.claim("s2", "inject:a")


def test_release_by_prefix(store: SessionStore) -> None:
    """release() forgets only the session's keys with the prefix."""
    store.claim("s1", "inject:a")
    store.claim("s1", "ttsr:x")
    store.claim("s2", "inject:a")
    store.release("s1", "inject:")
    assert store.claim("s1", "inject:a")
    assert not store.claim("s1", "ttsr:x")
    assert not store.claim("s2", "inject:a")


def test_release_everything(store: SessionStore) -> None:
    """release() with no prefix forgets every claim of the session, and only of that session."""
    store.claim_many("s1", ["a", "b"], call_id="c", records=["ra", "rb"])
    store.claim("s2", "a")
    store.release("s1")
    assert store.claim_many("s1", ["a", "b"]) == [True, True]
    assert store.ledger("s1", ["c"]) == {}
    assert not store.claim("s2", "a")


@pytest.mark.parametrize("char", AWKWARD)
def test_prefix_matching_is_exact(store: SessionStore, char: str) -> None:
    """A prefix holding a wildcard or special character matches itself literally, nothing else."""
    prefix = f"k{char}"
    inside = [prefix, f"{prefix}x", f"{prefix}{char}", f"{prefix}:{char}"]
    outside = ["k", "kx", "k!", f"K{char}", f"x{prefix}", f"k{char}"[:-1] + "\x00"]
    store.claim_many("s", inside + outside)
    store.release("s", prefix)
    assert store.claim_many("s", inside) == [True] * len(inside)
    assert store.claim_many("s", outside) == [False] * len(outside)


def test_release_prefix_boundary(store: SessionStore) -> None:
    """Keys sorting right after the prefix's range stay: only true prefix matches go."""
    keys = ["ab", "ab\x00", "ab\U0010ffff", "ac", "aa\U0010ffff", "a", "abc", "b"]
    store.claim_many("s", keys)
    store.release("s", "ab")
    assert store.claim_many("s", keys) == [True, True, True, False, False, False, True, False]


def test_claim_many_results_in_order(store: SessionStore) -> None:
    """claim_many answers per key, in order; a key repeated in one call is won once."""
    assert store.claim("s", "b")
    assert store.claim_many("s", ["a", "b", "c", "a"]) == [True, False, True, False]
    assert store.claim_many("s", []) == []
    assert store.claim_many("s", ["a", "b", "c", "d"]) == [False, False, False, True]


def test_claim_many_large(store: SessionStore) -> None:
    """Hundreds of keys in one claim_many, with records, work in one step."""
    keys = [f"inject:rule{i}" for i in range(500)]
    assert store.claim_many("s", keys, call_id="c", records=[f"r{i}" for i in range(500)]) == [True] * 500
    assert store.ledger("s", ["c"])["c"] == [(f"inject:rule{i}", f"r{i}") for i in range(500)]


def test_ledger_records_wins_in_claim_order(store: SessionStore) -> None:
    """The ledger holds, per call, the keys it won with their records, in claim order across calls."""
    store.claim("s", "taken")
    assert store.claim_many("s", ["k2", "taken", "k1"], call_id="c1", records=["r2", "rt", "r1"]) == [
        True,
        False,
        True,
    ]
    assert store.claim_many("s", ["k0", "k1"], call_id="c1", records=["r0", "again"]) == [True, False]
    assert store.claim_many("s", ["k9"], call_id="c2") == [True]
    assert store.claim_many("s", ["k8", "k7"], call_id="c3", records=["only-one"]) == [True, True]
    assert store.ledger("s", ["c1", "c2", "c3"]) == {
        "c1": [("k2", "r2"), ("k1", "r1"), ("k0", "r0")],
        "c2": [("k9", "")],
        "c3": [("k8", "only-one"), ("k7", "")],
    }


def test_ledger_leaves_out_empty_calls(store: SessionStore) -> None:
    """Calls holding nothing, unknown ids and calls of other sessions are left out; duplicates once."""
    store.claim_many("s", ["a"], call_id="c1", records=["x"])
    store.claim_many("s", ["a"], call_id="c2", records=["y"])  # lost: c2 holds nothing
    store.claim_many("other", ["b"], call_id="c3")
    store.claim_many("s", ["n"])  # no call: no ledger entry
    ledger = store.ledger("s", ["c2", "c1", "zz", "c3", "c1"])
    assert ledger == {"c1": [("a", "x")]}
    assert store.ledger("s", []) == {}
    assert store.ledger("never-seen", ["c1"]) == {}


def test_ledger_key_order_follows_request(store: SessionStore) -> None:
    """The ledger's call ids come in the order they were asked for."""
    store.claim_many("s", ["a"], call_id="first")
    store.claim_many("s", ["b"], call_id="second")
    assert list(store.ledger("s", ["second", "first"])) == ["second", "first"]


def test_empty_call_id_is_a_call(store: SessionStore) -> None:
    """call_id='' is a call like any other (only None means no call)."""
    store.claim_many("s", ["a"], call_id="", records=["r"])
    assert store.ledger("s", [""]) == {"": [("a", "r")]}
    assert store.forget_calls("s", [""]) == {"": [("a", "r")]}
    assert store.claim("s", "a")


def test_records_round_trip(store: SessionStore) -> None:
    """Records keep JSON, quotes, backslashes, newlines, NUL and any Unicode exactly."""
    records = ['{"a": [1, "\\/"]}', "line\nbreak\ttab\r", "nul\x00byte", "🙂 é 中", "", "-", "+c", "[]", "{}"]
    keys = [f"k{i}" for i in range(len(records))]
    store.claim_many("s", keys, call_id='c"1\\', records=records)
    assert store.ledger("s", ['c"1\\']) == {'c"1\\': list(zip(keys, records, strict=True))}


def test_forget_calls_rearms_exactly_those_keys(store: SessionStore) -> None:
    """forget_calls releases the keys the calls hold, returns their entries and touches nothing else."""
    store.claim_many("s", ["a", "b"], call_id="c1", records=["ra", "rb"])
    store.claim_many("s", ["c"], call_id="c2", records=["rc"])
    store.claim_many("s", ["d"])
    store.claim_many("t", ["a"], call_id="c1", records=["other session"])
    assert store.forget_calls("s", ["c1", "nope", "c1"]) == {"c1": [("a", "ra"), ("b", "rb")]}
    assert store.ledger("s", ["c1", "c2"]) == {"c2": [("c", "rc")]}
    assert store.forget_calls("s", ["c1"]) == {}
    assert store.claim_many("s", ["a", "b", "c", "d"]) == [True, True, False, False]
    assert store.ledger("t", ["c1"]) == {"c1": [("a", "other session")]}


def test_forget_calls_after_rewin_by_another_call(store: SessionStore) -> None:
    """A key released and won again by another call belongs to the new call only."""
    store.claim_many("s", ["a", "b"], call_id="c1")
    store.forget_calls("s", ["c1"])
    store.claim_many("s", ["a"], call_id="c2", records=["new"])
    assert store.forget_calls("s", ["c1"]) == {}
    assert store.ledger("s", ["c2"]) == {"c2": [("a", "new")]}


def test_release_drops_ledger_entries(store: SessionStore) -> None:
    """release(prefix) drops the ledger entries of the keys it releases and keeps the rest."""
    store.claim_many("s", ["inject:a", "ttsr:x", "inject:b"], call_id="c1", records=["1", "2", "3"])
    store.claim_many("s", ["inject:c"], call_id="c2", records=["4"])
    store.release("s", "inject:")
    assert store.ledger("s", ["c1", "c2"]) == {"c1": [("ttsr:x", "2")]}
    assert store.forget_calls("s", ["c1", "c2"]) == {"c1": [("ttsr:x", "2")]}
    assert store.claim_many("s", ["inject:a", "ttsr:x"], call_id="c3") == [True, True]
    assert store.ledger("s", ["c3"]) == {"c3": [("inject:a", ""), ("ttsr:x", "")]}


def test_values(store: SessionStore) -> None:
    """get/put keep small string values per session, apart from claims."""
    assert store.get("s1", "turn") is None
    store.put("s1", "turn", "3")
    store.put("s1", "turn", "4")
    assert store.get("s1", "turn") == "4"
    assert store.get("s2", "turn") is None
    store.put("s1", "empty", "")
    assert store.get("s1", "empty") == ""
    assert store.claim("s1", "turn")  # claims and values are separate spaces


def test_incr(store: SessionStore) -> None:
    """incr counts from 0, adds any amount, reads put values and treats non-integers as 0."""
    assert store.incr("s", "n") == 1
    assert store.incr("s", "n", 5) == 6
    assert store.incr("s", "n", -10) == -4
    assert store.get("s", "n") == "-4"
    store.put("s", "m", "41")
    assert store.incr("s", "m") == 42
    store.put("s", "junk", "not a number")
    assert store.incr("s", "junk", 3) == 3
    store.put("s", "blank", "")
    assert store.incr("s", "blank") == 1
    assert store.incr("other", "n") == 1


def test_incr_is_atomic_across_threads(store: SessionStore) -> None:
    """Eight threads incrementing 50 times each never lose an update."""
    barrier = threading.Barrier(8)
    seen: list[int] = []

    def work() -> None:
        barrier.wait()
        for _ in range(50):
            seen.append(store.incr("s", "n"))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == list(range(1, 401))


def test_forget_drops_the_session_only(store: SessionStore) -> None:
    """forget drops claims, ledger and values of one session."""
    for sid in ("s", "t"):
        store.claim_many(sid, ["a"], call_id="c", records=["r"])
        store.put(sid, "v", "1")
    store.forget("s")
    assert store.get("s", "v") is None
    assert store.ledger("s", ["c"]) == {}
    assert store.claim("s", "a")
    assert store.get("t", "v") == "1"
    assert store.ledger("t", ["c"]) == {"c": [("a", "r")]}
    store.forget("never-seen")


@pytest.mark.parametrize("sid", ["a}b", "{x}", "", "%7D", "}", "%", "%00", "s:1/2#3", "🙂", "a b'\""])
def test_awkward_session_ids_are_separate(store: SessionStore, sid: str) -> None:
    """Session ids holding braces, percent signs or nothing at all are sessions of their own."""
    assert store.claim(sid, "k")
    store.put(sid, "v", sid)
    others = {"a}b", "{x}", "", "%7D", "}", "%", "%00", "s:1/2#3", "🙂", "a b'\"", "x"} - {sid}
    for other in sorted(others):
        assert store.get(other, "v") is None, other
    assert store.get(sid, "v") == sid
    assert not store.claim(sid, "k")


def test_threads_claim_exactly_once(store: SessionStore) -> None:
    """64 threads racing for one key: exactly one wins."""
    barrier = threading.Barrier(64)
    wins: list[bool] = []

    def race() -> None:
        barrier.wait()
        wins.append(store.claim("s", "k"))

    threads = [threading.Thread(target=race) for _ in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wins.count(True) == 1


def test_threads_claim_many_overlapping(handles: StoreFactory) -> None:
    """16 threads, each on its own handle, claim overlapping key sets: every key has one winner."""
    stores = [handles() for _ in range(16)]
    barrier = threading.Barrier(16)
    won: dict[str, int] = {}
    lock = threading.Lock()

    def race(i: int) -> None:
        keys = [f"k{(i + j) % 20}" for j in range(10)]
        barrier.wait()
        result = stores[i].claim_many("s", keys, call_id=f"c{i}", records=keys)
        with lock:
            for key, ok in zip(keys, result, strict=True):
                won[key] = won.get(key, 0) + ok

    threads = [threading.Thread(target=race, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert won == {f"k{n}": 1 for n in range(20)}
    ledger = stores[0].ledger("s", [f"c{i}" for i in range(16)])
    assert sorted(key for pairs in ledger.values() for key, record in pairs if key == record) == sorted(won)


def test_handles_share_state(handles: StoreFactory) -> None:
    """A second handle on the same backend sees claims, ledger and values of the first."""
    first, second = handles(), handles()
    first.claim_many("s", ["a"], call_id="c", records=["r"])
    first.put("s", "v", "1")
    assert not second.claim("s", "a")
    assert second.ledger("s", ["c"]) == {"c": [("a", "r")]}
    assert second.get("s", "v") == "1"


def test_async_twins(store: SessionStore) -> None:
    """The async twins share state with the sync methods; 32 tasks claim once."""

    async def main() -> list[bool]:
        await store.aput("s", "v", "x")
        assert await store.aget("s", "v") == "x"
        wins = await asyncio.gather(*(store.aclaim("s", "k") for _ in range(32)))
        await store.arelease("s", "k")
        assert await store.aclaim("s", "k")
        await store.aclose()
        return list(wins)

    assert asyncio.run(main()).count(True) == 1


def test_every_async_twin(store: SessionStore) -> None:
    """Each a-method does what its sync twin does, on the same state."""

    async def main() -> None:
        assert await store.aclaim_many("s", ["a", "b", "a"], call_id="c", records=["1", "2", "3"]) == [
            True,
            True,
            False,
        ]
        assert await store.aledger("s", ["c", "x"]) == {"c": [("a", "1"), ("b", "2")]}
        await store.arelease("s", "a")
        assert store.ledger("s", ["c"]) == {"c": [("b", "2")]}
        assert await store.aforget_calls("s", ["c"]) == {"c": [("b", "2")]}
        assert await store.aclaim("s", "b")
        assert await store.aincr("s", "n", 2) == 2
        assert await store.aincr("s", "n") == 3
        counts = await asyncio.gather(*(store.aincr("s", "m") for _ in range(20)))
        assert sorted(counts) == list(range(1, 21))
        assert await store.aget("s", "missing") is None
        await store.aforget("s")
        assert await store.aget("s", "n") is None
        assert await store.aclaim("s", "b")
        await store.aclose()

    asyncio.run(main())
    assert not store.claim("s", "b")  # a store still works after aclose


def test_async_twins_in_two_loops(store: SessionStore) -> None:
    """A store serves one event loop after another (each asyncio.run is a new loop, closed by aclose)."""

    async def turn(n: int) -> tuple[bool, int]:
        try:
            return await store.aclaim("s", f"k{n}"), await store.aincr("s", "n")
        finally:
            await store.aclose()

    for n in range(3):
        assert asyncio.run(turn(n)) == (True, n + 1)


def test_close_is_idempotent(store: SessionStore) -> None:
    """close may be called twice; the store then reconnects on use."""
    store.claim("s", "a")
    store.close()
    store.close()
    assert not store.claim("s", "a")


# -- differential: every store behaves exactly like MemoryStore ------------------------------------

_KEYS = st.sampled_from(["a", "a:", "a:b", "a%", "a_", "ab", "{}", "}", "b", "", "é", "a:é"])
_CALLS = st.sampled_from(["c1", "c2", "", "c%"])
_OPS = st.one_of(
    st.tuples(st.just("claim_many"), st.lists(_KEYS, max_size=5), st.none() | _CALLS,
              st.lists(st.text(max_size=3), max_size=5)),
    st.tuples(st.just("release"), st.sampled_from(["", "a", "a:", "a%", "{", "é"])),
    st.tuples(st.just("ledger"), st.lists(_CALLS, max_size=3)),
    st.tuples(st.just("forget_calls"), st.lists(_CALLS, max_size=3)),
    st.tuples(st.just("put"), _KEYS, st.sampled_from(["1", "x", "-3", ""])),
    st.tuples(st.just("incr"), _KEYS, st.integers(-5, 5)),
    st.tuples(st.just("get"), _KEYS),
    st.tuples(st.just("forget")),
)


def _apply(store: SessionStore, sid: str, op: tuple[object, ...]) -> object:
    name, *args = op
    if name == "claim_many":
        keys, call_id, records = args
        assert isinstance(keys, list) and isinstance(records, list)
        assert call_id is None or isinstance(call_id, str)
        return store.claim_many(sid, keys, call_id=call_id, records=records)
    if name == "release":
        store.release(sid, str(args[0]))
        return None
    if name in ("ledger", "forget_calls"):
        ids = args[0]
        assert isinstance(ids, list)
        return store.ledger(sid, ids) if name == "ledger" else store.forget_calls(sid, ids)
    if name == "put":
        store.put(sid, str(args[0]), str(args[1]))
        return None
    if name == "incr":
        amount = args[1]
        assert isinstance(amount, int)
        return store.incr(sid, str(args[0]), amount)
    if name == "get":
        return store.get(sid, str(args[0]))
    store.forget(sid)
    return None


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(_OPS, max_size=25))
def test_behaves_like_memory_store(store: SessionStore, ops: list[tuple[object, ...]]) -> None:
    """Any sequence of operations gives the same answers as MemoryStore, the reference."""
    reference = MemoryStore()
    sid = uuid.uuid4().hex  # a fresh session per example: the store fixture is shared
    for op in ops:
        assert _apply(store, sid, op) == _apply(reference, "s", op), op
