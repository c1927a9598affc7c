"""``RedisStore``: session state in Redis, one Lua round trip per operation.

A session's state is three hashes and two lists under one hash tag (the key layout and the
scripts are in ``ruleweave.store._redis_scripts``). Every operation is one
EVALSHA (or one DEL for ``forget``) that also renews the session's TTL with
PEXPIRE, so a session lives ``ttl`` seconds after its last use. A script
missing from the server (after a restart) costs one extra EVAL, once.

This module imports without redis-py (``from ruleweave import *`` works
without the ``redis`` extra); building a ``RedisStore`` then raises
``MissingDependencyError`` naming the extra.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Sequence
from typing import Any

from ruleweave.errors import ConfigError, MissingDependencyError, StoreError
from ruleweave.store._redis_delivery import RedisDelivery
from ruleweave.store._redis_scripts import (
    CLAIM_MANY,
    FORGET_CALLS,
    GET,
    INCR,
    LEDGER,
    PUT,
    RELEASE,
    Script,
    session_keys,
)
from ruleweave.store.base import LedgerEntries

try:
    import redis
    import redis.asyncio
    import redis.asyncio.retry
    import redis.retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import NoScriptError, RedisError
except ImportError as exc:  # exercised in a subprocess without redis
    _MISSING: ImportError | None = exc
else:
    _MISSING = None

DEFAULT_PREFIX = "ruleweave:"
"""What every key of a ``RedisStore`` starts with."""

DEFAULT_TTL = 7 * 24 * 3600.0
"""Seconds a session's keys live after its last use (one week)."""

DEFAULT_TIMEOUT = 5.0
"""Seconds to connect, and to wait for one reply, unless the caller says otherwise."""

_ASYNC_ONLY = "This RedisStore has only an async client; use the async methods or pass client=."
_RETRIES = 2  # reconnects after a dropped connection; then the caller gets StoreError

_INT64 = range(-(2**63), 2**63)


def _require_redis() -> None:
    """Fail when a store is built, not when this module is imported, if the extra is missing."""
    if _MISSING is not None:
        raise MissingDependencyError("redis", "redis") from _MISSING


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _entries(call_ids: Sequence[str], held: Sequence[bytes | str]) -> LedgerEntries:
    out: LedgerEntries = {}
    for call_id, raw in zip(call_ids, held, strict=True):
        if raw:
            out[call_id] = [(str(key), str(record)) for key, record in json.loads(_text(raw))]
    return out


def _reason(exc: BaseException) -> str:
    return (str(exc).strip() or type(exc).__name__).rstrip(".")


def _default_kwargs(kwargs: dict[str, Any], retry: object) -> dict[str, Any]:
    """Fail fast by default: a hook must not hang on a dead server (the caller's kwargs win)."""
    return {
        "socket_connect_timeout": DEFAULT_TIMEOUT,
        "socket_timeout": DEFAULT_TIMEOUT,
        "retry": retry,
        **kwargs,
    }


def _sync_retry() -> redis.retry.Retry:
    # Only on connection errors: a timed-out script may have run, and running a claim
    # twice would make its own caller lose the keys it won.
    backoff = ExponentialBackoff(cap=0.2, base=0.01)
    return redis.retry.Retry(backoff, _RETRIES, (RedisConnectionError,))


def _async_retry() -> redis.asyncio.retry.Retry:
    backoff = ExponentialBackoff(cap=0.2, base=0.01)
    return redis.asyncio.retry.Retry(backoff, _RETRIES, (RedisConnectionError,))


def _describe(client: redis.Redis | redis.asyncio.Redis) -> str:
    """The client's server as a URL rebuilt from its settings, so it never holds a password."""
    pool = client.connection_pool
    kwargs = pool.connection_kwargs
    db = kwargs.get("db", 0)
    if "path" in kwargs:
        return f"unix://{kwargs['path']}" + (f"?db={db}" if db else "")
    scheme = "rediss" if "SSL" in pool.connection_class.__name__ else "redis"
    host = str(kwargs.get("host", "localhost"))
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{kwargs.get('port', 6379)}/{db}"


class RedisStore(RedisDelivery):
    """A ``SessionStore`` in Redis: atomic across processes and machines, one round trip per call.

    Build it with ``RedisStore.from_url(url)`` (which checks the server answers)
    or from clients you made: ``client`` (``redis.Redis``) serves the sync
    methods, ``aclient`` (``redis.asyncio.Redis``) the async twins. Made from
    a URL, the store opens one async client per running event loop, on its
    first async call there (an asyncio client is bound to the loop it was
    made in); ``aclose`` closes the current loop's, so await it before a loop
    ends (after that its sockets can only be reclaimed by the garbage
    collector, with a ResourceWarning). Given only ``client``,
    the async twins run the sync client in a worker thread. Both kinds of
    client may decode responses or not.

    Args:
        client: A sync client.
        aclient: An async client, used from the loop it belongs to.
        prefix: What every key starts with (no ``{`` or ``}``: they would
            break the hash tag).
        ttl: Seconds a session's keys live after its last use (default one week).

    Raises:
        ConfigError: Neither client is given, ``ttl`` is not positive or the
            prefix holds ``{`` or ``}``.
        MissingDependencyError: redis-py is not installed (``pip install ruleweave[redis]``).
    """

    def __init__(
        self,
        client: redis.Redis | None = None,
        *,
        aclient: redis.asyncio.Redis | None = None,
        prefix: str = DEFAULT_PREFIX,
        ttl: float = DEFAULT_TTL,
    ) -> None:
        _require_redis()
        if client is not None:
            where = _describe(client)
        elif aclient is not None:
            where = _describe(aclient)
        else:
            raise ConfigError("RedisStore needs client= or aclient=, or use RedisStore.from_url(url).")
        if ttl <= 0:
            raise ConfigError("RedisStore needs ttl > 0.")
        if "{" in prefix or "}" in prefix:
            raise ConfigError(f"RedisStore key prefix {prefix!r} must not hold '{{' or '}}'.")
        self.prefix = prefix
        self.ttl = float(ttl)
        self._ttl_ms = max(1, round(self.ttl * 1000))
        self._client = client
        self._aclient = aclient
        self._where = where
        self._url: str | None = None
        self._client_kwargs: dict[str, Any] = {}
        self._loop_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis.asyncio.Redis] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_url(
        cls, url: str, *, prefix: str = DEFAULT_PREFIX, ttl: float = DEFAULT_TTL, **client_kwargs: Any
    ) -> RedisStore:
        """Connect to ``url`` (``redis://``, ``rediss://`` or ``unix://``) and check it answers PING.

        Args:
            url: The server, as redis-py's ``from_url`` takes it.
            prefix: What every key starts with.
            ttl: Seconds a session's keys live after its last use.
            **client_kwargs: Passed to ``redis.Redis.from_url`` and
                ``redis.asyncio.Redis.from_url`` (defaults: 5 s connect and
                reply timeouts, two quick reconnects).

        Returns:
            The store.

        Raises:
            ConfigError: ``ttl`` or ``prefix`` is unusable.
            StoreError: The URL is malformed or the server does not answer.
            MissingDependencyError: redis-py is not installed.
        """
        _require_redis()
        try:
            client = redis.Redis.from_url(url, **_default_kwargs(client_kwargs, _sync_retry()))
        except ValueError as exc:  # redis-py's message names the fault, never the password
            raise StoreError(f"Cannot use the Redis URL: {_reason(exc)}.") from exc
        try:
            client.ping()
        except (RedisError, OSError) as exc:
            client.close()
            raise StoreError(f"Cannot reach the Redis store at {_describe(client)}: {_reason(exc)}.") from exc
        store = cls(client, prefix=prefix, ttl=ttl)
        store._url = url
        store._client_kwargs = client_kwargs
        return store

    def __repr__(self) -> str:
        return f"RedisStore({self._where!r}, prefix={self.prefix!r})"

    # -- plumbing ---------------------------------------------------------------

    def keys(self, session_id: str) -> tuple[str, str, str, str, str]:
        """The session's Redis keys: claims, calls (the ledger), values, the delivery queue and record.

        Args:
            session_id: The session.

        Returns:
            The five key names; they share one hash tag.
        """
        return session_keys(self.prefix, session_id)

    def _fail(self, action: str, exc: BaseException) -> StoreError:
        return StoreError(f"Could not {action} in the Redis store at {self._where}: {_reason(exc)}.")

    def _call(self, action: str, script: Script, session_id: str, args: Sequence[str | int]) -> Any:
        client = self._client
        if client is None:
            raise ConfigError(_ASYNC_ONLY)
        keys = self.keys(session_id)
        try:
            try:
                return client.evalsha(script.sha, len(keys), *keys, self._ttl_ms, *args)
            except NoScriptError:
                return client.eval(script.source, len(keys), *keys, self._ttl_ms, *args)
        except (RedisError, OSError, UnicodeError) as exc:
            raise self._fail(action, exc) from exc

    def _loop_client(self) -> redis.asyncio.Redis | None:
        """The async client for the running loop (made on first use); None: use a thread."""
        if self._aclient is not None:
            return self._aclient
        if self._url is None:
            return None
        loop = asyncio.get_running_loop()
        client = self._loop_clients.get(loop)
        if client is None:
            # A client holds its loop alive; drop those of loops that have ended (their
            # sockets cannot be closed politely any more, the collector closes them).
            for ended in [old for old in self._loop_clients if old.is_closed()]:
                del self._loop_clients[ended]
            kwargs = _default_kwargs(self._client_kwargs, _async_retry())
            client = redis.asyncio.Redis.from_url(self._url, **kwargs)
            self._loop_clients[loop] = client
        return client

    async def _acall(self, action: str, script: Script, session_id: str, args: Sequence[str | int]) -> Any:
        client = self._loop_client()
        if client is None:
            return await asyncio.to_thread(self._call, action, script, session_id, args)
        keys = self.keys(session_id)
        try:
            try:
                return await client.evalsha(script.sha, len(keys), *keys, self._ttl_ms, *args)
            except NoScriptError:
                return await client.eval(script.source, len(keys), *keys, self._ttl_ms, *args)
        except (RedisError, OSError, UnicodeError) as exc:
            raise self._fail(action, exc) from exc

    @staticmethod
    def _claim_args(keys: Sequence[str], call_id: str | None, records: Sequence[str]) -> list[str]:
        args = ["0", ""] if call_id is None else ["1", call_id]
        for i, key in enumerate(keys):
            args += (key, records[i] if call_id is not None and i < len(records) else "")
        return args

    @staticmethod
    def _check_amount(amount: int) -> None:
        if amount not in _INT64:
            raise StoreError(f"Redis counters are 64-bit; cannot add {amount}.")

    # -- claims and the ledger --------------------------------------------------

    def claim(self, session_id: str, key: str) -> bool:
        """Mark ``key`` taken for the session (HSETNX in one script); True only for the first caller.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        return self.claim_many(session_id, (key,))[0]

    async def aclaim(self, session_id: str, key: str) -> bool:
        """Async twin of ``claim``."""
        return (await self.aclaim_many(session_id, (key,)))[0]

    def claim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Claim ``keys`` and record the ledger entries in one script, one round trip.

        Args:
            session_id: The session.
            keys: The keys, in order (a key repeated is won at most once).
            call_id: When given, record ``records[i]`` under this id for every key won.
            records: One string per key (missing: ``''``).

        Returns:
            Whether this caller won each key, in order.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        result = self._call("claim keys", CLAIM_MANY, session_id, self._claim_args(keys, call_id, records))
        return [bool(won) for won in result]

    async def aclaim_many(
        self,
        session_id: str,
        keys: Sequence[str],
        *,
        call_id: str | None = None,
        records: Sequence[str] = (),
    ) -> list[bool]:
        """Async twin of ``claim_many``."""
        args = self._claim_args(keys, call_id, records)
        result = await self._acall("claim keys", CLAIM_MANY, session_id, args)
        return [bool(won) for won in result]

    def release(self, session_id: str, prefix: str = "") -> None:
        """Forget the session's claimed keys starting with ``prefix``, and their ledger entries.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        self._call("release keys", RELEASE, session_id, (prefix,))

    async def arelease(self, session_id: str, prefix: str = "") -> None:
        """Async twin of ``release``."""
        await self._acall("release keys", RELEASE, session_id, (prefix,))

    def ledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """The ``(key, record)`` pairs each of ``call_ids`` holds, in claim order.

        Args:
            session_id: The session.
            call_ids: The tool call ids to look up.

        Returns:
            Per call id holding at least one key, its pairs; other ids are left out.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        unique = list(dict.fromkeys(call_ids))
        return _entries(unique, self._call("read the ledger", LEDGER, session_id, unique))

    async def aledger(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``ledger``."""
        unique = list(dict.fromkeys(call_ids))
        return _entries(unique, await self._acall("read the ledger", LEDGER, session_id, unique))

    def forget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Release exactly the keys ``call_ids`` hold and drop their entries, in one script.

        Args:
            session_id: The session.
            call_ids: The tool call ids whose keys to release.

        Returns:
            The dropped entries, as ``ledger`` would have returned them.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        unique = list(dict.fromkeys(call_ids))
        return _entries(unique, self._call("forget calls", FORGET_CALLS, session_id, unique))

    async def aforget_calls(self, session_id: str, call_ids: Sequence[str]) -> LedgerEntries:
        """Async twin of ``forget_calls``."""
        unique = list(dict.fromkeys(call_ids))
        return _entries(unique, await self._acall("forget calls", FORGET_CALLS, session_id, unique))

    # -- values -------------------------------------------------------------------

    def get(self, session_id: str, key: str) -> str | None:
        """The value stored under ``key``, or ``None``.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        value = self._call("read a value", GET, session_id, (key,))
        return None if value is None else _text(value)

    async def aget(self, session_id: str, key: str) -> str | None:
        """Async twin of ``get``."""
        value = await self._acall("read a value", GET, session_id, (key,))
        return None if value is None else _text(value)

    def put(self, session_id: str, key: str, value: str) -> None:
        """Store ``value`` under ``key``.

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        self._call("store a value", PUT, session_id, (key, value))

    async def aput(self, session_id: str, key: str, value: str) -> None:
        """Async twin of ``put``."""
        await self._acall("store a value", PUT, session_id, (key, value))

    def incr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Add ``amount`` to the counter under ``key`` atomically (HINCRBY); the new value.

        A value that is not a canonical integer counts as 0. Counters are
        64-bit: an overflow raises ``StoreError`` and leaves the value as it was.

        Raises:
            StoreError: Redis cannot be reached or failed, or the counter would overflow.
        """
        self._check_amount(amount)
        return int(self._call("increment a counter", INCR, session_id, (key, amount)))

    async def aincr(self, session_id: str, key: str, amount: int = 1) -> int:
        """Async twin of ``incr``."""
        self._check_amount(amount)
        return int(await self._acall("increment a counter", INCR, session_id, (key, amount)))

    # -- lifetime -----------------------------------------------------------------

    def forget(self, session_id: str) -> None:
        """Drop everything the store holds for the session (one DEL).

        Raises:
            StoreError: Redis cannot be reached or failed.
        """
        if self._client is None:
            raise ConfigError(_ASYNC_ONLY)
        try:
            self._client.delete(*self.keys(session_id))
        except (RedisError, OSError, UnicodeError) as exc:
            raise self._fail("forget a session", exc) from exc

    async def aforget(self, session_id: str) -> None:
        """Async twin of ``forget``."""
        client = self._loop_client()
        if client is None:
            await asyncio.to_thread(self.forget, session_id)
            return
        try:
            await client.delete(*self.keys(session_id))
        except (RedisError, OSError, UnicodeError) as exc:
            raise self._fail("forget a session", exc) from exc

    def close(self) -> None:
        """Close the sync client's connections (a later call reconnects)."""
        if self._client is not None:
            self._client.close()

    async def aclose(self) -> None:
        """Close the async client of the running loop (and, if made from a URL, the sync one)."""
        if self._aclient is not None:
            await self._aclient.aclose()
        if self._url is not None:
            client = self._loop_clients.pop(asyncio.get_running_loop(), None)
            if client is not None:
                await client.aclose()
        self.close()
