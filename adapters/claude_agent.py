"""Claude Agent SDK adapter: ``RuleweaveClaudeAgent`` builds the options of a ruleweave-woven client.

Use::

    from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient
    from ruleweave import RuleweaveConfig
    from ruleweave.adapters.claude_agent import RuleweaveClaudeAgent

    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd="."))
    options = rw.options(ClaudeAgentOptions(cwd=".", allowed_tools=["Read", "Edit", "Bash"]))
    async with ClaudeSDKClient(options) as client:
        await client.query("Fix the failing test")
        async for message in rw.receive(client):
            ...

The SDK drives the Claude Code CLI, and ruleweave joins it the way it joins
Claude Code, in process: a callback for every event the command hook answers
(``SessionStart``, ``UserPromptSubmit``, ``PreToolUse``, ``PostToolUse``,
``SubagentStart``, ``Stop``) is a ``HookMatcher`` over the very handlers of
``ruleweave hook claude-code`` (``ruleweave.hosts.claude_code``). So the steering
block, refusals, notices (before an edit, in a subagent's own ledger), the
``Stop`` check, compaction, the queue that keeps every answer under Claude
Code's 10,000-character limit and the delivery record in the store are the
same. The CLI (2.1.332) sends the SDK no ``SessionStart`` of a new session,
only those of ``compact`` and ``clear``, so the prompt contribution goes into
the system prompt: the ``claude_code`` preset with it appended (a custom
system prompt gets it after its own text), recorded as delivered (event
``SystemPrompt``). The conversation's id is fixed up front (``session_id``, a
UUID) so the appended text and the hooks talk about the same session;
``PreCompact`` re-arms notices too, for a CLI that sends no ``SessionStart``
on compaction.

Streamed rules: ``receive`` watches the text and thinking deltas of the
``StreamEvent``s (``include_partial_messages=True``) and, on a hit the session
routes to ``retry``, **interrupts and corrects**: ``client.interrupt()``, then
the rule as a follow-up message. The SDK cannot drop a reply, so the stopped
text stays in the conversation, followed by the correction. A hit routed to
``append`` (a rule that does not interrupt, or the turn's retries spent) goes
with the next tool result's notice. Tool calls are checked whole by the
``PreToolUse`` callback instead, which refuses a matching call before it runs.

Notes:
    Without ``setting_sources`` the CLI loads the project's own settings: if
    ``ruleweave install claude-code`` put command hooks there, they run too (and
    keep their own state); pass ``setting_sources=["user"]`` or ``[]`` to avoid
    doubled notices. What Claude Code loads itself (``CLAUDE.md``, ``AGENTS.md``,
    ``.claude/rules``) is left out when the CLI loads project settings, and
    included when ``setting_sources`` leaves ``"project"`` out.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any, cast

from ruleweave.adapters._streamed import joined
from ruleweave.adapters.seams import (
    ConfigError,
    MissingDependencyError,
    RuleSet,
    RuleweaveConfig,
    SessionStore,
)

try:
    from claude_agent_sdk import (
        ClaudeAgentOptions,
        ClaudeSDKClient,
        HookContext,
        HookInput,
        HookJSONOutput,
        HookMatcher,
        Message,
    )
    from claude_agent_sdk.types import HookCallback, HookEvent, SystemPromptPreset
except ImportError as exc:  # pragma: no cover - exercised by re-importing without the SDK
    raise MissingDependencyError("claude-agent-sdk", "claude-agent") from exc

from ruleweave.adapters.claude_agent_stream import watched_replies
from ruleweave.hosts.claude_code import EVENTS, ClaudeCodeHooks

__all__ = ["RuleweaveClaudeAgent"]

_EVENTS = tuple(cast(HookEvent, name) for name in EVENTS)
"""The events whose callbacks are the command hook's handlers: every event it answers."""

_MAX_CORRECTIONS = 64
"""Corrective follow-ups remembered (so their ``UserPromptSubmit`` is not a user turn); oldest forgotten."""


class RuleweaveClaudeAgent:
    """ruleweave for the Claude Agent SDK: hooks, system prompt and streamed rules of a client.

    Args:
        config: Where to find the rules (default: ``RuleweaveConfig()`` for the
            process cwd). Give this or ``ruleset``.
        ruleset: An already loaded rule set, shared with other agents.
        store: Session state (default: the rule set's store; in memory unless the
            config names one).
        leave_out_native: Leave out what Claude Code loads itself (the ``claude``
            provider, ``CLAUDE.md``/``AGENTS.md``). ``None`` (default): decided per
            ``options`` call — left out unless ``setting_sources`` omits ``"project"``.

    Raises:
        ConfigError: Both ``config`` and ``ruleset`` given.
    """

    def __init__(
        self,
        config: RuleweaveConfig | None = None,
        *,
        ruleset: RuleSet | None = None,
        store: SessionStore | None = None,
        leave_out_native: bool | None = None,
    ) -> None:
        if config is not None and ruleset is not None:
            raise ConfigError("Give RuleweaveClaudeAgent a config or a ruleset, not both.")
        # A config is loaded once, by the handlers, in the shape they need (hook_config).
        self._rules: RuleSet | RuleweaveConfig = (
            ruleset if ruleset is not None else config if config is not None else RuleweaveConfig()
        )
        if store is None and ruleset is not None:
            store = ruleset.store
        self.store: SessionStore | None = store
        self.leave_out_native = leave_out_native
        self._handlers: dict[bool, ClaudeCodeHooks] = {}
        self._corrections: list[str] = []

    def handlers(self, leave_out_native: bool = True) -> ClaudeCodeHooks:
        """The Claude Code hook handlers the callbacks share (one per ``leave_out_native``).

        Args:
            leave_out_native: Leave out what Claude Code loads itself.

        Returns:
            The ``ClaudeCodeHooks`` over this adapter's rules and store (their ``session(id)``
            is a conversation's ``RuleSession``).
        """
        found = self._handlers.get(leave_out_native)
        if found is None:
            found = ClaudeCodeHooks(self._rules, store=self.store, leave_out_native=leave_out_native)
            self.store = found.pool.store  # both handler sets share the first one's store
            self._handlers[leave_out_native] = found
        return found

    # -- options ----------------------------------------------------------------------

    def options(
        self, options: ClaudeAgentOptions | None = None, *, session_id: str | None = None
    ) -> ClaudeAgentOptions:
        """A copy of ``options`` with ruleweave's hooks, system prompt and stream events.

        Args:
            options: The caller's options (left unchanged; default: ``ClaudeAgentOptions()``).
            session_id: The conversation's id, a UUID (default: ``options.session_id``, else
                ``options.resume`` unless forking, else a new one).

        Returns:
            The options: ``hooks`` with ruleweave's callbacks after the caller's,
            ``system_prompt`` with the prompt contribution appended,
            ``include_partial_messages=True`` and ``session_id`` set.

        Raises:
            ConfigError: ``session_id`` is not a UUID (the CLI accepts nothing else).
        """
        base = options if options is not None else ClaudeAgentOptions()
        conversation = session_id or base.session_id
        if conversation is None and base.resume and not base.fork_session:
            conversation = base.resume
        conversation = _checked_uuid(conversation or str(uuid.uuid4()))
        leave_out = self._leave_out(base)
        # The CLI takes a new id only for a new or forked session; a resumed one keeps its own.
        new_id = None if base.resume and not base.fork_session else conversation
        return dataclasses.replace(
            base,
            hooks=self._merged_hooks(base.hooks, leave_out),
            system_prompt=self.system_prompt(conversation, base.system_prompt, leave_out_native=leave_out),
            include_partial_messages=True,
            session_id=new_id,
        )

    def hooks(self, leave_out_native: bool = True) -> dict[HookEvent, list[HookMatcher]]:
        """The ``hooks`` mapping: one ``HookMatcher`` per event, over the command hook's handlers.

        Args:
            leave_out_native: Leave out what Claude Code loads itself.

        Returns:
            A matcher per event the command hook answers (``SessionStart``, ``UserPromptSubmit``,
            ``PreToolUse``, ``PostToolUse``, ``SubagentStart``, ``Stop``) and ``PreCompact``.
        """
        handlers = self.handlers(leave_out_native)
        mapping: dict[HookEvent, list[HookMatcher]] = {
            event: [HookMatcher(matcher=None, hooks=[self._callback(handlers)])] for event in _EVENTS
        }
        mapping["PreCompact"] = [HookMatcher(matcher=None, hooks=[_compacted(handlers)])]
        return mapping

    def system_prompt(
        self,
        session_id: str,
        base: str | Mapping[str, Any] | None = None,
        *,
        leave_out_native: bool = True,
    ) -> Any:
        """The ``system_prompt`` option with the conversation's prompt contribution added.

        Args:
            session_id: The conversation's id.
            base: The caller's ``system_prompt``: ``None`` or the ``claude_code`` preset
                get the contribution appended to the preset; a custom prompt (a string or
                ``{"type": "custom"}``) gets it after its own text; a file prompt is kept
                as it is (its text is the CLI's to read).
            leave_out_native: Leave out what Claude Code loads itself.

        Returns:
            The new ``system_prompt`` value.
        """
        text = self.handlers(leave_out_native).system_prompt_append(session_id)
        if isinstance(base, str):
            return joined(base, text)
        if base is None or base.get("type") == "preset":
            preset: SystemPromptPreset = {"type": "preset", "preset": "claude_code"}
            if base is not None:
                preset.update(cast(SystemPromptPreset, dict(base)))
            appended = joined(str(preset.get("append") or ""), text)
            if appended:
                preset["append"] = appended
            return preset
        if base.get("type") == "custom":
            return {**base, "prompt": joined(str(base.get("prompt") or ""), text)}
        return base

    # -- streamed rules ---------------------------------------------------------------

    async def receive(self, client: ClaudeSDKClient) -> AsyncIterator[Message]:
        """``client.receive_response()`` with streamed rules watched: interrupt-and-correct.

        Args:
            client: A connected client made with ``self.options(...)``.

        Yields:
            Every message up to the turn's ``ResultMessage``; after a streamed rule
            interrupted a reply, the interrupted turn's messages, then those of the
            corrective follow-up (the rule), up to its ``ResultMessage``.

        Raises:
            ConfigError: The client's options have no ``session_id`` (not made with ``options``).
        """
        session_id = client.options.session_id or client.options.resume
        if not session_id:
            raise ConfigError("RuleweaveClaudeAgent.receive needs a client made with rw.options(...).")
        session = self.handlers(self._leave_out(client.options)).session(session_id)
        async for message in watched_replies(client, session, self._remember_correction):
            yield message

    # -- callbacks --------------------------------------------------------------------

    def _leave_out(self, options: ClaudeAgentOptions) -> bool:
        if self.leave_out_native is not None:
            return self.leave_out_native
        sources = options.setting_sources
        return sources is None or "project" in sources

    def _merged_hooks(
        self, own: Mapping[HookEvent, list[HookMatcher]] | None, leave_out_native: bool
    ) -> dict[HookEvent, list[HookMatcher]]:
        """The caller's hooks, then ruleweave's, per event."""
        merged: dict[HookEvent, list[HookMatcher]] = {event: list(m) for event, m in (own or {}).items()}
        for event, matchers in self.hooks(leave_out_native).items():
            merged[event] = [*merged.get(event, []), *matchers]
        return merged

    def _remember_correction(self, text: str) -> None:
        self._corrections.append(text)
        del self._corrections[:-_MAX_CORRECTIONS]

    def _callback(self, handlers: ClaudeCodeHooks) -> HookCallback:
        async def callback(
            payload: HookInput, tool_use_id: str | None, context: HookContext
        ) -> HookJSONOutput:
            data = cast(Mapping[str, Any], payload)
            if data.get("hook_event_name") == "UserPromptSubmit" and data.get("prompt") in self._corrections:
                # A corrective follow-up of ``receive`` continues the user's turn: no new steering.
                self._corrections.remove(str(data.get("prompt")))
                return {}
            answer = await handlers.ahandle(data)
            return cast(HookJSONOutput, answer or {})

        return callback


def _compacted(handlers: ClaudeCodeHooks) -> HookCallback:
    async def callback(payload: HookInput, tool_use_id: str | None, context: HookContext) -> HookJSONOutput:
        """``PreCompact``: notices whose text the summary drops may be injected again."""
        session_id = cast(Mapping[str, Any], payload).get("session_id")
        if isinstance(session_id, str) and session_id:
            await handlers.session(session_id).acompacted()
        return {}

    return callback


def _checked_uuid(value: str) -> str:
    try:
        return str(uuid.UUID(value))
    except ValueError as exc:
        raise ConfigError(f"A Claude Agent SDK session id must be a UUID, not {value!r}.") from exc
