"""A host's hook events answered in a long-running process (``ruleweave mcp --host <agent>``'s ``hook`` tool).

``HookServer`` answers an event exactly as ``ruleweave hook <agent>`` prints it
(``ruleweave.hosts._command``): the same options, store, snapshot and shared
engine (``HostHooks``), warm from the host's snapshot when that is current,
else from the rule set it loaded for the event's directory, kept for as long
as the snapshot says its files are unchanged (a changed file: loaded again,
and the snapshot rewritten, as the command's full path does). How an event
reaches it is the host's business: Claude Code's ``mcp_tool`` hooks
(``ruleweave.hosts.claude_code.served``), OpenCode's plugin over streamable
HTTP (``ruleweave.hosts.opencode.plugin``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ruleweave.hosts._command import BAD_CWD, state_dir, usable_cwd
from ruleweave.hosts._hook_log import HookLog

if TYPE_CHECKING:
    from ruleweave.hosts import Host
    from ruleweave.hosts._core.hooks import HostHooks
    from ruleweave.hosts._options import HookOptions

SERVED_HOSTS = ("claude-code", "opencode")
"""The hosts whose hooks can call a tool of a running MCP server (Claude Code's ``mcp_tool`` hooks,
OpenCode's plugin): ``ruleweave mcp --host``. The other agents run a command per event."""

HOOK_TOOL = "hook"
"""The MCP server's tool that answers a hook event (``ruleweave mcp --host <agent>``)."""

EVENT_ARGUMENT = "event"
"""The ``hook`` tool's argument holding the host's hook input as one object (OpenCode's plugin); Claude
Code's ``mcp_tool`` hooks pass each input key as an argument of its own instead."""

NO_ANSWER = ""
"""What the server answers when the command hook would print nothing."""

KEPT = 8
"""Rule sets kept loaded, one per project directory (a session's cwd rarely changes; the oldest goes)."""


class HookServer:
    """Answers one host's hook events in a long-running process, as the command hook would.

    Args:
        agent: The host whose events these are.
        options: The hook options (``cwd`` unset: each event's own ``cwd`` names the project).
        state: The state directory (default: the one the command hook uses).
        templates: How a cut rule is read in full, as the command hook's cold path passes it (default:
            the host's ``read_rule_templates``).
    """

    def __init__(
        self,
        agent: Host,
        options: HookOptions,
        state: str | None = None,
        *,
        templates: Mapping[str, str] | None = None,
    ) -> None:
        self.agent = agent
        self.options = options
        self.state = state if state is not None else state_dir()
        self.templates = templates
        self.log = HookLog(options.event_log or os.path.join(self.state, f"{agent.name}-hook.jsonl"))
        self._loaded: dict[str, tuple[str, HostHooks]] = {}

    @classmethod
    def over(
        cls, agent: Host, store: str = "sqlite://", *, templates: Mapping[str, str] | None = None
    ) -> HookServer:
        """The server of ``ruleweave mcp --host <agent>``: the command hook's defaults, this store.

        Args:
            agent: The host.
            store: The store URL (the command hook's default ``sqlite://``, so both share sessions).
            templates: How a cut rule is read in full (see the class).

        Returns:
            The ``HookServer``.
        """
        from ruleweave.hosts._options import HookOptions

        return cls(agent, HookOptions(store=store), templates=templates)

    def answer(self, payload: Mapping[str, Any]) -> str:
        """The hook's output for one event: the command hook's stdout without its newline ('' for none).

        Args:
            payload: The host's hook input, as the command hook reads it on stdin.

        Returns:
            The answer's JSON text, or ``NO_ANSWER``. Never raises: an internal error is a ``hook_error``
            line in the hook log, and no answer.
        """
        try:
            found = self._answer(payload)
        except Exception as exc:  # the agent must never fail because of its rules
            name = self.agent.read_event(payload).name or ""  # read_event never raises
            self.log.write("hook_error", hook_event=name, error=f"{type(exc).__name__}: {exc}")
            return NO_ANSWER
        return NO_ANSWER if found is None else json.dumps(found, ensure_ascii=False)

    def _answer(self, payload: Mapping[str, Any]) -> dict[str, Any] | None:
        options = self.options
        event = self.agent.read_event(payload)
        if options.cwd is None and not usable_cwd(event.cwd):
            self.log.write("hook_error", hook_event=event.name or "", error=BAD_CWD)
            return None
        if self.agent.distrusted is not None:  # a project the user told the agent not to trust: nothing
            from ruleweave.hosts._core.answer import event_config

            if self.agent.distrusted(event_config(self.agent, payload, options)):
                return None
        snapshot = options.snapshot and options.event_log is None
        if snapshot:
            from ruleweave.hosts import MISS

            found = self._warm(payload)
            if found is not MISS:
                return found  # type: ignore[return-value]
        if not snapshot:
            return self._load(payload).handle(payload)
        from ruleweave.hosts._core import snapshot as snapshots

        cwd = options.cwd or event.cwd or os.getcwd()
        key = os.path.normpath(os.path.abspath(str(cwd)))
        current = snapshots.load(self.agent, options, key, self.state)
        held = self._loaded.get(key)
        if current is not None and held is not None and held[0] == current["fingerprint"]:
            return held[1].handle(payload)
        return self._reload(payload, key)

    def _warm(self, payload: Mapping[str, Any]) -> object:
        """The answer from the snapshot, or ``MISS`` (the host's own warm path when it declares one)."""
        if self.agent.answer_warm is not None:
            return self.agent.answer_warm(payload, self.options)
        from ruleweave.hosts._core.answer import answer_warm

        return answer_warm(self.agent, payload, self.options)

    def _load(self, payload: Mapping[str, Any]) -> HostHooks:
        """``HostHooks`` over the rule set loaded now for the event's directory."""
        from ruleweave.hosts._core.answer import load_hooks

        return load_hooks(self.agent, payload, self.options, self.log, self.templates)

    def _reload(self, payload: Mapping[str, Any], key: str) -> dict[str, Any] | None:
        """Load the rules (writing the snapshot, as the command hook's full path does) and keep them."""
        from ruleweave.hosts._core import snapshot as snapshots
        from ruleweave.hosts._core.snapshot_build import answer_and_snapshot

        loaded: list[HostHooks] = []

        def load() -> HostHooks:
            loaded.append(self._load(payload))
            return loaded[-1]

        found = answer_and_snapshot(self.agent, payload, self.options, self.log, self.state, load)
        current = snapshots.load(self.agent, self.options, key, self.state)
        if loaded and current is not None:
            self._loaded[key] = (current["fingerprint"], loaded[-1])
            while len(self._loaded) > KEPT:
                del self._loaded[next(iter(self._loaded))]
        return found

