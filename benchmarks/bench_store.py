"""Session store cost: claim_many on MemoryStore, SQLiteStore and RedisStore, and Redis round trips.

Per store, the median cost of one ``claim_many`` of 1 and of 10 fresh keys
with a call id and ledger records (what ``after_tool_call`` does when rules
match), as µs per call and as a ratio to ``MemoryStore``. SQLite runs on a
temporary file; Redis on a redis-server this script starts on a free
loopback port (it must be installed: ``apt-get install redis-server``), so
its numbers include a real loopback round trip. Then the requests a
``claim_many`` of 1 and of 50 keys sends to Redis, counted on the client and
as EVALSHA calls in the server's INFO commandstats. Last, ``after_tool_call``
with each store on the 1,000-rule set of ``bench_after_tool``, as ratios
to ``MemoryStore``, and the Redis requests one tool call sends.
Run: ``python benchmarks/bench_store.py``.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# The redis-server helper lives with the tests; this script runs from benchmarks/.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis
from bench_after_tool import make_paths, make_repo

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.store import MemoryStore, RedisStore, SessionStore, SQLiteStore
from tests.redis_server import start_redis_server
from tests.store.redis_probe import CountingConnection, commandstats, delta

REPEATS = 5
CALLS = {"MemoryStore": 20_000, "SQLiteStore": 2_000, "RedisStore": 2_000}
KEYS_PER_SESSION_CALLS = 100  # a new session every 100 calls keeps sessions realistically small


def batches(calls: int, width: int, tag: str) -> list[tuple[str, list[str], str, list[str]]]:
    """Per call: session id, ``width`` fresh keys, a call id and one record per key."""
    out = []
    for n in range(calls):
        keys = [f"inject:{tag}:rule{n}-{j}" for j in range(width)]
        session = f"bench-{tag}-{n // KEYS_PER_SESSION_CALLS}"
        out.append((session, keys, f"call-{n}", [f"r{j}" for j in range(width)]))
    return out


def sync_us(store: SessionStore, calls: int, width: int) -> float:
    """Median µs of one claim_many of ``width`` fresh keys, over ``REPEATS`` runs of ``calls`` calls."""
    samples = []
    for repeat in range(REPEATS):
        work = batches(calls, width, f"s{width}-{repeat}")
        start = time.perf_counter()
        for session, keys, call_id, records in work:
            store.claim_many(session, keys, call_id=call_id, records=records)
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def async_us(store: SessionStore, calls: int, width: int) -> float:
    """As ``sync_us`` with ``aclaim_many``, awaited one after another in one event loop."""

    async def run() -> float:
        samples = []
        for repeat in range(REPEATS):
            work = batches(calls, width, f"a{width}-{repeat}")
            start = time.perf_counter()
            for session, keys, call_id, records in work:
                await store.aclaim_many(session, keys, call_id=call_id, records=records)
            samples.append((time.perf_counter() - start) / calls * 1e6)
        await store.aclose()
        return statistics.median(samples)

    return asyncio.run(run())


def round_trips(store: RedisStore, raw: redis.Redis, width: int) -> tuple[int, int, int]:
    """Requests sent, EVALSHA calls and commands run by the script, for a claim_many of ``width`` keys."""
    keys = [f"trip:{width}:{j}" for j in range(width)]
    store.claim_many("trips-warm", ["warm"])  # script loaded, connection open
    sent, before = CountingConnection.sent, commandstats(raw)
    store.claim_many("trips", keys, call_id=f"c{width}", records=keys)
    ran = delta(before, commandstats(raw))
    return CountingConnection.sent - sent, ran.pop("evalsha", 0), sum(ran.values())


Measure = Callable[[SessionStore, int, int], float]


def timed(label: str, fn: Measure, store: SessionStore, calls: int) -> tuple[float, float]:
    """``fn`` for 1 key (``calls`` calls) and 10 keys (half as many), with progress on stderr."""
    print(f"  measuring {label} ...", file=sys.stderr)
    return fn(store, calls, 1), fn(store, calls // 2, 10)


def ping_us(raw: redis.Redis, calls: int = 2_000) -> float:
    """Median µs of a bare PING: the floor of any one round trip to this server."""
    samples = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(calls):
            raw.ping()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def after_tool_call(base: Path, stores: dict[str, SessionStore], counted: RedisStore) -> None:
    """``after_tool_call`` on bench_after_tool's 1,000-rule repo, per store, as ratios to memory.

    A first pass over 3,000 paths in a fresh session wins most claims (writes);
    the second pass repeats them (every claim lost: the steady state of a long
    session). Then the Redis requests one call sends, for calls whose paths
    call for 0, 1 and 3 notices.
    """
    ruleset = RuleSet.load(RuleweaveConfig(cwd=make_repo(base, 1000), builtin_rules=False))
    paths = make_paths(3000, 1000)
    print("after_tool_call, 1,000 scoped rules, 3,000 paths, µs per call (median of 3 sessions)")
    print(f"{'':22}{'first pass':>12}{'steady':>10}{'vs memory':>12}{'steady':>9}")
    results: dict[str, tuple[float, float]] = {}
    # Warm the rule set's lazy parts (glob groups compile on first use) before any store is timed.
    warmup = ruleset.session("bench-warm", store=MemoryStore())
    for i, path in enumerate(paths):
        warmup.after_tool_call("read_file", {"path": path}, call_id=f"w{i}")
    for name, store in stores.items():
        first: list[float] = []
        steady: list[float] = []
        for run in range(3):
            session = ruleset.session(f"bench-{name}-{run}", store=store)
            for out in (first, steady):
                start = time.perf_counter()
                for i, path in enumerate(paths):
                    session.after_tool_call("read_file", {"path": path}, call_id=f"c{i}")
                out.append((time.perf_counter() - start) / len(paths) * 1e6)
        results[name] = (statistics.median(first), statistics.median(steady))
    memory = results["MemoryStore"]
    for name, (cold, warm) in results.items():
        print(f"{name:22}{cold:12.1f}{warm:10.1f}{cold / memory[0]:11.1f}x{warm / memory[1]:8.1f}x")
    session = ruleset.session("bench-trips", store=counted)
    for label, args in (
        ("0 notices", {"path": "docs/nothing/here.md"}),
        ("1 notice", {"path": "packages/pkg5/src/a.md"}),
        ("3 notices", {"paths": ["packages/pkg1/a.tsx", "packages/pkg2/b.py", "packages/pkg3/c.go"]}),
    ):
        before = CountingConnection.sent
        injection = session.after_tool_call("read_file", args, call_id=label)
        count = len(injection.items) if injection else 0
        print(f"  Redis requests for one call with {label} ({count} injected): "
              f"{CountingConnection.sent - before}")


def row(name: str, one: float, ten: float, base: Sequence[float]) -> str:
    return f"{name:22}{one:10.1f}{ten:10.1f}{ten / 10:12.2f}{one / base[0]:11.0f}x{ten / base[1]:10.0f}x"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        server = start_redis_server(base / "redis")
        stores: dict[str, SessionStore] = {
            "MemoryStore": MemoryStore(),
            "SQLiteStore": SQLiteStore(base / "state" / "state.db"),
            "RedisStore": RedisStore.from_url(server.url, prefix="bench:"),
        }
        counted = RedisStore(
            redis.Redis.from_url(server.url, connection_class=CountingConnection), prefix="bench-trips:"
        )
        raw = redis.Redis.from_url(server.url)
        try:
            results: dict[str, tuple[float, float]] = {}
            for name, store in stores.items():
                results[name] = timed(name, sync_us, store, CALLS[name])
            for name in ("SQLiteStore", "RedisStore"):
                results[f"{name} (async)"] = timed(f"{name} async", async_us, stores[name], CALLS[name])
            trips = {width: round_trips(counted, raw, width) for width in (1, 50)}
            ping = ping_us(raw)
            memory = results["MemoryStore"]

            print("claim_many of fresh keys with call id and records, µs per call (median of 5 runs)")
            print(f"{'':22}{'1 key':>10}{'10 keys':>10}{'µs/key @10':>12}{'vs memory':>12}{'@10':>11}")
            for name, (one, ten) in results.items():
                print(row(name, one, ten, memory))
            print(f"{'Redis PING (floor)':22}{ping:10.1f}   one bare loopback round trip, for scale")
            print()
            print("Redis round trips per claim_many (client requests sent; EVALSHA calls on the server)")
            for width, (sent, evalsha, inside) in trips.items():
                noun = "keys" if width > 1 else "key "
                print(f"  {width:>2} {noun}: {sent} request, {evalsha} EVALSHA", end="")
                print(f" ({inside} commands run by the script)")
            print()
            after_tool_call(base, stores, counted)
        finally:
            for store in stores.values():
                store.close()
            counted.close()
            raw.close()
            server.stop()


if __name__ == "__main__":
    main()

