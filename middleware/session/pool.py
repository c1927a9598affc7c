"""``SessionPool``: the sessions of one rule set by id, bounded, sharing one store.

Every adapter gets its sessions here: a LangChain thread, an OpenAI Agents
conversation, a Claude Code ``session_id``. The pool keeps at most
``max_sessions`` session objects (least recently used dropped first) and
drops one unused for ``idle_ttl`` seconds. Dropping a session object loses
nothing: its state is in the store, and the next ``get`` with the same id
continues it.
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ArgumentTypeError, ConfigError
from ruleweave.ruleset import RuleSet
from ruleweave.session._session import RuleSession
from ruleweave.store import SessionStore

DEFAULT_MAX_SESSIONS = 1024
"""Session objects a pool keeps at once."""

DEFAULT_IDLE_TTL = 3600.0
"""Seconds a pooled session object may go unused before the pool drops it."""


class SessionPool:
    """Sessions by id over one rule set and one store.

    Args:
        ruleset: The rule set every session reads.
        store: Where their state lives (default: the rule set's store).
        max_sessions: Session objects kept at once (least recently used dropped).
        idle_ttl: Seconds a session object may go unused before it is dropped.
        ttsr_retries: Retries per turn after streamed-rule interrupts (default:
            ``config.ttsr_retries``).
        clock: Monotonic time source (tests pass a fake one).
        **context: Extra fields on every session's ``session_start`` event
            (e.g. ``adapter="langchain"``).

    Raises:
        ConfigError: A bound is not positive.
    """

    def __init__(
        self,
        ruleset: RuleSet,
        *,
        store: SessionStore | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        idle_ttl: float = DEFAULT_IDLE_TTL,
        ttsr_retries: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        **context: Any,
    ) -> None:
        if max_sessions < 1 or idle_ttl <= 0:
            raise ConfigError("SessionPool needs max_sessions >= 1 and idle_ttl > 0.")
        if ttsr_retries is not None and ttsr_retries < 0:
            raise ConfigError(f"ttsr_retries must be 0 or more, not {ttsr_retries}.")
        self.ruleset = ruleset
        self.store: SessionStore = store if store is not None else ruleset.store
        self.max_sessions = max_sessions
        self.idle_ttl = idle_ttl
        self.ttsr_retries = ttsr_retries
        self._clock = clock
        self._context = context
        self._sessions: OrderedDict[str, tuple[RuleSession, float]] = OrderedDict()
        self._lock = _thread.allocate_lock()

    @classmethod
    def open(
        cls,
        config: RuleweaveConfig | None = None,
        *,
        ruleset: RuleSet | None = None,
        store: SessionStore | None = None,
        ttsr_retries: int | None = None,
        owner: str,
        **context: Any,
    ) -> SessionPool:
        """The pool an adapter starts with: from a config (loaded here) or a loaded rule set.

        Args:
            config: Where to find the rules (default: ``RuleweaveConfig()``).
            ruleset: An already loaded rule set, shared with other agents.
            store: Session state (default: the rule set's store).
            ttsr_retries: Retries per turn after streamed-rule interrupts.
            owner: The adapter class, named in errors.
            **context: Extra ``session_start`` fields (``adapter="langchain"``).

        Raises:
            ConfigError: Both ``config`` and ``ruleset`` given, or ``ttsr_retries`` < 0.
        """
        if config is not None and ruleset is not None:
            raise ConfigError(f"Give {owner} a config or a ruleset, not both.")
        loaded = ruleset if ruleset is not None else RuleSet.load(config)
        return cls(loaded, store=store, ttsr_retries=ttsr_retries, **context)

    def __len__(self) -> int:
        """Session objects held now."""
        return len(self._sessions)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._sessions

    def get(self, session_id: str) -> RuleSession:
        """The session with this id, made (or re-made, continuing from the store) when not held.

        Args:
            session_id: The conversation's id.

        Returns:
            The ``RuleSession``.

        Raises:
            ArgumentTypeError: ``session_id`` is not a non-empty string.
        """
        if not isinstance(session_id, str) or not session_id:
            raise ArgumentTypeError(f"A session id must be a non-empty string, not {session_id!r}.")
        now = self._clock()
        with self._lock:
            self._expire(now)
            held = self._sessions.get(session_id)
            if held is not None:
                self._sessions[session_id] = (held[0], now)
                self._sessions.move_to_end(session_id)
                return held[0]
            session = RuleSession(
                self.ruleset, session_id, self.store, dict(self._context), ttsr_retries=self.ttsr_retries
            )
            self._sessions[session_id] = (session, now)
            while len(self._sessions) > self.max_sessions:
                self._sessions.popitem(last=False)
            return session

    def _expire(self, now: float) -> None:
        while self._sessions:
            oldest_id, (_, used) = next(iter(self._sessions.items()))
            if now - used <= self.idle_ttl:
                return
            del self._sessions[oldest_id]

    def drop(self, session_id: str, *, forget_state: bool = False) -> None:
        """Drop the session object; with ``forget_state``, also its state in the store.

        Args:
            session_id: The session.
            forget_state: Also ``store.forget`` it (a run nothing can resume).
        """
        with self._lock:
            self._sessions.pop(session_id, None)
        if forget_state:
            try:
                self.store.forget(session_id)
            except Exception as exc:  # fail-open, as sessions do
                self._store_error(session_id, exc)

    def _store_error(self, session_id: str, exc: Exception) -> None:
        error = f"{type(exc).__name__}: {exc}"
        self.ruleset.events.emit("store_error", session=session_id, operation="forget", error=error)

    async def adrop(self, session_id: str, *, forget_state: bool = False) -> None:
        """Async twin of ``drop``."""
        with self._lock:
            self._sessions.pop(session_id, None)
        if forget_state:
            try:
                await self.store.aforget(session_id)
            except Exception as exc:  # fail-open, as sessions do
                self._store_error(session_id, exc)
