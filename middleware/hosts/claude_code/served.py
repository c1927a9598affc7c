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

The shared engine's ``HookServer`` (``ruleweave.hosts._core.served``, ``hook_server``)
answers exactly as ``ruleweave hook claude-code`` does (same options, same store,
same snapshot, same handlers), keeping the rule set it loaded for as long as the
snapshot says its files are unchanged; this module holds what is Claude Code's:
the ``mcp_tool`` hook entry, its input, and how its notices name ``read_rule``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ruleweave.hosts._core.served import HOOK_TOOL as HOOK_TOOL  # the settings name it (``hook_entry``)
from ruleweave.hosts._core.served import HookServer
from ruleweave.hosts.claude_code import HOST
from ruleweave.hosts.claude_code.read_rule import MCP_SERVER as MCP_SERVER
from ruleweave.hosts.claude_code.read_rule import READ_RULE as READ_RULE
from ruleweave.hosts.claude_code.read_rule import READ_RULE_TEMPLATES

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


def hook_server(store: str = "sqlite://") -> HookServer:
    """The ``hook`` tool's server of ``ruleweave mcp --host claude-code``: the command hook's defaults.

    Args:
        store: The store URL (the command hook's default ``sqlite://``, so both share sessions).

    Returns:
        The shared engine's ``HookServer`` for Claude Code, its notices naming ``read_rule`` as the
        command hook's do (``answer_cold``).
    """
    return HookServer.over(HOST, store, templates=READ_RULE_TEMPLATES)


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
