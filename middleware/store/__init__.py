"""Session stores: the ``SessionStore`` protocol and its implementations."""

from __future__ import annotations

from ruleweave.store.base import SessionStore
from ruleweave.store.memory import MemoryStore

__all__ = ["MemoryStore", "SessionStore"]
