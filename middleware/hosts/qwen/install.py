"""Qwen Code's installer: ruleweave's hooks merged into a ``.qwen/settings.json``, and taken out again.

Qwen Code reads Claude Code's hook schema (``{"hooks": {"PostToolUse": [{"matcher": "*",
"hooks": [{"type": "command", "command": ...}]}]}}``) from ``<cwd>/.qwen/settings.json``
(the directory it starts in, not walked up) and ``~/.qwen/settings.json``
(``loadSettings``, ``Storage.getWorkspaceSettingsPath``). The project scope writes the
file at the project root, where Qwen is normally started; the user scope the one in
``~/.qwen``. One command hook per event of ``HOST.events`` is added unless it is there
(twice = once); every other key, hook and matcher group is kept in its order, and a file
that needs no change keeps its bytes. Qwen also accepts comments in the file; ruleweave
cannot merge into such a file without losing them, so it refuses it.
"""

from __future__ import annotations

import copy
import json
import shlex
from typing import TYPE_CHECKING, Any

from ruleweave.errors import RuleweaveError
from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL
from ruleweave.hosts.qwen import HOST

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["SettingsError", "change", "files", "is_ours"]

TOOL_EVENTS = frozenset(event for event, kind in HOST.events.items() if kind in (BEFORE_TOOL, AFTER_TOOL))
"""Events whose matcher group names tools (``*``: every tool, so steering sees them all)."""


class SettingsError(RuleweaveError, ValueError):
    """The settings file is not the JSON object Qwen Code reads (one sentence)."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.qwen/settings.json``, ``user``
    ``~/.qwen/settings.json``.

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and the user's home).

    Returns:
        The one settings file (it may not exist yet).
    """
    base = config.user_home if scope == "user" else config.root
    return [base / ".qwen" / "settings.json"]


def is_ours(entry: Any) -> bool:
    """Whether a hook entry is a command that runs ``ruleweave hook qwen`` (bare, by path or quoted)."""
    if not isinstance(entry, dict) or entry.get("type", "command") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: not a command the installer wrote
        return False
    return (
        len(words) >= 3 and words[0].replace("\\", "/").rsplit("/", 1)[-1] in ("ruleweave", "ruleweave.exe")
        and words[1] == "hook" and words[2] == HOST.name
    )


def change(path: Path, text: str | None, *, command: str, uninstall: bool) -> tuple[str | None, list[str]]:
    """``path``'s new text with ruleweave's hooks added (or removed), and one line per change.

    Args:
        path: The settings file (for messages only).
        text: Its text (``None``: it does not exist).
        command: The hook command line (``ruleweave hook qwen``).
        uninstall: Take ruleweave's entries out instead.

    Returns:
        The new text (``text`` itself when nothing changes; ``None``: no file, as when an uninstall
        leaves it empty) and the change lines.

    Raises:
        SettingsError: The file is not a JSON object, or its ``hooks`` has the wrong shape.
    """
    settings = _parsed(path, text)
    new, changes = _uninstall(settings) if uninstall else _install(settings, command)
    if not changes:
        return text, []
    if uninstall and not new:
        return None, changes  # nothing but ruleweave's hooks was in it
    return json.dumps(new, indent=2, ensure_ascii=False) + "\n", changes


def _parsed(path: Path, text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        settings = json.loads(text)
    except ValueError as exc:
        raise SettingsError(f"{path} is not plain JSON (comments cannot be merged): {exc}") from exc
    _checked(path, settings)
    return settings  # type: ignore[no-any-return]


def _checked(path: Path, settings: Any) -> None:
    if not isinstance(settings, dict):
        raise SettingsError(f"{path} holds JSON but not an object.")
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f'The "hooks" of {path} is not an object.')
    for event, groups in hooks.items():
        if event in ("enabled", "disabled", "notifications"):  # Qwen's HOOKS_CONFIG_FIELDS, not events
            continue
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise SettingsError(f'The "hooks.{event}" of {path} is not a list of matcher groups.')
        if not all(isinstance(g.get("hooks", []), list) for g in groups):
            raise SettingsError(
                f'A matcher group of "hooks.{event}" in {path} has "hooks" that is not a list.'
            )


def _install(settings: dict[str, Any], command: str) -> tuple[dict[str, Any], list[str]]:
    result = copy.deepcopy(settings)
    hooks = result.setdefault("hooks", {})
    changes: list[str] = []
    for event in HOST.events:
        groups = hooks.setdefault(event, [])
        ours = [(group, index) for group in groups for index, entry in enumerate(group.get("hooks", []))
                if is_ours(entry)]
        for group, index in ours:
            if group["hooks"][index]["command"] != command:
                changes.append(f"{event}: re-spelled {group['hooks'][index]['command']!r} as {command!r}")
                group["hooks"][index]["command"] = command
        if not ours:
            group = {"matcher": "*"} if event in TOOL_EVENTS else {}
            group["hooks"] = [{"type": "command", "command": command}]
            groups.append(group)
            changes.append(f"{event}: added {command!r}")
    return result, changes


def _uninstall(settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    result = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        return result, []
    changes: list[str] = []
    for event in list(hooks):
        if not isinstance(hooks[event], list):
            continue
        kept_groups = []
        for group in hooks[event]:
            entries = group.get("hooks", [])
            kept = [entry for entry in entries if not is_ours(entry)]
            changes.extend(f"{event}: removed {entry['command']!r}" for entry in entries if is_ours(entry))
            if kept or not entries:
                kept_groups.append(group if len(kept) == len(entries) else {**group, "hooks": kept})
        if kept_groups:
            hooks[event] = kept_groups
        else:
            del hooks[event]
    if not hooks and changes:
        del result["hooks"]
    return result, changes
