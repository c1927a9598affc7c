"""A process that races its threads against other processes on one SQLite store (run by spawn)."""

from __future__ import annotations

import os
import random
import threading
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from ruleweave.store.sqlite import SQLiteStore

RaceResult = tuple[int, dict[str, int], list[int], list[str]]
"""Single-key wins, wins per claim_many key, counter values seen, call ids that won something."""

MANY_KEYS = [f"many:{i}" for i in range(10)]


def race(path: str, start: Barrier, results: Queue[RaceResult], threads: int) -> None:
    """Open the store, line ``threads`` threads up behind ``start`` and race them; report on ``results``."""
    store = SQLiteStore(path)
    ready = threading.Barrier(threads + 1)
    lock = threading.Lock()
    single = 0
    many: dict[str, int] = dict.fromkeys(MANY_KEYS, 0)
    counts: list[int] = []
    winners: list[str] = []

    def work(index: int) -> None:
        nonlocal single
        keys = random.sample(MANY_KEYS, len(MANY_KEYS))
        call_id = f"{os.getpid()}-{index}"
        ready.wait()
        won = store.claim("s", "the-key")
        won_many = store.claim_many("s", keys, call_id=call_id, records=keys)
        count = store.incr("s", "counter")
        with lock:
            single += won
            for key, ok in zip(keys, won_many, strict=True):
                many[key] += ok
            counts.append(count)
            if any(won_many):
                winners.append(call_id)

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    start.wait()  # every process is ready: release all threads at once
    ready.wait()
    for worker in workers:
        worker.join()
    store.close()
    results.put((single, many, counts, winners))
