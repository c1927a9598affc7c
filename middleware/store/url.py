"""``open_store``: a session store from a URL (or a store object, returned as is).

* ``memory://`` — ``MemoryStore()``;
* ``sqlite://`` — ``SQLiteStore()`` at the default state path;
* ``sqlite:///abs/path/state.db`` — ``SQLiteStore("/abs/path/state.db")``;
* ``redis://host:port/0``, ``rediss://…``, ``unix:///path/redis.sock`` —
  ``RedisStore.from_url(...)``.

The query may set ``ttl`` (seconds a session lives unused) and, for Redis,
``prefix`` (the key prefix); other Redis query parameters go to redis-py
(``?socket_timeout=1``). The backends are imported only when named, so
naming ``memory://`` imports neither ``sqlite3`` nor ``redis``.
"""

from __future__ import annotations

from urllib.parse import urlencode

from ruleweave._kernel.state import parse_store_url
from ruleweave.errors import StoreError
from ruleweave.store.base import SessionStore
from ruleweave.store.memory import MemoryStore


def open_store(spec: SessionStore | str) -> SessionStore:
    """The session store ``spec`` names.

    Args:
        spec: A store object (returned unchanged) or a URL: ``memory://``,
            ``sqlite://`` (default path), ``sqlite:///abs/path/state.db``,
            ``redis://[user:password@]host:port/db``, ``rediss://…`` or
            ``unix:///path/redis.sock``; the query may set ``ttl`` and, for
            Redis, ``prefix``.

    Returns:
        The store.

    Raises:
        StoreError: The URL is malformed, names an unknown scheme, or its
            store cannot be opened (an SQLite file that cannot be created,
            an unreachable Redis server).
        MissingDependencyError: A Redis URL without redis-py installed.
    """
    if not isinstance(spec, str):
        return spec
    try:
        # The one reader of store URLs: the Claude Code hook's warm path reads them with it too.
        url = parse_store_url(spec)
    except ValueError as exc:
        raise StoreError(str(exc)) from exc
    if url.scheme == "memory":
        return MemoryStore() if url.ttl is None else MemoryStore(idle_ttl=url.ttl)
    if url.scheme == "sqlite":
        from ruleweave._kernel.sqlite import DEFAULT_TTL as SQLITE_TTL
        from ruleweave.store.sqlite import SQLiteStore

        return SQLiteStore(url.location or None, ttl=SQLITE_TTL if url.ttl is None else url.ttl)

    from ruleweave.store.redis import DEFAULT_PREFIX, DEFAULT_TTL, RedisStore

    prefix = dict(url.params).get("prefix", DEFAULT_PREFIX)  # repeated: the last one counts
    rest = urlencode([(k, v) for k, v in url.params if k != "prefix"])
    redis_url = url.location + (f"?{rest}" if rest else "")
    return RedisStore.from_url(redis_url, prefix=prefix, ttl=DEFAULT_TTL if url.ttl is None else url.ttl)
