"""Session stores: the ``SessionStore`` protocol and its implementations.

``MemoryStore`` (one process), ``SQLiteStore`` (one file, many processes),
``RedisStore`` (many machines; needs ``ruleweave[redis]``), and
``open_store(url)`` to pick one from ``memory://``, ``sqlite:///path`` or
``redis://host:port/0``. ``SQLiteStore`` and ``RedisStore`` are imported on
first access, so a process that keeps its state in memory loads neither
``sqlite3`` nor ``redis``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave._lazy import lazy_exports
from ruleweave.store.base import LedgerEntries, SessionStore
from ruleweave.store.memory import MemoryStore
from ruleweave.store.url import open_store

if TYPE_CHECKING:
    from ruleweave.store.redis import RedisStore
    from ruleweave.store.sqlite import SQLiteStore

__all__ = ["LedgerEntries", "MemoryStore", "RedisStore", "SQLiteStore", "SessionStore", "open_store"]

__getattr__ = lazy_exports(
    __name__, {"RedisStore": "ruleweave.store.redis", "SQLiteStore": "ruleweave.store.sqlite"}
)
