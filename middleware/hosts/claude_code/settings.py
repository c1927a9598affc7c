"""Claude Code's installer: ruleweave's hooks merged into a ``settings.json``, and taken out again.

``settings_file`` names the file of a scope (``HOST.scopes``). The rest are
pure functions over the parsed JSON: ``install`` adds one hook per event of
``HOST.events`` unless it is there already (twice = once) — a command hook, or
with ``hook_type="mcp"`` an ``mcp_tool`` hook calling the registered ``ruleweave
mcp`` server (``served``), except ``SessionStart``, which Claude Code runs
before any MCP server is connected — and allows the model the server's
``read_rule`` tool; ``uninstall`` removes only ruleweave's entries. Every other
key, hook and matcher group is kept, in its order. The MCP server's own
registration is ``mcp_servers``.
"""

from __future__ import annotations

import copy
import re
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL
from ruleweave.hosts._hooks_json import HooksJson, SettingsError
from ruleweave.hosts.claude_code import HOST
from ruleweave.hosts.claude_code.mcp_servers import install_server, mcp_file, uninstall_server
from ruleweave.hosts.claude_code.served import (
    HOOK_TOOL,
    MCP_SERVER,
    READ_RULE,
    hook_entry,
    parse_version,
    supports_mcp_hooks,
)

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

HOOK_EVENTS: tuple[str, ...] = tuple(HOST.events)
"""The events ruleweave answers, in the order they are added."""

TOOL_EVENTS = frozenset(event for event, kind in HOST.events.items() if kind in (BEFORE_TOOL, AFTER_TOOL))
"""Events whose matcher group names tools (``*``: every tool, so steering sees them all)."""

COMMAND = f"ruleweave hook {HOST.name}"
"""The hook command as installed by default: found on ``PATH``, so a committed settings file
works on every machine."""

_OURS = re.compile(
    r"""^\s*["']?(?:\S*[/\\])?ruleweave(?:\.exe)?["']?\s+hook\s+""" + re.escape(HOST.name) + r"(?:\s|$)"
)


HOOK_TYPES = ("command", "mcp")
"""How the hooks run: a process per event, or a call to the running MCP server."""

COMMAND_ONLY = frozenset({"SessionStart"})
"""Events that stay command hooks with ``hook_type="mcp"``: Claude Code skips an ``mcp_tool`` hook at
SessionStart (no MCP client is connected yet at start-up)."""

__all__ = [
    "COMMAND", "HOOK_EVENTS", "HOOK_TYPES", "SettingsError", "agent_version", "install", "install_server",
    "is_ours", "mcp_file", "settings_file", "supports_mcp_hooks", "uninstall", "uninstall_server",
]

VERSION_TIMEOUT = 30
"""Seconds ``claude --version`` may take (a first run may unpack itself)."""


def agent_version() -> tuple[int, ...] | None:
    """The installed Claude Code's version: ``claude --version`` of the ``claude`` on ``PATH``.

    Returns:
        Its numbers (``(2, 1, 332)``), or ``None`` when there is no ``claude`` or it says no version.
    """
    program = shutil.which("claude")
    if program is None:
        return None
    try:
        done = subprocess.run(
            [program, "--version"], capture_output=True, text=True, timeout=VERSION_TIMEOUT, check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_version(done.stdout) if done.returncode == 0 else None


class _ClaudeHooks(HooksJson):
    """Claude Code's variant of the shared hook settings: its entries may be ``mcp_tool`` hooks too."""

    def is_ours(self, entry: Any) -> bool:
        """``settings.is_ours``: a command hook or the MCP server's hook tool."""
        return is_ours(entry)

    def spelled(self, entry: dict[str, Any]) -> str:
        """The entry's command, or its ``mcp_tool`` server and tool."""
        if entry.get("type") == "mcp_tool":
            return f"mcp_tool {entry.get('server')}/{entry.get('tool')}"
        return repr(entry.get("command"))


_SHAPE = _ClaudeHooks(
    agent=HOST.name, events=HOOK_EVENTS, matchers=dict.fromkeys(TOOL_EVENTS, "*"), error=SettingsError
)
"""Claude Code's hook settings as the shared installer declares them: its shape check and its removal
serve here; ``install`` writes ``mcp_tool`` hooks and the ``read_rule`` permission itself."""


def settings_file(scope: str, config: RuleweaveConfig) -> Path:
    """The settings file of ``scope``: ``project`` ``<root>/.claude/settings.json`` (shared with the
    team), ``local`` ``<root>/.claude/settings.local.json`` (this checkout), ``user``
    ``$CLAUDE_CONFIG_DIR/settings.json`` (``~/.claude``).

    Args:
        scope: One of ``HOST.scopes``.
        config: The configuration of the project (its root and Claude's config directory).

    Returns:
        The path (it may not exist yet).
    """
    if scope == "user":
        return config.claude_dir / "settings.json"
    return config.root / ".claude" / ("settings.local.json" if scope == "local" else "settings.json")


def is_ours(entry: Any) -> bool:
    """Whether a hook entry runs ``ruleweave hook claude-code`` (bare or by path), or calls the hook
    tool of the ``ruleweave`` MCP server."""
    if not isinstance(entry, dict):
        return False
    if entry.get("type") == "mcp_tool":
        return entry.get("server") == MCP_SERVER and entry.get("tool") == HOOK_TOOL
    return (
        entry.get("type", "command") == "command"
        and isinstance(entry.get("command"), str)
        and (_OURS.match(entry["command"]) is not None or _quoted_ours(entry["command"]))
    )


def _quoted_ours(command: str) -> bool:
    """Whether ``command``, split as a POSIX shell would, runs ``ruleweave hook claude-code``: the
    installer quotes a path holding a space or a shell character (``'/my dir/bin/ruleweave'``)."""
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: not a command the installer wrote
        return False
    return (
        len(words) >= 3 and words[0].rsplit("/", 1)[-1] in ("ruleweave", "ruleweave.exe")
        and words[1] == "hook" and words[2] == HOST.name
    )


def _entry(event: str, command: str, hook_type: str) -> dict[str, Any]:
    """ruleweave's hook entry for ``event``."""
    if hook_type == "mcp" and event not in COMMAND_ONLY:
        return hook_entry()
    return {"type": "command", "command": command}


def install(
    settings: Any, command: str = COMMAND, events: Sequence[str] = HOOK_EVENTS, *, hook_type: str = "command"
) -> tuple[dict[str, Any], list[str]]:
    """``settings`` with ruleweave's hook on every event (an existing entry is kept, or re-spelled),
    and the model allowed the ``read_rule`` tool of the registered MCP server.

    Args:
        settings: The parsed file (``{}`` for a missing one).
        command: The hook command to install.
        events: The events to answer.
        hook_type: ``command`` (a process per event) or ``mcp`` (``mcp_tool`` hooks, SessionStart
            excepted).

    Returns:
        The new settings (a copy) and one line per change (empty: nothing to do).

    Raises:
        SettingsError: The settings have the wrong shape.
    """
    if hook_type not in HOOK_TYPES:
        raise SettingsError(f"the hook type {hook_type!r} is not one of {', '.join(HOOK_TYPES)}")
    _SHAPE.check(settings)
    result: dict[str, Any] = copy.deepcopy(settings)
    hooks = result.setdefault("hooks", {})
    changes: list[str] = []
    for event in events:
        wanted = _entry(event, command, hook_type)
        groups = hooks.setdefault(event, [])
        ours = [(group, index) for group in groups for index, entry in enumerate(group.get("hooks", []))
                if is_ours(entry)]
        if ours:
            for group, index in ours:
                entry = group["hooks"][index]
                if entry.get("type", "command") == wanted["type"] == "command":
                    if entry["command"] != command:
                        changes.append(f"{event}: re-spelled {entry['command']!r} as {command!r}")
                        entry["command"] = command
                elif entry != wanted:
                    changes.append(f"{event}: replaced {_SHAPE.spelled(entry)} by {_SHAPE.spelled(wanted)}")
                    group["hooks"][index] = wanted
            continue
        group = {"matcher": "*"} if event in TOOL_EVENTS else {}
        group["hooks"] = [wanted]
        groups.append(group)
        changes.append(f"{event}: added {_SHAPE.spelled(wanted)}")
    changes.extend(_allow_read_rule(result))
    return result, changes


def _allow_read_rule(settings: dict[str, Any]) -> list[str]:
    """Allow the model the server's ``read_rule`` (reading a rule changes nothing): one change line, or none.

    Raises:
        SettingsError: ``permissions`` or its ``allow`` has the wrong type.
    """
    permissions = settings.setdefault("permissions", {})
    if not isinstance(permissions, dict):
        raise SettingsError('its "permissions" is not an object')
    allow = permissions.setdefault("allow", [])
    if not isinstance(allow, list):
        raise SettingsError('its "permissions.allow" is not a list')
    if READ_RULE in allow:
        return []
    allow.append(READ_RULE)
    return [f"permissions.allow: added {READ_RULE!r}"]


def uninstall(settings: Any) -> tuple[dict[str, Any], list[str]]:
    """``settings`` without ruleweave's hook entries (groups and events left empty by that go too).

    Returns:
        The new settings (a copy) and one line per change.

    Raises:
        SettingsError: The settings have the wrong shape.
    """
    _SHAPE.check(settings)
    result, changes = _SHAPE.uninstall(settings)
    permissions = result.get("permissions")
    allowed = permissions.get("allow") if isinstance(permissions, dict) else None
    if isinstance(permissions, dict) and isinstance(allowed, list) and READ_RULE in allowed:
        permissions["allow"] = [rule for rule in allowed if rule != READ_RULE]
        changes.append(f"permissions.allow: removed {READ_RULE!r}")
        if not permissions["allow"]:
            del permissions["allow"]
        if not permissions:
            del result["permissions"]
    return result, changes
