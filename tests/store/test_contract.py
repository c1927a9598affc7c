"""The SessionStore contract, run against every store implementation."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator

import pytest

from ruleweave import MemoryStore, SessionStore

STORES: dict[str, Callable[[], SessionStore]] = {"memory": MemoryStore}


@pytest.fixture(params=sorted(STORES))
def store(request: pytest.FixtureRequest) -> Iterator[SessionStore]:
    made = STORES[request.param]()
    yield made
    made.close()


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


def test_values(store: SessionStore) -> None:
    """get/put keep small string values per session."""
    assert store.get("s1", "turn") is None
    store.put("s1", "turn", "3")
    assert store.get("s1", "turn") == "3"
    assert store.get("s2", "turn") is None


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
