"""Streamed rules (TTSR) in a session: watching deltas, routing hits, turns and retries.

``SessionStreams`` is the TTSR part of ``RuleSession``: ``watch`` feeds the
session's watcher, ``route`` decides what the adapter does about a hit
(counting retries per turn in the store, keeping reminders for the tool
result they go on), ``turn_start`` and ``new_user_turn`` begin turns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ruleweave.session._core import SessionCore, check_delta
from ruleweave.ttsr.keys import TURN_KEY

if TYPE_CHECKING:
    from ruleweave.ttsr.route import TtsrRoute
    from ruleweave.ttsr.scope import Source
    from ruleweave.ttsr.watcher import TtsrHit

# The watcher and the router are imported by the calls that need them: a session whose
# rule set has no streamed rules (a Claude Code hook, most often) never loads them.

_SOURCES = ("text", "thinking", "tool")  # ttsr.scope.SOURCES, without importing it (any value compares)


class SessionStreams(SessionCore):
    """The streamed-rule half of a session (see ``RuleSession``)."""

    def watch(
        self,
        source: Source,
        delta: str,
        *,
        tool: str | None = None,
        call_id: str | None = None,
        args: Any = None,
    ) -> TtsrHit | None:
        """Feed one streamed delta to the session's streamed rules.

        Args:
            source: ``text``, ``thinking`` or ``tool``.
            delta: The new characters (for tools, the streamed argument text).
            tool: The tool's name (tool streams).
            call_id: The tool call's id, keying its buffer.
            args: The call's arguments so far (for path gates and AST conditions).

        Returns:
            A ``TtsrHit`` when rules fire (pass it to ``route`` to learn what to
            do), else ``None``. Only hits are logged, as ``ttsr`` events.

        Raises:
            ConfigError: ``source`` is not one of text, thinking, tool.
            ArgumentTypeError: ``delta`` is not a string, or ``tool``/``call_id`` not strings.
        """
        # Runs at every delta of every stream: the checks are inlined and ``_safely`` is spelled
        # out, since a lambda, a function-level import and two more calls cost as much as the scan.
        if source not in _SOURCES:
            from ruleweave.ttsr.watcher import check_source

            check_source(source)
        if not (
            isinstance(delta, str)
            and (tool is None or isinstance(tool, str))
            and (call_id is None or isinstance(call_id, str))
        ):
            check_delta(delta, tool, call_id)  # raises, naming the argument
        watcher = self._watcher
        with self._watch_lock:
            try:
                hit = watcher.watch(source, delta, tool=tool, call_id=call_id, args=args)
            except Exception as exc:  # fail-open, as ``_safely``
                self._store_failed("ttsr", exc)
                hit = None
        if hit is not None:
            self._log_hit(hit)
        return hit

    async def awatch(
        self,
        source: Source,
        delta: str,
        *,
        tool: str | None = None,
        call_id: str | None = None,
        args: Any = None,
    ) -> TtsrHit | None:
        """Async twin of ``watch``."""
        if source not in _SOURCES:
            from ruleweave.ttsr.watcher import check_source

            check_source(source)
        check_delta(delta, tool, call_id)
        hit = await self._asafely(
            "ttsr",
            lambda: self._watcher.awatch(source, delta, tool=tool, call_id=call_id, args=args),
            None,
        )
        if hit is not None:
            self._log_hit(hit)
        return hit

    def _log_hit(self, hit: TtsrHit) -> None:
        self._emit(
            "ttsr",
            source=hit.source,
            tool=hit.tool,
            call_id=hit.call_id,
            interrupt=hit.interrupt,
            rules=[rule.name for rule in hit.rules],
            offset=hit.offset,
        )

    def route(self, hit: TtsrHit, *, complete_call: bool = False) -> TtsrRoute:
        """What the adapter does about ``hit``: retry, append or refuse (see ``ttsr.route``).

        A retry is counted against the turn's ``ttsr_retries`` in the store; an
        ``append`` is kept by the session and added by ``after_tool_call`` to the
        result of the hit's tool call (or, for prose, of the next call).

        Args:
            hit: A hit from ``watch``.
            complete_call: The hit came from a whole tool call checked before it runs.

        Returns:
            The route.
        """
        used = 0
        if hit.interrupt and not complete_call:
            key = self._attempts_key(self._safely("turn", self._read_turn, 0))
            used = self._safely("retry", lambda: self.store.incr(self.session_id, key), 1) - 1
        return self._routed(hit, complete_call, used)

    async def aroute(self, hit: TtsrHit, *, complete_call: bool = False) -> TtsrRoute:
        """Async twin of ``route``."""
        used = 0
        if hit.interrupt and not complete_call:
            turn: int | str | None = self._turn
            if turn is None:
                turn = await self._asafely("turn", lambda: self.store.aget(self.session_id, TURN_KEY), None)
            key = self._attempts_key(_as_int(turn))
            used = await self._asafely("retry", lambda: self.store.aincr(self.session_id, key), 1) - 1
        return self._routed(hit, complete_call, used)

    def _read_turn(self) -> int:
        if self._turn is None:
            return _as_int(self.store.get(self.session_id, TURN_KEY))
        return self._turn

    @staticmethod
    def _attempts_key(turn: int | str | None) -> str:
        return f"ttsr:attempts:{turn}"

    def _routed(self, hit: TtsrHit, complete_call: bool, used: int) -> TtsrRoute:
        from ruleweave.ttsr.route import TtsrAction, route

        decided = route(hit, complete_call=complete_call, attempts_used=used, retries=self.ttsr_retries)
        if decided.action is TtsrAction.APPEND:
            with self._watch_lock:
                self._reminders.setdefault(decided.call_id, []).append(hit)
        self._emit(
            "ttsr_route",
            action=str(decided.action),
            call_id=decided.call_id,
            attempt=decided.attempt,
            rules=[rule.name for rule in hit.rules],
        )
        return decided

    def _take_reminders(self, call_id: str | None) -> list[TtsrHit]:
        """Reminders due on the result of ``call_id``: its own, then those for any result."""
        if not self._reminders:
            return []
        with self._watch_lock:
            own = self._reminders.pop(call_id, []) if call_id is not None else []
            return [*own, *self._reminders.pop(None, [])]

    def check_reply(self, text: str, thinking: str = "") -> TtsrRoute | None:
        """Check a whole reply that was not streamed (``invoke``, ``get_response``) like a stream.

        Its reasoning and text are fed as one delta each (tool calls in it are
        checked by ``before_tool_call``). Returns the route of the first hit —
        ``retry`` means: drop the reply and call the model again with
        ``route.text`` — or ``None``.
        """
        for source, body in (("thinking", thinking), ("text", text)):
            if body:
                hit = self.watch(cast("Source", source), body)
                if hit is not None:
                    return self.route(hit)
        return None

    async def acheck_reply(self, text: str, thinking: str = "") -> TtsrRoute | None:
        """Async twin of ``check_reply``."""
        for source, body in (("thinking", thinking), ("text", text)):
            if body:
                hit = await self.awatch(cast("Source", source), body)
                if hit is not None:
                    return await self.aroute(hit)
        return None

    def turn_start(self) -> None:
        """A new model turn: clear stream buffers and advance the turn counter in the store."""
        with self._watch_lock:
            self._new_watcher_turn()
        self._turn = self._safely("turn", lambda: self.store.incr(self.session_id, TURN_KEY), None)
        self._emit("turn_start")

    async def aturn_start(self) -> None:
        """Async twin of ``turn_start``."""
        self._new_watcher_turn()
        self._turn = await self._asafely("turn", lambda: self.store.aincr(self.session_id, TURN_KEY), None)
        self._emit("turn_start")


def _as_int(value: str | int | None) -> int:
    try:
        return int(value) if value is not None else 0
    except ValueError:
        return 0


