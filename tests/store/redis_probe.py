"""Watch what a Redis client sends and what the server runs (for round-trip tests and the benchmark)."""

from __future__ import annotations

from typing import Any

import redis
import redis.asyncio


class CountingConnection(redis.Connection):
    """A sync connection counting the requests it sends (no pipelining here: one request, one round trip)."""

    sent = 0

    def send_command(self, *args: Any, **kwargs: Any) -> None:
        """Count, then send."""
        CountingConnection.sent += 1
        super().send_command(*args, **kwargs)  # type: ignore[no-untyped-call]  # untyped in redis-py


class AsyncCountingConnection(redis.asyncio.Connection):
    """The asyncio twin of ``CountingConnection``."""

    sent = 0

    async def send_command(self, *args: Any, **kwargs: Any) -> None:
        """Count, then send."""
        AsyncCountingConnection.sent += 1
        await super().send_command(*args, **kwargs)


def commandstats(client: redis.Redis) -> dict[str, int]:
    """Calls per command the server has run (INFO commandstats; commands run by scripts included)."""
    return {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in client.info("commandstats").items()}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """The commands run between two ``commandstats`` snapshots (the INFO calls themselves left out)."""
    out = {name: calls - before.get(name, 0) for name, calls in after.items() if name != "info"}
    return {name: calls for name, calls in out.items() if calls}
