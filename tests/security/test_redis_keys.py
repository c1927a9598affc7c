"""Session ids and keys that look like Redis hash tags, or are very large, stay apart and round-trip.

Against the real redis-server the suite starts (``tests/redis_server.py``): every session's keys share
one hash tag (Redis Cluster hashes only the part between the first ``{`` and the next ``}``), and ids
built to collide after escaping (``a}b``, ``{a}``, ``a%7Db``) are different sessions.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from ruleweave.store import RedisStore
from tests.store.test_redis import hash_tag

TRICKY_IDS = ["a}b", "{a}", "a%7Db", "a%7db", "}{", "{}", "{", "}", "%", "%25", "", "a{b}c", "{a}{b}"]


@pytest.fixture
def store(redis_url: str) -> Iterator[RedisStore]:
    made = RedisStore.from_url(redis_url, prefix=f"t{uuid.uuid4().hex[:12]}:")
    yield made
    made.close()


def test_hash_tag_lookalikes_are_separate_sessions(store: RedisStore) -> None:
    """Each tricky id claims its own key once, and no claim of one is seen by another."""
    for session in TRICKY_IDS:
        assert store.claim(session, "inject:rule:x") is True, session
    for session in TRICKY_IDS:
        assert store.claim(session, "inject:rule:x") is False, session
        store.put(session, "v", f"value of {session!r}")
    assert [store.get(s, "v") for s in TRICKY_IDS] == [f"value of {s!r}" for s in TRICKY_IDS]
    tags = [{hash_tag(k) for k in store.keys(s)} for s in TRICKY_IDS]
    assert all(len(t) == 1 and None not in t for t in tags)  # one slot per session
    assert len({next(iter(t)) for t in tags}) == len(TRICKY_IDS)  # and no two sessions share one
    assert all("{" not in tag and "}" not in tag for t in tags for tag in t if tag is not None)


def test_large_ids_keys_and_values_round_trip_through_the_scripts(store: RedisStore) -> None:
    """A 1 MiB session id, a 1 MiB claim key with its ledger record and an 8 MiB value go through the Lua
    scripts whole: claimed once, read back byte for byte, released and forgotten."""
    session = "s" * (1 << 20)
    key = "inject:" + "k" * (1 << 20)
    record = "r" * (1 << 20)
    won = store.claim_many(session, [key, "inject:small"], call_id="c1", records=[record, "x"])
    assert won == [True, True]
    assert store.claim_many(session, [key], call_id="c2", records=[record]) == [False]
    assert store.ledger(session, ["c1"]) == {"c1": [(key, record), ("inject:small", "x")]}
    big = "v\u00e9" * (4 << 20)
    store.put(session, "big", big)
    assert store.get(session, "big") == big
    store.release(session, "inject:" + "k" * 1000)
    assert store.claim(session, key) is True and store.claim(session, "inject:small") is False
    store.forget(session)
    assert store.get(session, "big") is None
