"""RedisStore against a real redis-server: races, TTLs, key layout, round trips and failures."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import time
import uuid
import warnings
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
import redis
import redis.asyncio
from redis.crc import key_slot

from ruleweave._kernel.state import redact_url
from ruleweave.errors import ConfigError, StoreError
from ruleweave.store import RedisStore
from ruleweave.store._redis_scripts import session_tag
from tests.redis_server import RedisServer, free_port, start_redis_server
from tests.store.redis_probe import AsyncCountingConnection, CountingConnection, commandstats, delta

T = TypeVar("T")


@pytest.fixture
def prefix() -> str:
    """A key prefix no other test uses."""
    return f"t{uuid.uuid4().hex[:12]}:"


@pytest.fixture
def raw(redis_url: str) -> Iterator[redis.Redis]:
    """A plain client on the test server, for looking at keys directly."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    client.close()


@pytest.fixture
def store(redis_url: str, prefix: str) -> Iterator[RedisStore]:
    """A RedisStore with a private prefix."""
    made = RedisStore.from_url(redis_url, prefix=prefix)
    yield made
    made.close()


def hash_tag(key: str) -> str | None:
    """The part of ``key`` Redis Cluster hashes: the first non-empty ``{…}``, else None (whole key)."""
    start = key.find("{")
    if start < 0:
        return None
    end = key.find("}", start + 1)
    if end <= start + 1:
        return None
    return key[start + 1 : end]


# -- races --------------------------------------------------------------------------------------------


def test_async_clients_claim_exactly_once(redis_url: str, prefix: str) -> None:
    """8 stores (8 async clients) × 32 tasks race for one key and overlapping key sets: one winner each."""

    async def main() -> tuple[list[bool], dict[str, int]]:
        stores = [RedisStore.from_url(redis_url, prefix=prefix) for _ in range(8)]
        try:
            single = await asyncio.gather(*(s.aclaim("s", "the-key") for s in stores for _ in range(32)))
            many = await asyncio.gather(
                *(
                    s.aclaim_many("s", [f"k{(i + j) % 40}" for j in range(10)], call_id=f"{n}-{i}")
                    for n, s in enumerate(stores)
                    for i in range(32)
                )
            )
        finally:
            for s in stores:
                await s.aclose()
        wins: dict[str, int] = {}
        for i, result in enumerate(many):
            for j, ok in enumerate(result):
                key = f"k{(i % 32 + j) % 40}"
                wins[key] = wins.get(key, 0) + ok
        return list(single), wins

    single, wins = asyncio.run(main())
    assert single.count(True) == 1
    assert wins == {f"k{n}": 1 for n in range(40)}


# -- key layout and expiry --------------------------------------------------------------------------------


def test_keys_share_one_hash_slot(store: RedisStore, raw: redis.Redis, prefix: str) -> None:
    """All keys of a session start with the prefix and hash to one slot, whatever the session id holds."""
    sids = ["plain", "a}b", "{x}", "", "%7D", "}", "%", "}{", "🙂"]
    tags = set()
    for sid in sids:
        store.claim_many(sid, ["k"], call_id="c", records=["r"])
        store.put(sid, "v", "1")
        keys = sorted(raw.scan_iter(match=f"{prefix}*"))
        mine = [k for k in keys if hash_tag(k) == session_tag(sid)]
        assert len(mine) == 3, (sid, keys)
        assert {key_slot(k.encode()) for k in mine} == {key_slot(session_tag(sid).encode())}
        assert all(k.startswith(prefix) for k in mine)
        tags.add(hash_tag(mine[0]))
    assert len(tags) == len(sids)  # distinct sessions, distinct tags
    parts = ("claims", "calls", "values", "queue", "record")
    assert set(store.keys("a}b")) == {f"{prefix}{{a%7Db}}:{part}" for part in parts}


def test_ttl_is_set_and_refreshed(redis_url: str, prefix: str, raw: redis.Redis) -> None:
    """Every write and read sets the session keys' TTL to the store's ttl."""
    store = RedisStore.from_url(redis_url, prefix=prefix, ttl=100)
    try:
        store.claim_many("s", ["a"], call_id="c")
        store.put("s", "v", "1")
        store.enqueue("s", ["q"])
        store.record("s", ["r"])
        for key in store.keys("s"):  # the delivery queue and record too
            assert 98 <= raw.ttl(key) <= 100, key
        raw.pexpire(store.keys("s")[0], 5_000)
        store.get("s", "v")  # a read counts as use
        assert raw.pttl(store.keys("s")[0]) > 90_000
    finally:
        store.close()


def test_ttl_expires_a_session(redis_url: str, prefix: str) -> None:
    """After ttl seconds unused, the session's claims, ledger and values are gone."""
    store = RedisStore.from_url(redis_url, prefix=prefix, ttl=1.0)
    try:
        store.claim_many("s", ["a"], call_id="c", records=["r"])
        store.put("s", "v", "1")
        time.sleep(0.6)
        assert not store.claim("s", "a")  # refreshes
        time.sleep(0.6)  # 1.2 s after the first use, 0.6 s after the last
        assert store.get("s", "v") == "1"
        time.sleep(1.3)
        assert store.ledger("s", ["c"]) == {}
        assert store.get("s", "v") is None
        assert store.claim("s", "a")
    finally:
        store.close()


def test_forget_deletes_every_key(store: RedisStore, raw: redis.Redis, prefix: str) -> None:
    """forget leaves no key of the session behind."""
    store.claim_many("s", ["a"], call_id="c")
    store.put("s", "v", "1")
    store.put("t", "v", "1")
    store.forget("s")
    assert all(hash_tag(k) == "t" for k in raw.scan_iter(match=f"{prefix}*"))


# -- round trips ------------------------------------------------------------------------------------------


@pytest.fixture
def counted(redis_url: str, prefix: str) -> Iterator[RedisStore]:
    """A RedisStore whose sync and async clients count the requests they send."""
    client = redis.Redis.from_url(redis_url, connection_class=CountingConnection)
    aclient = redis.asyncio.Redis.from_url(redis_url, connection_class=AsyncCountingConnection)
    made = RedisStore(client, aclient=aclient, prefix=prefix)
    yield made
    made.close()


@pytest.mark.parametrize("count", [1, 50])
def test_one_round_trip_per_claim_many(counted: RedisStore, raw: redis.Redis, count: int) -> None:
    """claim_many of 1 or 50 keys with records: the client sends one request, the server runs one EVALSHA."""
    counted.claim_many("warm", ["x"], call_id="c")  # loads the script and opens the connection
    keys = [f"inject:{i}" for i in range(count)]
    sent, before = CountingConnection.sent, commandstats(raw)
    assert counted.claim_many("s", keys, call_id="c", records=keys) == [True] * count
    assert CountingConnection.sent - sent == 1
    ran = delta(before, commandstats(raw))
    assert ran.pop("evalsha") == 1
    assert ran == {"hsetnx": count, "hget": 1, "hset": 1, "pexpire": 5}  # all inside the script


def test_one_round_trip_per_operation(counted: RedisStore) -> None:
    """Every other operation is one request too, the async twins included."""
    counted.claim_many("s", ["a", "b"], call_id="c")
    operations: list[Callable[[], object]] = [
        lambda: counted.claim("s", "z"),
        lambda: counted.ledger("s", ["c", "d", "e"]),
        lambda: counted.release("s", "a"),
        lambda: counted.forget_calls("s", ["c", "d"]),
        lambda: counted.put("s", "v", "1"),
        lambda: counted.get("s", "v"),
        lambda: counted.incr("s", "n"),
        lambda: counted.forget("s"),
    ]
    for operation in operations:
        operation()  # warm: script loaded
        sent = CountingConnection.sent
        operation()
        assert CountingConnection.sent - sent == 1

    async def main() -> None:
        await counted.aclaim_many("s", ["w"])  # warm the async connection
        for count in (1, 50):
            sent = AsyncCountingConnection.sent
            await counted.aclaim_many("s", [f"k{i}" for i in range(count)], call_id="c")
            assert AsyncCountingConnection.sent - sent == 1
        for operation in (
            counted.aledger("s", ["c"]),
            counted.arelease("s", "k1"),
            counted.aforget_calls("s", ["c"]),
            counted.aincr("s", "n"),
            counted.aforget("s"),
        ):
            sent = AsyncCountingConnection.sent
            await operation
            assert AsyncCountingConnection.sent - sent == 1
        await counted.aclose()

    asyncio.run(main())


def test_scripts_reload_after_flush(store: RedisStore, raw: redis.Redis) -> None:
    """After SCRIPT FLUSH (or a restart) the store loads its scripts again by itself."""
    store.claim("s", "a")
    raw.script_flush()
    assert store.claim_many("s", ["a", "b"]) == [False, True]

    async def main() -> bool:
        raw.script_flush()
        won = await store.aclaim("s", "c")
        await store.aclose()
        return won

    assert asyncio.run(main())


# -- counters -----------------------------------------------------------------------------------------------


def test_incr_overflow(store: RedisStore) -> None:
    """A counter that would leave 64 bits raises StoreError and keeps its value."""
    store.put("s", "n", str(2**63 - 2))
    assert store.incr("s", "n") == 2**63 - 1
    with pytest.raises(StoreError, match="overflow"):
        store.incr("s", "n")
    assert store.get("s", "n") == str(2**63 - 1)
    with pytest.raises(StoreError, match="64-bit"):
        store.incr("s", "n", 2**64)


# -- clients and configuration ----------------------------------------------------------------------------


def test_given_clients(redis_url: str, prefix: str) -> None:
    """A store built from a sync client (decoding or not) serves the async twins through a thread."""
    for decode in (False, True):
        client = redis.Redis.from_url(redis_url, decode_responses=decode)
        store = RedisStore(client, prefix=f"{prefix}{decode}:")
        assert store.claim_many("s", ["a"], call_id="c", records=["r"]) == [True]
        assert store.ledger("s", ["c"]) == {"c": [("a", "r")]}
        store.put("s", "v", "é")
        assert store.get("s", "v") == "é"
        assert asyncio.run(store.aledger("s", ["c"])) == {"c": [("a", "r")]}
        assert not asyncio.run(store.aclaim("s", "a"))
        store.close()


def test_given_async_client_only(redis_url: str, prefix: str) -> None:
    """A store built from an async client serves the async twins; the sync ones say what is missing."""

    async def main() -> None:
        aclient = redis.asyncio.Redis.from_url(redis_url, decode_responses=True)
        store = RedisStore(aclient=aclient, prefix=prefix)
        assert await store.aclaim_many("s", ["a", "a"]) == [True, False]
        assert await store.aincr("s", "n") == 1
        await store.aforget("s")
        assert await store.aclaim("s", "a")
        with pytest.raises(ConfigError, match="only an async client"):
            store.claim("s", "a")
        await store.aclose()

    asyncio.run(main())


def test_ended_loops_release_their_clients(store: RedisStore) -> None:
    """aclose drops the loop's client; a loop that ended without it loses its client to the next loop."""

    async def closed(key: str) -> bool:
        try:
            return await store.aclaim("s", key)
        finally:
            await store.aclose()

    assert asyncio.run(closed("a")) and asyncio.run(closed("b"))
    assert len(store._loop_clients) == 0
    with warnings.catch_warnings():
        # The ended loop's sockets can no longer be closed politely: the collector warns.
        warnings.simplefilter("ignore", ResourceWarning)
        assert asyncio.run(store.aclaim("s", "c"))  # no aclose
        assert asyncio.run(closed("d"))
        gc.collect()
    assert len(store._loop_clients) == 0


def test_bad_configuration(redis_url: str) -> None:
    """No client, a non-positive ttl or a brace in the prefix is a ConfigError."""
    with pytest.raises(ConfigError):
        RedisStore()
    client = redis.Redis.from_url(redis_url)
    with pytest.raises(ConfigError):
        RedisStore(client, ttl=0)
    with pytest.raises(ConfigError, match="must not hold"):
        RedisStore(client, prefix="app{1}:")
    client.close()


def test_redact_url() -> None:
    """Passwords never appear in what the store shows."""
    assert redact_url("redis://user:hunter2@host:6379/0") == "redis://user:***@host:6379/0"
    assert redact_url("redis://:hunter2@host/0") == "redis://:***@host/0"
    assert redact_url("redis://host:6379/0") == "redis://host:6379/0"


# -- failures ---------------------------------------------------------------------------------------------


def test_unreachable_server() -> None:
    """from_url on a closed loopback port: StoreError in one sentence naming the URL, password masked."""
    url = f"redis://user:hunter2@127.0.0.1:{free_port()}/0"
    started = time.monotonic()
    with pytest.raises(StoreError) as info:
        RedisStore.from_url(url)
    message = str(info.value)
    assert message.startswith(f"Cannot reach the Redis store at redis://127.0.0.1:{url.split(':')[-1]}: ")
    assert "hunter2" not in message
    assert message.endswith(".") and "\n" not in message
    assert isinstance(info.value.__cause__, redis.ConnectionError)
    assert time.monotonic() - started < 5


def test_malformed_url() -> None:
    """A URL redis-py cannot parse is a StoreError, not a foreign error, and shows no password."""
    for url in ("redis://:hunter2@127.0.0.1:notaport/0", "http://:hunter2@127.0.0.1/0"):
        with pytest.raises(StoreError, match="Cannot use the Redis URL") as info:
            RedisStore.from_url(url)
        assert "hunter2" not in str(info.value)


def test_server_killed_mid_test(tmp_path: Path, prefix: str) -> None:
    """When the server dies, sync and async calls raise StoreError quickly (the session fails open)."""
    server: RedisServer = start_redis_server(tmp_path / "doomed")
    store = RedisStore.from_url(server.url, prefix=prefix)

    async def closing(call: Awaitable[T]) -> T:
        try:
            return await call
        finally:
            await store.aclose()

    try:
        assert store.claim("s", "k")
        assert asyncio.run(closing(store.aclaim("s", "k2")))
        server.stop()
        started = time.monotonic()
        expected = rf"Could not claim keys in the Redis store at {server.url}"
        with pytest.raises(StoreError, match=expected) as info:
            store.claim("s", "k")
        assert isinstance(info.value.__cause__, redis.RedisError)
        with pytest.raises(StoreError, match="Could not read a value"):
            asyncio.run(closing(store.aget("s", "v")))
        with pytest.raises(StoreError, match="Could not forget a session"):
            store.forget("s")
        assert time.monotonic() - started < 5
    finally:
        store.close()
        server.stop()


def test_unix_socket(redis_server: RedisServer, prefix: str) -> None:
    """unix:// URLs reach the server through its socket."""
    store = RedisStore.from_url(f"unix://{redis_server.socket_path}?db=0", prefix=prefix)
    try:
        assert store.claim("s", "k")
        assert not store.claim("s", "k")
        assert "unix://" in repr(store)
    finally:
        store.close()


def test_store_package_imports_without_redis() -> None:
    """Without redis-py, RedisStore and ``from ruleweave import *`` import; building a store, from clients
    or a URL, names the extra to install."""
    code = (
        "import sys\n"
        "sys.modules['redis'] = None\n"
        "import ruleweave.store as store\n"
        "from ruleweave.errors import MissingDependencyError\n"
        "assert store.open_store('memory://') is not None\n"
        "assert 'sqlite3' not in sys.modules\n"
        "attempts = (lambda: store.RedisStore(object()), lambda: store.RedisStore.from_url('redis://localhost/0'),\n"
        "            lambda: store.open_store('redis://localhost/0'))\n"
        "for attempt in attempts:\n"
        "    try:\n"
        "        attempt()\n"
        "    except MissingDependencyError as exc:\n"
        "        assert 'ruleweave[redis]' in str(exc) and isinstance(exc.__cause__, ImportError), exc\n"
        "    else:\n"
        "        raise AssertionError('no MissingDependencyError')\n"
        "from ruleweave import *\n"
        "assert RedisStore is store.RedisStore and SQLiteStore is store.SQLiteStore\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
