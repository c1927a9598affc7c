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

import math
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from ruleweave.errors import StoreError
from ruleweave.store.base import SessionStore
from ruleweave.store.memory import MemoryStore

SCHEMES = ("memory", "sqlite", "redis", "rediss", "unix")
"""The URL schemes ``open_store`` understands."""


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages and logs.

    Args:
        url: A store URL (or anything else).

    Returns:
        The URL, safe to show.
    """
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
    except ValueError:
        return "<unparsable URL>"


def _ttl(raw: str, shown: str) -> float:
    try:
        ttl = float(raw)
    except ValueError:
        ttl = math.nan
    if not (ttl > 0 and math.isfinite(ttl)):
        raise StoreError(f"The store URL {shown} has ttl={raw!r}; use a positive number of seconds.")
    return ttl


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
    shown = redact_url(spec)
    try:
        parts = urlsplit(spec)
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError as exc:
        raise StoreError(f"The store URL {shown} cannot be parsed: {exc}.") from exc
    scheme = parts.scheme.lower()
    params = dict(query)
    ttl = _ttl(params.pop("ttl"), shown) if "ttl" in params else None

    if scheme in ("redis", "rediss", "unix"):
        from ruleweave.store.redis import DEFAULT_PREFIX, DEFAULT_TTL, RedisStore

        prefix = params.pop("prefix", DEFAULT_PREFIX)
        rest = urlencode([(k, v) for k, v in query if k not in ("ttl", "prefix")])
        # Cut the query off by hand: urlunsplit would turn unix:///path into unix:/path.
        url = spec.partition("?")[0] + (f"?{rest}" if rest else "")
        return RedisStore.from_url(url, prefix=prefix, ttl=DEFAULT_TTL if ttl is None else ttl)

    if scheme not in SCHEMES:
        raise StoreError(
            f"Unknown store URL scheme {parts.scheme!r} in {shown}; "
            "use memory://, sqlite:///path or redis://host:port/0."
        )
    if params:
        raise StoreError(f"The store URL {shown} has unknown parameters {sorted(params)}; only ttl is known.")
    if scheme == "memory":
        if parts.netloc or parts.path:
            raise StoreError(f"The store URL {shown} should be just memory:// (with an optional ?ttl=).")
        return MemoryStore() if ttl is None else MemoryStore(idle_ttl=ttl)

    # sqlite: no host; an empty path means the default state file.
    if parts.netloc or (parts.path and not parts.path.startswith("/")):
        raise StoreError(
            f"The store URL {shown} has no absolute path; write sqlite:///abs/path/state.db "
            "(three slashes) or sqlite:// for the default file."
        )
    from ruleweave.store.sqlite import DEFAULT_TTL as SQLITE_TTL
    from ruleweave.store.sqlite import SQLiteStore

    path = unquote(parts.path) or None
    return SQLiteStore(path, ttl=SQLITE_TTL if ttl is None else ttl)
