"""Claude Code's installer: ruleweave's hooks merged into a ``settings.json``, and taken out again.

``settings_file`` names the file of a scope (``HOST.scopes``). The rest are
pure functions over the parsed JSON: ``install`` adds one command hook per
event of ``HOST.events`` unless it is there already (twice = once),
``uninstall`` removes only entries whose command runs ``ruleweave hook
claude-code``. Every other key, hook and matcher group is kept, in its order.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleweave.errors import RuleweaveError
from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL
from ruleweave.hosts.claude_code import HOST

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


class SettingsError(RuleweaveError, ValueError):
    """The settings file is not the JSON object Claude Code reads (one sentence)."""


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
    """Whether a hook entry runs ``ruleweave hook claude-code`` (bare or by path)."""
    return (
        isinstance(entry, dict)
        and entry.get("type", "command") == "command"
        and isinstance(entry.get("command"), str)
        and _OURS.match(entry["command"]) is not None
    )


def _checked(settings: Any) -> dict[str, Any]:
    """The settings' ``hooks`` mapping, its shape checked.

    Raises:
        SettingsError: The file, ``hooks``, an event's list or a matcher group has the wrong type.
    """
    if not isinstance(settings, dict):
        raise SettingsError("it holds JSON but not an object")
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError('its "hooks" is not an object')
    for event, groups in hooks.items():
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise SettingsError(f'its "hooks.{event}" is not a list of matcher groups')
        for group in groups:
            if not isinstance(group.get("hooks", []), list):
                raise SettingsError(f'a matcher group of "hooks.{event}" has "hooks" that is not a list')
    return hooks


def install(
    settings: Any, command: str = COMMAND, events: Sequence[str] = HOOK_EVENTS
) -> tuple[dict[str, Any], list[str]]:
    """``settings`` with ruleweave's hook on every event (an existing entry is kept, or re-spelled).

    Args:
        settings: The parsed file (``{}`` for a missing one).
        command: The hook command to install.
        events: The events to answer.

    Returns:
        The new settings (a copy) and one line per change (empty: nothing to do).

    Raises:
        SettingsError: The settings have the wrong shape.
    """
    _checked(settings)
    result: dict[str, Any] = copy.deepcopy(settings)
    hooks = result.setdefault("hooks", {})
    changes: list[str] = []
    for event in events:
        groups = hooks.setdefault(event, [])
        ours = [entry for group in groups for entry in group.get("hooks", []) if is_ours(entry)]
        if ours:
            for entry in ours:
                if entry["command"] != command:
                    changes.append(f"{event}: re-spelled {entry['command']!r} as {command!r}")
                    entry["command"] = command
            continue
        group: dict[str, Any] = {"matcher": "*"} if event in TOOL_EVENTS else {}
        group["hooks"] = [{"type": "command", "command": command}]
        groups.append(group)
        changes.append(f"{event}: added {command!r}")
    return result, changes


def uninstall(settings: Any) -> tuple[dict[str, Any], list[str]]:
    """``settings`` without ruleweave's hook entries (groups and events left empty by that go too).

    Returns:
        The new settings (a copy) and one line per change.

    Raises:
        SettingsError: The settings have the wrong shape.
    """
    _checked(settings)
    result: dict[str, Any] = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result, []
    changes: list[str] = []
    for event in list(hooks):
        kept_groups = []
        for group in hooks[event]:
            entries = group.get("hooks", [])
            kept = [entry for entry in entries if not is_ours(entry)]
            for entry in entries:
                if is_ours(entry):
                    changes.append(f"{event}: removed {entry['command']!r}")
            if kept or not entries:
                kept_groups.append({**group, "hooks": kept} if len(kept) != len(entries) else group)
        if len(kept_groups) != len(hooks[event]) or kept_groups != hooks[event]:
            if kept_groups:
                hooks[event] = kept_groups
            else:
                del hooks[event]
    if not hooks and changes:
        del result["hooks"]
    return result, changes
