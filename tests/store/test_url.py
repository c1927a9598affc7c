"""open_store: every URL form, its parameters, and one-sentence errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.errors import StoreError
from ruleweave.store import MemoryStore, RedisStore, SessionStore, SQLiteStore, open_store
from tests.redis_server import RedisServer


def test_store_object_is_returned_as_is() -> None:
    """A store object passes through unchanged."""
    store = MemoryStore()
    assert open_store(store) is store


def test_memory() -> None:
    """memory:// is a MemoryStore; ?ttl= sets its idle time."""
    assert isinstance(open_store("memory://"), MemoryStore)
    store = open_store("memory://?ttl=30")
    assert isinstance(store, MemoryStore) and store.idle_ttl == 30


def test_sqlite_absolute_path(tmp_path: Path) -> None:
    """sqlite:///abs/path opens that file (percent-escapes decoded); ?ttl= sets the TTL."""
    path = tmp_path / "my dir" / "state.db"
    store = open_store(f"sqlite://{tmp_path}/my%20dir/state.db?ttl=60")
    try:
        assert isinstance(store, SQLiteStore)
        assert store.path == path and store.ttl == 60
        assert store.claim("s", "k") and path.exists()
    finally:
        store.close()


def test_sqlite_default_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """sqlite:// alone opens the default state file."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path))
    store = open_store("sqlite://")
    try:
        assert isinstance(store, SQLiteStore) and store.path == tmp_path / "state.db"
    finally:
        store.close()


@pytest.mark.parametrize("url", ["sqlite://relative/state.db", "sqlite:relative.db", "sqlite://host/abs.db"])
def test_sqlite_needs_an_absolute_path(url: str) -> None:
    """A sqlite URL without three slashes and an absolute path is refused in one sentence."""
    with pytest.raises(StoreError, match="three slashes"):
        open_store(url)


def test_redis(redis_url: str) -> None:
    """redis:// opens a RedisStore; ?prefix= and ?ttl= are the store's, other parameters go to redis-py."""
    store = open_store(f"{redis_url}?prefix=app:&ttl=90&socket_timeout=2")
    try:
        assert isinstance(store, RedisStore)
        assert store.prefix == "app:" and store.ttl == 90
        assert store.claim("url-test", "k")
        store.forget("url-test")
    finally:
        store.close()


def test_unix(redis_server: RedisServer) -> None:
    """unix:///path/redis.sock opens a RedisStore over the socket."""
    store = open_store(f"unix://{redis_server.socket_path}")
    try:
        assert isinstance(store, RedisStore)
        assert store.claim("unix-test", "k")
        store.forget("unix-test")
    finally:
        store.close()


def test_rediss_to_a_plain_server_is_a_store_error(redis_server: RedisServer) -> None:
    """rediss:// to a server without TLS fails at open_store with StoreError."""
    with pytest.raises(StoreError, match="Cannot reach the Redis store at rediss://"):
        open_store(f"rediss://127.0.0.1:{redis_server.port}/0?socket_timeout=1&socket_connect_timeout=1")


def test_unknown_scheme() -> None:
    """An unknown scheme names itself and the known ones, in one sentence, password masked."""
    with pytest.raises(StoreError) as info:
        open_store("postgres://me:hunter2@db/state")
    assert str(info.value) == (
        "Unknown store URL scheme 'postgres' in postgres://me:***@db/state; "
        "use memory://, sqlite:///path or redis://host:port/0."
    )


@pytest.mark.parametrize("spec", ["", "state.db", "/abs/state.db"])
def test_not_a_url(spec: str) -> None:
    """A bare path or an empty string is an unknown scheme, not a guess."""
    with pytest.raises(StoreError, match="Unknown store URL scheme"):
        open_store(spec)


@pytest.mark.parametrize("ttl", ["0", "-1", "soon", "nan", "inf", ""])
def test_bad_ttl(ttl: str) -> None:
    """A ttl that is not a positive number of seconds is refused."""
    with pytest.raises(StoreError, match="positive number of seconds"):
        open_store(f"memory://?ttl={ttl}")


def test_unknown_parameter() -> None:
    """memory and sqlite URLs take no parameter but ttl."""
    with pytest.raises(StoreError, match="unknown parameters"):
        open_store("memory://?prefix=x")


def test_memory_with_a_path() -> None:
    """memory:// takes no host or path."""
    with pytest.raises(StoreError, match="just memory://"):
        open_store("memory://somewhere")


def test_unreachable_redis_url() -> None:
    """An unreachable Redis URL is a StoreError at open_store."""
    from tests.redis_server import free_port

    with pytest.raises(StoreError, match="Cannot reach the Redis store"):
        open_store(f"redis://127.0.0.1:{free_port()}/0")


def test_results_are_session_stores(tmp_path: Path) -> None:
    """Whatever the URL, the result satisfies the SessionStore protocol."""
    store = open_store(f"sqlite://{tmp_path}/s.db")
    try:
        assert isinstance(store, SessionStore)
    finally:
        store.close()
