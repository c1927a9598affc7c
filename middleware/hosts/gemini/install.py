"""Gemini CLI's installer: ruleweave's hooks merged into a ``.gemini/settings.json``, and taken out again.

Gemini CLI reads ``{"hooks": {"AfterTool": [{"matcher": "*", "hooks": [{"type":
"command", "command": ..., "name": ...}]}]}}`` from ``<cwd>/.gemini/settings.json``
(the directory it starts in) and ``~/.gemini/settings.json`` (0.61.0,
``loadSettings``; docs ``hooks/reference.md``). The project scope writes the file
at the project root, where Gemini is normally started; the user scope the one in
the user's home. One command hook named ``ruleweave`` per event of
``HOST.events`` is added unless it is there (twice = once): tool events match
every tool (``*``), PreCompress only ``manual`` (``/compress``; ``auto`` fires
before every model request), the others every occurrence. Every other key, hook
and matcher group is kept in its order, and a file that needs no change keeps its
bytes. Gemini also accepts comments in the file; ruleweave cannot merge into such
a file without losing them, so it refuses it.
"""

from __future__ import annotations

import copy
import json
import shlex
from typing import TYPE_CHECKING, Any

from ruleweave.errors import RuleweaveError
from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL, PRE_COMPACT
from ruleweave.hosts.gemini import HOST, MANUAL

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["HOOK_NAME", "SettingsError", "change", "files", "is_ours"]

HOOK_NAME = "ruleweave"
"""The name the hooks carry: ``/hooks disable ruleweave`` turns them off, and Gemini's trust record of
project hooks (``~/.gemini/trusted_hooks.json``, keyed by name and command) stays stable."""

MATCHERS = {
    **{event: "*" for event, kind in HOST.events.items() if kind in (BEFORE_TOOL, AFTER_TOOL)},
    **{event: MANUAL for event, kind in HOST.events.items() if kind == PRE_COMPACT},
}
"""Each event's matcher (a regular expression over tool names, an exact ``trigger``); others have none."""

_CONFIG_KEYS = ("enabled", "disabled", "notifications")
"""Keys of ``hooks`` that are not events (Gemini's ``HOOKS_CONFIG_FIELDS``)."""


class SettingsError(RuleweaveError, ValueError):
    """The settings file is not the JSON object Gemini CLI reads (one sentence)."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.gemini/settings.json``, ``user``
    ``~/.gemini/settings.json``.

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and the user's home).

    Returns:
        The one settings file (it may not exist yet).
    """
    base = config.user_home if scope == "user" else config.root
    return [base / ".gemini" / "settings.json"]


def is_ours(entry: Any) -> bool:
    """Whether a hook entry is a command that runs ``ruleweave hook gemini`` (bare, by path or quoted)."""
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
        command: The hook command line (``ruleweave hook gemini``).
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
    if not isinstance(settings, dict):
        raise SettingsError(f"{path} holds JSON but not an object.")
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f'The "hooks" of {path} is not an object.')
    for event, groups in hooks.items():
        if event in _CONFIG_KEYS:
            continue
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise SettingsError(f'The "hooks.{event}" of {path} is not a list of hook definitions.')
        if not all(isinstance(g.get("hooks", []), list) for g in groups):
            raise SettingsError(f'A definition of "hooks.{event}" in {path} has "hooks" that is not a list.')
    return settings


def _install(settings: dict[str, Any], command: str) -> tuple[dict[str, Any], list[str]]:
    result = copy.deepcopy(settings)
    hooks = result.setdefault("hooks", {})
    changes: list[str] = []
    for event in HOST.events:
        groups = hooks.setdefault(event, [])
        ours = [entry for group in groups for entry in group.get("hooks", []) if is_ours(entry)]
        for entry in ours:
            if entry["command"] != command:
                changes.append(f"{event}: re-spelled {entry['command']!r} as {command!r}")
                entry["command"] = command
        if not ours:
            group: dict[str, Any] = {"matcher": MATCHERS[event]} if event in MATCHERS else {}
            group["hooks"] = [{"type": "command", "command": command, "name": HOOK_NAME}]
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
        if event in _CONFIG_KEYS:
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
