"""The state every part of a ``RuleSession`` shares, and the fail-open store seam.

``SessionCore`` holds the session's rule set, id and store, logs
``session_start``, and runs every store call through ``_safely`` /
``_asafely``: a store that fails mid-session (Redis restarted, disk full)
never raises into the agent; the call goes on as if nothing applied, a
``store_error`` event records the cause, and the next call tries again.
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ruleweave._text.echo import shown
from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ArgumentTypeError
from ruleweave.log import EventLog
from ruleweave.rules import Bucket, Rule
from ruleweave.session.notices import Notices
from ruleweave.store import SessionStore

if TYPE_CHECKING:
    from ruleweave.prompt.parts import PromptParts
    from ruleweave.steering.current import CurrentDecision
    from ruleweave.steering.loader import Steering
    from ruleweave.ttsr.index import TtsrIndex
    from ruleweave.ttsr.watcher import TtsrHit, TtsrWatcher

_T = TypeVar("_T")


class SessionRules(Protocol):
    """What a session reads of its rule set (``RuleSet`` is the implementation)."""

    @property
    def config(self) -> RuleweaveConfig: ...
    @property
    def events(self) -> EventLog: ...
    @property
    def notices(self) -> Notices: ...
    @property
    def ttsr(self) -> TtsrIndex: ...
    @property
    def steering(self) -> Steering: ...
    def find_rule(self, name: str) -> tuple[Rule, Bucket] | None: ...
    def rule_names(self) -> tuple[str, ...]: ...
    def prompt_parts(self, custom_system_prompt: str | None = None, steering: str = "") -> PromptParts: ...
    def bucket_of(self, name: str) -> Bucket | None: ...


class SessionCore:
    """What every part of a session shares: its rule set, id, store, events and fail-open store calls.

    Args:
        ruleset: The shared rule set.
        session_id: The conversation's id.
        store: Per-session state.
        context: Extra fields for the ``session_start`` event.
        ttsr_retries: Retries per turn after streamed-rule interrupts
            (default ``config.ttsr_retries``).

    Raises:
        ArgumentTypeError: ``session_id`` is not a non-empty string.
    """

    def __init__(
        self,
        ruleset: SessionRules,
        session_id: str,
        store: SessionStore,
        context: dict[str, Any] | None = None,
        *,
        ttsr_retries: int | None = None,
    ) -> None:
        if not isinstance(session_id, str) or not session_id:
            raise ArgumentTypeError(f"A session id must be a non-empty string, not {shown(session_id)}.")
        self.ruleset = ruleset
        self.session_id = session_id
        self.store = store
        self.ttsr_retries = ruleset.config.ttsr_retries if ttsr_retries is None else ttsr_retries
        self._made_steering: CurrentDecision | None = None
        self._make_steering_lock = _thread.allocate_lock()
        self._turn: int | None = None
        self._made_watcher: TtsrWatcher | None = None
        self._make_watcher_lock = _thread.allocate_lock()
        # Stream buffers are shared by every stream of the session; parallel tool
        # calls may feed them from several threads.
        self._watch_lock = _thread.allocate_lock()
        # Reminders wait here for the tool result they go on: they live from a
        # stream to the next tool result, inside one process.
        self._reminders: dict[str | None, list[TtsrHit]] = {}
        self._cwd = str(ruleset.config.cwd)
        if ruleset.events.enabled:  # the fields cost a prompt render and a config dump
            parts = ruleset.prompt_parts()
            self._emit(
                "session_start",
                cwd=str(ruleset.config.cwd),
                project_root=str(ruleset.config.root),
                prompt_sha256=parts.sha256,
                prompt_bytes=len(parts.text.encode("utf-8")),
                instructions_bytes=len(parts.instructions.encode("utf-8")),
                generic_rules=list(parts.generic_rules),
                domain_rules=list(parts.domain_rules),
                budget_cut=[list(cut) for cut in parts.budget.cut],
                options=ruleset.config.replayable_options(),
                **(context or {}),
            )

    @property
    def _steering(self) -> CurrentDecision:
        """The session's steering decision, made (and the SkillSpec read) on first use: a session
        that only gets after-tool notices never imports the steering machinery."""
        current = self._made_steering
        if current is None:
            with self._make_steering_lock:
                current = self._made_steering
                if current is None:
                    from ruleweave.steering.current import CurrentDecision

                    ruleset = self.ruleset
                    current = CurrentDecision(ruleset.steering, ruleset.ttsr.tool_names.canonical)
                    self._made_steering = current
        return current

    @property
    def _watcher(self) -> TtsrWatcher:
        """The session's stream watcher, made (and its module imported) on first use."""
        watcher = self._made_watcher
        if watcher is None:
            with self._make_watcher_lock:  # one watcher per session, whichever thread asks first
                watcher = self._made_watcher
                if watcher is None:
                    from ruleweave.ttsr.watcher import TtsrWatcher

                    watcher = self._made_watcher = TtsrWatcher(self.ruleset.ttsr, self.store, self.session_id)
        return watcher

    def _new_watcher_turn(self) -> None:
        """Clear the watcher's buffers for a new turn (a watcher not made yet has none)."""
        if self._made_watcher is not None:
            self._made_watcher.new_turn()

    def _emit(self, event: str, **fields: Any) -> None:
        self.ruleset.events.emit(event, session=self.session_id, **fields)

    def _safely(self, operation: str, call: Callable[[], _T], fallback: _T) -> _T:
        """``call()``, or ``fallback`` with a ``store_error`` event when the store fails (fail-open)."""
        try:
            return call()
        except Exception as exc:
            self._store_failed(operation, exc)
            return fallback

    async def _asafely(self, operation: str, call: Callable[[], Awaitable[_T]], fallback: _T) -> _T:
        """Async twin of ``_safely``."""
        try:
            return await call()
        except Exception as exc:
            self._store_failed(operation, exc)
            return fallback

    def _store_failed(self, operation: str, exc: Exception) -> None:
        """The ``store_error`` event of a store call that raised (for hot paths that inline ``_safely``)."""
        self._emit("store_error", operation=operation, error=f"{type(exc).__name__}: {exc}")


def check_call(name: object, call_id: object = None) -> None:
    """Refuse a tool name that is not a string, or a call id that is neither a string nor ``None``.

    Raises:
        ArgumentTypeError: Naming the argument, with a capped echo of the value.
    """
    if not isinstance(name, str):
        raise ArgumentTypeError(f"A tool name must be a string, not {shown(name)}.")
    if call_id is not None and not isinstance(call_id, str):
        raise ArgumentTypeError(f"A tool call id must be a string or None, not {shown(call_id)}.")


def check_text(what: str, text: object, facts: object = None) -> None:
    """Refuse ``text`` that is not a string, or ``facts`` that are neither a mapping nor ``None``.

    Raises:
        ArgumentTypeError: Naming ``what``, with a capped echo of the value.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"{what} must be a string, not {shown(text)}.")
    if facts is not None and not isinstance(facts, Mapping):
        raise ArgumentTypeError(f"Task facts must be a mapping of names to booleans, not {shown(facts)}.")


def check_delta(delta: object, tool: object, call_id: object) -> None:
    """Refuse a streamed delta that is not a string, or a tool name or call id of the wrong type.

    Raises:
        ArgumentTypeError: Naming the argument, with a capped echo of the value.
    """
    if not isinstance(delta, str):
        raise ArgumentTypeError(f"A streamed delta must be a string, not {shown(delta)}.")
    if tool is not None:
        check_call(tool, call_id)
    elif call_id is not None and not isinstance(call_id, str):
        raise ArgumentTypeError(f"A tool call id must be a string or None, not {shown(call_id)}.")
