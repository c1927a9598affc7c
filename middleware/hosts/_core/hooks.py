"""``HostHooks``: one hook event of any host in, the hook's JSON answer out.

Shared by every ``ruleweave hook <agent>`` command (one process per event,
state in SQLite) and the Claude Agent SDK adapter (callbacks in process).
``payload`` is the hook input exactly as the agent sends it; the host's
``read_event`` makes it a ``HookEvent`` and its ``encode`` makes each answer
the JSON the agent reads (``None``: print nothing). What happens depends on
the event's kind only:

==================  =============================================================
kind                answer
==================  =============================================================
session.start       the prompt contribution as context (in parts over several
(resume, clear,     answers when longer than the limit); ``compact`` and ``clear``
compact)            re-arm the notices first (``compacted()``), and ``compact``
                    puts ``COMPACTED_HEADER`` above it; a ``resume`` answers only
                    if the contribution changed since
session.precompact  the notices re-armed; the start context (under
                    ``COMPACTED_HEADER``) waits in the queue for the next answer
user.prompt         steering for the turn: its ``<steering>`` block
tool.before         a steering refusal or an interrupting streamed rule matching
                    the complete input: a deny with the text; else, for a tool of
                    ``Host.notice_before``, the notices of the files it changes; a
                    delegating call's task waits in the store for its agent.start
tool.after          the notice for the paths the call touched (nothing new for an
                    edit whose tool.before had it), and any streamed-rule reminder
                    tool.before kept for this call
agent.start         the prompt contribution and the notices of the paths the
                    delegated task names (the subagent starts without them)
stop, chunk         an interrupting streamed rule in the reply (or the streamed
                    chunk): a block with the rule, once per turn
==================  =============================================================

A subagent's tool calls carry its ``agent_id``: their notices are claimed in
its own scope (``ledger.agent_scope``), so a subagent gets a rule the parent
already had. Its steering and streamed rules stay the session's.

Every context answer is packed by ``delivery`` from whole pieces under the
host's ``context_limit``, with what waits in the session's queue first; the
rest waits for the next answer, and the store's delivery record gets it all.
At an event where the host can add no context (its ``encode`` gives ``None``
for it), everything the event would add waits in the queue the same way.

Nothing here raises into the agent: an internal error is a ``hook_error``
line in the hook log and no answer.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ruleweave._kernel.ledger import NOTICE_PREFIX, reminder_key
from ruleweave._text.lazy_regex import LazyRegex
from ruleweave.hosts import (
    AFTER_TOOL,
    AGENT_START,
    BEFORE_TOOL,
    BLOCK,
    CHUNK,
    CONTEXT,
    DENY,
    PRE_COMPACT,
    SESSION_CLEAR,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
    HookEvent,
)
from ruleweave.hosts._core.delivery import (
    CONTINUED,
    Delivery,
    Piece,
    Plan,
    notice_pieces,
    pieces_for,
    prompt_piece,
)
from ruleweave.hosts._core.native import hook_config
from ruleweave.hosts._core.subagents import (
    akeep_task,
    atake_task,
    keep_task,
    scope,
    scoped_keys,
    take_task,
    task_matches,
)
from ruleweave.hosts._hook_log import HookLog
from ruleweave.prompt import address, one_line_escaped

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig
    from ruleweave.hosts import Answer, Host
    from ruleweave.hosts._core.delivery import Content
    from ruleweave.ruleset import RuleSet
    from ruleweave.session._session import RuleSession
    from ruleweave.session.notices import Injection, Match
    from ruleweave.store import SessionStore


_SESSION_KINDS = frozenset({SESSION_START, SESSION_RESUME, SESSION_CLEAR, SESSION_COMPACT})

_NO_EVENT = HookEvent(None, None, "")
"""What a payload that is not a JSON object reads as."""

COMPACTED_HEADER = (
    "[ruleweave: the conversation was compacted. These rules, and every rule notice that comes with a "
    "file from here on, outrank the conversation summary: where the summary and a rule disagree, "
    "follow the rule.]"
)
"""Above the start context after a compaction. The same words at the start of a line of any start
context are escaped (``_unforged``): no rule can pass for it, nor for the line above each part of a
split start context (``delivery.CONTINUED``)."""

_FORGED = LazyRegex(
    r"^([^\S\n]*)(" + re.escape(COMPACTED_HEADER[:40]) + "|" + re.escape(CONTINUED) + ")", re.MULTILINE
)

class HostHooks:
    """One object answering a host's hook events (stdin JSON dict → stdout JSON dict or None).

    Args:
        ruleset: The loaded rules, or the configuration to load them from (which loads
            them once). A rule set is loaded again without what the agent reads itself
            unless ``leave_out_native`` is false (see ``native.hook_config``); the hook
            budgets apply either way. The host's path extractors (``Host.extractors``)
            are registered on it.
        host: The agent whose events these are (``ruleweave.hosts.host(name)``).
        store: Where sessions keep their state (default: the rule set's store). Give
            every process the same persistent store (``SQLiteStore``) so claims hold
            across hook processes.
        leave_out_native: Leave out the host's native provider and the instruction files
            it loads itself.
        log: Where internal errors and cut context are written (default: the
            configured ``event_log``, else nowhere).
        queue_marks: A directory where a session whose queue holds pieces is marked
            (``ruleweave._kernel.delivery.set_mark``): the hook's warm path reads it.
    """

    def __init__(
        self,
        ruleset: RuleSet | RuleweaveConfig,
        *,
        host: Host,
        store: SessionStore | None = None,
        leave_out_native: bool = True,
        log: HookLog | None = None,
        queue_marks: str | None = None,
    ) -> None:
        from ruleweave.ruleset import RuleSet

        given = ruleset.config if isinstance(ruleset, RuleSet) else ruleset
        config = hook_config(given, host, leave_out_native=leave_out_native)
        if not isinstance(ruleset, RuleSet) or config is not ruleset.config:
            ruleset = RuleSet.load(config)
        for tool, extractor in extractors_of(host).items():
            ruleset.extractors.register(tool, extractor)
        from ruleweave.session.pool import SessionPool

        self.host = host
        self.ruleset = ruleset
        self.pool = SessionPool(ruleset, store=store, adapter=host.name)
        self.log = log if log is not None else HookLog(ruleset.config.event_log)
        self.delivery = Delivery(
            lambda exc: self._error("delivery", exc),
            marks=queue_marks, limit=host.context_limit, agent=host.title,
            address=lambda name: address(ruleset.config.templates, one_line_escaped(name)),
            unit=host.context_unit,
        )

    def session(self, session_id: str) -> RuleSession:
        """The session for the agent's ``session_id`` (state continues from the store)."""
        return self.pool.get(session_id)

    def system_prompt_append(self, session_id: str) -> str:
        """The prompt contribution SessionStart injects (for ``system_prompt`` ``append``).

        It is recorded as delivered (event ``SystemPrompt``) and marks the session as given its
        start context, as SessionStart does: a ``resume`` with unchanged rules adds nothing more.
        """
        session = self.session(session_id)
        text = session.system_prompt()
        try:
            session.store.claim(session_id, _start_key(session))
        except Exception as exc:  # fail open: a resume may then repeat the start context
            self._error("SystemPrompt", exc)
        self.delivery.record_prompt(session, text)
        return text

    # -- dispatch ---------------------------------------------------------------

    def handle(self, payload: Mapping[str, Any]) -> Answer:
        """Answer one hook event; ``None`` when there is nothing to say (never raises).

        Args:
            payload: The hook input (``session_id``, ``hook_event_name`` and the event's keys).

        Returns:
            The JSON object to print, or ``None``.
        """
        try:
            event, session = self._open(payload)
            if session is None:
                return None
            kind = event.kind
            if kind in _SESSION_KINDS:
                if kind in (SESSION_COMPACT, SESSION_CLEAR):
                    session.compacted()
                prompt = session.system_prompt()
                try:
                    first = session.store.claim(session.session_id, _start_key(session))
                except Exception as exc:  # fail open: resending beats losing the rules
                    self._error(payload, exc)
                    first = True
                if (kind == SESSION_RESUME or self._held(event)) and not first:
                    return None
                return self._context(event, _started(kind, prompt))
            if kind == PRE_COMPACT:
                session.compacted()
                self._hold(event, session)
                return None
            if kind == USER_PROMPT:
                if event.turn_id is not None:
                    session.new_user_turn(event.text, event.turn_id)
                else:
                    session.steer(event.text)
                    session.turn_start()
                return self._context(event, session.prompt_parts().steering)
            if kind == BEFORE_TOOL:
                refusal = session.check_tool(event.tool, event.args)
                if refusal is not None:
                    return self._encode(event, DENY, refusal.message)
                hit = session.watch("tool", "", tool=event.tool, call_id=event.call_id, args=event.args)
                routed = session.route(hit, complete_call=True) if hit is not None else None
                denied = self._routed_call(session, event, routed)
                if denied is not None:
                    return denied
                if event.tool in self.host.delegation_tools:
                    try:
                        keep_task(session.store, session.session_id, event)
                    except Exception as exc:  # the subagent then starts with the prompt contribution alone
                        self._error(payload, exc)
                if event.tool not in self.host.notice_before:
                    return None
                injection = session.after_tool_call(
                    event.tool, event.args, call_id=event.call_id, claim_scope=scope(event)
                )
                return self._context(event, injection)
            if kind == AFTER_TOOL:
                injection = session.after_tool_call(
                    event.tool, event.args, event.result, call_id=event.call_id, claim_scope=scope(event)
                )
                return self._context(event, self._with_reminder(session, injection, event.call_id))
            if kind == AGENT_START:
                matches = task_matches(
                    session, take_task(session.store, session.session_id, event)
                )
                try:
                    won = session.store.claim_many(session.session_id, scoped_keys(matches, event))
                except Exception as exc:  # fail open: the subagent has none of them yet
                    self._error(payload, exc)
                    won = [True] * len(matches)
                return self._context(event, _agent_context(session, matches, won))
            if kind == CHUNK:
                return self._chunk(session, event)
            if kind == STOP:
                if event.stop_active:
                    return None  # the agent is already continuing because of a stop hook: never loop
                pending = session.store.get(session.session_id, PENDING_KEY)
                if pending:  # a chunk's streamed rule: the model hears it now
                    session.store.put(session.session_id, PENDING_KEY, "")
                    return self._encode(event, BLOCK, pending)
                route = session.check_reply(event.text)
                if _retry(route):
                    return self._encode(event, BLOCK, route.text)  # type: ignore[union-attr]
            return None
        except Exception as exc:  # the agent must never fail because of its rules
            self._error(payload, exc)
            return None

    async def ahandle(self, payload: Mapping[str, Any]) -> Answer:
        """Async twin of ``handle`` (awaits the store for claims, turns and routes)."""
        try:
            event, session = self._open(payload)
            if session is None:
                return None
            kind = event.kind
            if kind in _SESSION_KINDS:
                if kind in (SESSION_COMPACT, SESSION_CLEAR):
                    await session.acompacted()
                prompt = session.system_prompt()
                try:
                    first = await session.store.aclaim(session.session_id, _start_key(session))
                except Exception as exc:
                    self._error(payload, exc)
                    first = True
                if (kind == SESSION_RESUME or self._held(event)) and not first:
                    return None
                return await self._acontext(event, _started(kind, prompt))
            if kind == PRE_COMPACT:
                await session.acompacted()
                await self._ahold(event, session)
                return None
            if kind == USER_PROMPT:
                if event.turn_id is not None:
                    await session.anew_user_turn(event.text, event.turn_id)
                else:
                    await session.asteer(event.text)
                    await session.aturn_start()
                return await self._acontext(event, session.prompt_parts().steering)
            if kind == BEFORE_TOOL:
                refusal = session.check_tool(event.tool, event.args)
                if refusal is not None:
                    return self._encode(event, DENY, refusal.message)
                hit = await session.awatch(
                    "tool", "", tool=event.tool, call_id=event.call_id, args=event.args
                )
                routed = await session.aroute(hit, complete_call=True) if hit is not None else None
                denied = self._routed_call(session, event, routed)
                if denied is not None:
                    return denied
                if event.tool in self.host.delegation_tools:
                    try:
                        await akeep_task(session.store, session.session_id, event)
                    except Exception as exc:
                        self._error(payload, exc)
                if event.tool not in self.host.notice_before:
                    return None
                injection = await session.aafter_tool_call(
                    event.tool, event.args, call_id=event.call_id, claim_scope=scope(event)
                )
                return await self._acontext(event, injection)
            if kind == AFTER_TOOL:
                injection = await session.aafter_tool_call(
                    event.tool, event.args, event.result, call_id=event.call_id, claim_scope=scope(event)
                )
                return await self._acontext(event, self._with_reminder(session, injection, event.call_id))
            if kind == AGENT_START:
                matches = task_matches(
                    session, await atake_task(session.store, session.session_id, event)
                )
                try:
                    won = await session.store.aclaim_many(session.session_id, scoped_keys(matches, event))
                except Exception as exc:
                    self._error(payload, exc)
                    won = [True] * len(matches)
                return await self._acontext(event, _agent_context(session, matches, won))
            if kind == CHUNK:
                return await self._achunk(session, event)
            if kind == STOP:
                if event.stop_active:
                    return None
                pending = await session.store.aget(session.session_id, PENDING_KEY)
                if pending:
                    await session.store.aput(session.session_id, PENDING_KEY, "")
                    return self._encode(event, BLOCK, pending)
                route = await session.acheck_reply(event.text)
                if _retry(route):
                    return self._encode(event, BLOCK, route.text)  # type: ignore[union-attr]
            return None
        except Exception as exc:
            self._error(payload, exc)
            return None

    # -- pieces -----------------------------------------------------------------

    def _open(self, payload: Mapping[str, Any]) -> tuple[HookEvent, RuleSession | None]:
        """The event and its session; no session for input that is not a hook event."""
        if not isinstance(payload, Mapping):
            return _NO_EVENT, None
        event = self.host.read_event(payload)
        if event.name is None or not event.session_id:
            return event, None
        return event, self.session(event.session_id)

    def _routed_call(self, session: RuleSession, event: HookEvent, routed: Any) -> Answer:
        """Deny a call an interrupting streamed rule refuses; keep a reminder for its result."""
        if routed is None:
            return None
        action = str(routed.action)
        if action == "refuse":
            return self._encode(event, DENY, routed.text)
        if action == "append" and event.call_id is not None:
            # PostToolUse may run in another process: the reminder waits in the store.
            session.store.put(session.session_id, reminder_key(event.call_id), routed.text)
        return None

    def _with_reminder(
        self, session: RuleSession, injection: Injection | None, call_id: str | None
    ) -> list[Piece]:
        """The notice's pieces, then the reminder PreToolUse kept for this call (taken once) unless
        already there.

        In process (the SDK adapter) the session itself adds the reminder to the
        notice; across processes (command hooks) only the store has it.
        """
        pieces = notice_pieces(injection)
        if call_id is None or not self.ruleset.buckets.ttsr_compiled:  # the index is built on first use
            return pieces
        key = reminder_key(call_id)
        try:
            kept = session.store.get(session.session_id, key)
            if kept:
                session.store.put(session.session_id, key, "")
        except Exception as exc:  # fail open, like every store call of a session
            self._error("tool.after", exc)
            return pieces
        if not kept or any(kept in piece.text for piece in pieces):
            return pieces
        return [*pieces, Piece("reminder", "", "", kept)]

    def _context(self, event: HookEvent, content: Content) -> Answer:
        """What the event adds to the conversation, packed under the context limit with what waits
        in the session's queue (``delivery``); nothing when there is nothing to add."""
        session = self.session(event.session_id)
        limit = self.host.context_limit
        turn, notices = pieces_for(event, session, content, limit, self.host.context_unit)
        if self._held(event):
            self.delivery.send(session, event, turn, notices, hold=True)
            return None
        return self._answer(event, self.delivery.send(session, event, turn, notices))

    async def _acontext(self, event: HookEvent, content: Content) -> Answer:
        """Async twin of ``_context``."""
        session = self.session(event.session_id)
        turn, notices = pieces_for(event, session, content, self.host.context_limit, self.host.context_unit)
        if self._held(event):
            await self.delivery.asend(session, event, turn, notices, hold=True)
            return None
        return self._answer(event, await self.delivery.asend(session, event, turn, notices))

    def _chunk(self, session: RuleSession, event: HookEvent) -> Answer:
        """One streamed chunk of the reply (Gemini CLI's AfterModel): the streamed rules run over the
        reply so far (the last ``ttsr_window`` characters, kept in the store, since each chunk is a new
        process); an interrupting one blocks the chunk and waits (``PENDING_KEY``) for the stop event,
        where the agent hands its text to the model."""
        if not event.text and event.result is None:
            return None
        store, sid = session.store, session.session_id
        key = CHUNK_KEY + (event.turn_id or "")
        text = (store.get(sid, key) or "") + event.text
        route = session.check_reply(text) if event.text else None
        if _retry(route):
            store.put(sid, PENDING_KEY, route.text)  # type: ignore[union-attr]
            store.put(sid, key, "")
            return self._encode(event, BLOCK, route.text)  # type: ignore[union-attr]
        store.put(sid, key, "" if event.result is not None else text[-session.ruleset.config.ttsr_window :])
        return None

    async def _achunk(self, session: RuleSession, event: HookEvent) -> Answer:
        """Async twin of ``_chunk``."""
        if not event.text and event.result is None:
            return None
        store, sid = session.store, session.session_id
        key = CHUNK_KEY + (event.turn_id or "")
        text = (await store.aget(sid, key) or "") + event.text
        route = await session.acheck_reply(text) if event.text else None
        if _retry(route):
            await store.aput(sid, PENDING_KEY, route.text)  # type: ignore[union-attr]
            await store.aput(sid, key, "")
            return self._encode(event, BLOCK, route.text)  # type: ignore[union-attr]
        window = session.ruleset.config.ttsr_window
        await store.aput(sid, key, "" if event.result is not None else text[-window:])
        return None

    def _held(self, event: HookEvent) -> bool:
        """Whether the agent takes no context at this event (Cline's TaskStart runs detached): what it
        would add waits in the queue for the next answer that can carry it, and a start context that
        waits already is not queued again."""
        return self.host.encode(event, CONTEXT, "-") is None

    def _hold(self, event: HookEvent, session: RuleSession) -> None:
        """Before a compaction the agent takes no context: the start context waits in the queue for the
        next answer (it arrives after the summary), and the session counts as given it."""
        turn, _ = pieces_for(event, session, _started(SESSION_COMPACT, session.system_prompt()),
                             self.host.context_limit, self.host.context_unit)
        try:
            session.store.claim(session.session_id, _start_key(session))
        except Exception as exc:  # fail open: a resume may then repeat the start context
            self._error(event.name, exc)
        self.delivery.send(session, event, turn, [], hold=True)

    async def _ahold(self, event: HookEvent, session: RuleSession) -> None:
        """Async twin of ``_hold``."""
        turn, _ = pieces_for(event, session, _started(SESSION_COMPACT, session.system_prompt()),
                             self.host.context_limit, self.host.context_unit)
        try:
            await session.store.aclaim(session.session_id, _start_key(session))
        except Exception as exc:
            self._error(event.name, exc)
        await self.delivery.asend(session, event, turn, [], hold=True)

    def _answer(self, event: HookEvent, done: Plan) -> Answer:
        if done.cut:
            self.log.write("context_cut", hook_event=event.name, chars=len(done.text))
        return self._encode(event, CONTEXT, done.text) if done.text else None

    def _encode(self, event: HookEvent, reply: str, text: str) -> Answer:
        return self.host.encode(event, reply, text)

    def _error(self, where: Any, exc: Exception) -> None:
        """Log ``exc`` under the event's name (``where``: that name, or the payload)."""
        event = where if isinstance(where, str) else None
        if isinstance(where, Mapping):
            try:
                event = self.host.read_event(where).name
            except Exception:  # a host's reader never raises; if one did, the error is still logged
                event = None
        self.log.write("hook_error", hook_event=str(event), error=f"{type(exc).__name__}: {exc}")


CHUNK_KEY = "chunks:"
"""Store key prefix of a streamed reply's text so far, per reply (``HookEvent.turn_id``)."""

PENDING_KEY = "chunks:pending"
"""Store key of a streamed rule a chunk hit, waiting for the stop event to reach the model."""


def _retry(route: Any) -> bool:
    """Whether a streamed-rule route interrupts the reply (the model is asked again with the rule)."""
    return route is not None and bool(route.hit.interrupt) and str(route.action) == "retry"


def _started(kind: str | None, prompt: str) -> str:
    """The start context: after a compaction, under ``COMPACTED_HEADER`` (the notices were re-armed)."""
    prompt = _unforged(prompt)
    if kind != SESSION_COMPACT:
        return prompt
    return f"{COMPACTED_HEADER}\n\n{prompt}" if prompt else COMPACTED_HEADER


def _unforged(text: str) -> str:
    """``text`` with a line that starts like ``COMPACTED_HEADER`` or ``CONTINUED`` escaped (a backslash
    before it)."""
    return _FORGED.sub(r"\1\\\2", text) if COMPACTED_HEADER[:40] in text or CONTINUED in text else text


def _agent_context(session: RuleSession, matches: list[Match], won: list[bool]) -> list[Piece]:
    """What a subagent starts with: the prompt contribution, then the notices its task's paths won."""
    injection = session.ruleset.notices.injection([m for m, flag in zip(matches, won, strict=True) if flag])
    return [*prompt_piece(session.ruleset, _unforged(session.system_prompt())), *notice_pieces(injection)]


def _start_key(session: RuleSession) -> str:
    """The store key saying this session was given the start context of these rules (a resumed one is
    not again). The rules only: the steering block a later turn adds is the turn's, so a session resumed
    after one still holds its start context.

    It lives under ``inject:`` so that ``compacted()`` releases it with the notices.
    """
    import hashlib  # once per session: not on every tool call's import path

    text = session.ruleset.prompt_parts().text
    return f"{NOTICE_PREFIX}session-start:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]



def extractors_of(host: Host) -> Mapping[str, Any]:
    """The host's path extractors (``Host.extractors``): tool name → ``Extractor``."""
    if host.extractors is None:
        return {}
    __import__(host.extractors)  # not importlib: ~0.3 ms of a hook's cold start
    found: Mapping[str, Any] = sys.modules[host.extractors].EXTRACTORS
    return found
