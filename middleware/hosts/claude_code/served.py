"""Claude Code hooks answered by the running ``ruleweave mcp`` server (``mcp_tool`` hooks), no process each.

Claude Code can call a tool of a connected MCP server as a hook
(``{"type": "mcp_tool", "server": …, "tool": …, "input": {…}}``). What the
bundled CLI 2.1.332 does with one, read from its code and seen in
``tests/hosts/claude_code/test_e2e_mcp.py``:

* each string of ``input`` has its ``${key.path}`` parts replaced from the hook
  input: a string as is, an object or a boolean as its compact JSON text, a
  missing key as ``''`` (there is no spelling for the whole input, so
  ``HOOK_INPUT`` names each key the handlers read);
* the tool's text content is read as the hook's output, exactly like a command
  hook's stdout (JSON with ``hookSpecificOutput``; ``''`` says nothing);
* the server must be connected: an event waits for a server still connecting,
  except ``SessionStart`` (and a few others), which skips the hook — at start-up
  there is no MCP client yet. So ``SessionStart`` stays a command hook.

``HookServer`` answers exactly as ``ruleweave hook claude-code`` does (same
options, same store, same snapshot, same ``ClaudeCodeHooks``), keeping the
rule set it loaded for as long as the snapshot says its files are unchanged.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ruleweave.hosts._command import state_dir, usable_cwd
from ruleweave.hosts._hook_log import HookLog
from ruleweave.hosts.claude_code import HOST, answer_warm, load_hooks

if TYPE_CHECKING:
    from ruleweave.hosts._options import HookOptions
    from ruleweave.hosts.claude_code.handlers import ClaudeCodeHooks

MCP_SERVER = "ruleweave"
"""The name ``ruleweave install claude-code`` registers the MCP server under."""

HOOK_TOOL = "hook"
"""The server's tool that answers a hook event (``ruleweave mcp --host claude-code``)."""

MIN_VERSION = (2, 1, 118)
"""The first Claude Code with ``mcp_tool`` hooks (its changelog); older ones get command hooks."""

STRING_KEYS = (
    "hook_event_name", "session_id", "cwd", "source", "prompt", "prompt_id", "tool_name", "tool_use_id",
    "last_assistant_message", "agent_id", "agent_type", "transcript_path", "permission_mode",
)
"""Hook input keys passed as text (``''`` reads as absent, as the handlers read an empty value)."""

JSON_KEYS = ("tool_input",)
"""Hook input keys holding an object, passed as its JSON text and decoded again."""

FLAG_KEYS = ("stop_hook_active",)
"""Hook input keys holding a boolean, passed as ``true``/``false``."""

HOOK_INPUT: dict[str, str] = {key: "${" + key + "}" for key in (*STRING_KEYS, *JSON_KEYS, *FLAG_KEYS)}
"""The ``input`` of the ``mcp_tool`` hook entry. ``tool_response`` is left out: the handlers never read
it (``RuleSession.after_tool_call``), and a Read's whole file would cross the pipe on every call."""

READ_RULE = f"mcp__{MCP_SERVER}__read_rule"
"""The server's ``read_rule`` tool as Claude Code names it to the model (``mcp__<server>__<tool>``)."""

READ_RULE_TEMPLATES: dict[str, str] = {
    "rule_address": READ_RULE + ' name="{name}"',
    "rule_protocol": (
        f"Each rule listed in <domain-rules> can be read in full with the tool {READ_RULE} (its name as "
        "the argument `name`). Before you work on files a rule covers, or on the task its description "
        "names, read that rule first and follow it."
    ),
    "custom_rules": (
        "<rules>\n"
        f"You MUST read a rule below with the tool {READ_RULE} (its name as the argument `name`) before "
        "working on anything it covers.\n"
        "{rules}\n"
        "</rules>"
    ),
}
"""How the hooks tell the model to read a whole rule: the registered server's ``read_rule`` tool (Claude
Code has no ``rule://`` reader); cut notices and listings name it with the rule's name."""

NO_ANSWER = ""
"""What the tool answers when the command hook would print nothing."""


def hook_entry(server: str = MCP_SERVER) -> dict[str, Any]:
    """The settings entry of an ``mcp_tool`` hook calling ``server``'s hook tool."""
    return {"type": "mcp_tool", "server": server, "tool": HOOK_TOOL, "input": dict(HOOK_INPUT)}


def payload_from(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The hook input as Claude Code sent it, rebuilt from the tool's (interpolated) arguments.

    Args:
        arguments: ``HOOK_INPUT`` after interpolation (other keys are ignored).

    Returns:
        The payload: empty strings left out, ``tool_input`` decoded, flags as booleans.
    """
    payload: dict[str, Any] = {}
    for key in STRING_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value:
            payload[key] = value
    for key in JSON_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value:
            try:
                payload[key] = json.loads(value)
            except (ValueError, RecursionError):
                payload[key] = value  # what the handlers read as no arguments
        elif isinstance(value, Mapping):
            payload[key] = dict(value)
    for key in FLAG_KEYS:
        value = arguments.get(key)
        if value is True or value == "true":
            payload[key] = True
        elif value is False or value == "false":
            payload[key] = False
    return payload


class HookServer:
    """Answers Claude Code hook events in a long-running process, as the command hook would.

    Args:
        options: The hook options (``cwd`` unset: each event's own ``cwd`` names the project).
        state: The state directory (default: the one the command hook uses).
    """

    def __init__(self, options: HookOptions, state: str | None = None) -> None:
        self.options = options
        self.state = state if state is not None else state_dir()
        self.log = HookLog(options.event_log or os.path.join(self.state, f"{HOST.name}-hook.jsonl"))
        self._loaded: dict[str, tuple[str, ClaudeCodeHooks]] = {}

    @classmethod
    def over(cls, store: str = "sqlite://") -> HookServer:
        """The server of ``ruleweave mcp --host claude-code``: the command hook's defaults, this store.

        Args:
            store: The store URL (the command hook's default ``sqlite://``, so both share sessions).

        Returns:
            The ``HookServer``.
        """
        from ruleweave.hosts._options import HookOptions

        return cls(HookOptions(store=store))

    def answer(self, payload: Mapping[str, Any]) -> str:
        """The hook's output for one event: the command hook's stdout without its newline ('' for none).

        Never raises: an internal error is a ``hook_error`` line in the hook log, and no answer.
        """
        try:
            found = self._answer(payload)
        except Exception as exc:  # the agent must never fail because of its rules
            self.log.write("hook_error", hook_event=str(payload.get("hook_event_name")),
                           error=f"{type(exc).__name__}: {exc}")
            return NO_ANSWER
        return NO_ANSWER if found is None else json.dumps(found, ensure_ascii=False)

    def _answer(self, payload: Mapping[str, Any]) -> dict[str, Any] | None:
        options = self.options
        if options.cwd is None and not usable_cwd(payload.get("cwd")):
            return None
        snapshot = options.snapshot and options.event_log is None
        if snapshot:
            from ruleweave.hosts import MISS

            found = answer_warm(payload, options)
            if found is not MISS:
                return found  # type: ignore[return-value]
        cwd = options.cwd or payload.get("cwd") or os.getcwd()
        key = os.path.normpath(os.path.abspath(str(cwd)))
        if not snapshot:
            return load_hooks(payload, options, self.log).handle(payload)
        from ruleweave.hosts._core import snapshot as snapshots

        current = snapshots.load(HOST, options, key, self.state)
        held = self._loaded.get(key)
        if current is not None and held is not None and held[0] == current["fingerprint"]:
            return held[1].handle(payload)
        return self._reload(payload, key)

    def _reload(self, payload: Mapping[str, Any], key: str) -> dict[str, Any] | None:
        """Load the rules (writing the snapshot, as the command hook's full path does) and keep them."""
        from ruleweave.hosts._core import snapshot as snapshots
        from ruleweave.hosts._core.snapshot_build import answer_and_snapshot

        loaded: list[ClaudeCodeHooks] = []

        def load() -> ClaudeCodeHooks:
            loaded.append(load_hooks(payload, self.options, self.log))
            return loaded[-1]

        found = answer_and_snapshot(HOST, payload, self.options, self.log, self.state, load)
        current = snapshots.load(HOST, self.options, key, self.state)
        if loaded and current is not None:
            self._loaded[key] = (current["fingerprint"], loaded[-1])
            while len(self._loaded) > 8:  # a session's cwd rarely changes: keep a few, forget the oldest
                del self._loaded[next(iter(self._loaded))]
        return found


def parse_version(text: str) -> tuple[int, ...] | None:
    """The version ``claude --version`` prints (``2.1.332 (Claude Code)``) as numbers, or ``None``."""
    word = text.strip().split(" ", 1)[0] if text.strip() else ""
    parts = word.split(".")
    if len(parts) < 2 or not all(part.isdigit() for part in parts):
        return None
    return tuple(int(part) for part in parts)


def supports_mcp_hooks(version: tuple[int, ...] | None) -> bool:
    """Whether a Claude Code of this version takes ``mcp_tool`` hooks (unknown: no)."""
    return version is not None and version >= MIN_VERSION
