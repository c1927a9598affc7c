"""Codex's installer: ruleweave's hooks merged into a ``hooks.json``, and taken out again.

Codex reads hooks from a ``hooks.json`` next to each config layer (``<root>/.codex``
for the project, ``$CODEX_HOME`` for the user) or from ``[hooks]`` tables in that
layer's ``config.toml``; it loads both, with a warning. ruleweave writes the JSON
file, so it never rewrites anyone's TOML. The file's root may hold only
``description`` and ``hooks`` (Codex refuses anything else); ``hooks`` maps each
event to matcher groups ``{"matcher": <regex>, "hooks": [{"type": "command",
"command": ..., "timeout": <seconds>}]}``. ruleweave's groups carry no matcher,
which is every tool. Every other key, group and hook is kept, in its order; a
file with nothing to change keeps its bytes.

Codex runs a project's hooks only once the project is trusted (``codex --trust``
or the trust prompt), and any hook that is not managed only after the user has
reviewed and trusted it (``/hooks`` in the TUI; ``--dangerously-bypass-hook-trust``
for automation): docs/hosts/codex.md.
"""

from __future__ import annotations

import json
import shlex
from typing import TYPE_CHECKING, Any

from ruleweave.hosts.claude_code.settings import SettingsError
from ruleweave.hosts.codex import HOST

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["COMMAND", "HOOK_EVENTS", "TIMEOUT", "change", "files", "install", "is_ours", "uninstall"]

HOOK_EVENTS: tuple[str, ...] = tuple(HOST.events)
"""The events ruleweave answers, in the order they are added."""

COMMAND = f"ruleweave hook {HOST.name}"
"""The hook command as installed by default: found on ``PATH``, so a committed file works on every
machine."""

TIMEOUT = 30
"""Seconds Codex gives one hook before it gives up on it (its default is 600): the hook answers in
milliseconds, and a stuck one should not hold a turn for ten minutes."""

_ROOT_KEYS = frozenset({"description", "hooks"})
"""The keys Codex accepts at the root of ``hooks.json``."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.codex/hooks.json``, ``user``
    ``$CODEX_HOME/hooks.json`` (``~/.codex``).

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and Codex's home).

    Returns:
        The paths (they may not exist yet).
    """
    if scope == "user":
        return [config.codex_dir / "hooks.json"]
    return [config.root / ".codex" / "hooks.json"]


def is_ours(entry: Any) -> bool:
    """Whether a hook entry runs ``ruleweave hook codex`` (bare, by path, or quoted as a shell would)."""
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


def _checked(data: Any) -> dict[str, Any]:
    """The file's ``hooks`` mapping, its shape checked.

    Raises:
        SettingsError: The file is not a JSON object, has a root key Codex refuses, or ``hooks``, an
            event's list or a matcher group has the wrong type.
    """
    if not isinstance(data, dict):
        raise SettingsError("it holds JSON but not an object")
    extra = sorted(set(data) - _ROOT_KEYS)
    if extra:
        raise SettingsError(f"Codex refuses a hooks.json whose root holds {', '.join(map(repr, extra))}")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError('its "hooks" is not an object')
    for event, groups in hooks.items():
        if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
            raise SettingsError(f'its "hooks.{event}" is not a list of matcher groups')
        for group in groups:
            if not isinstance(group.get("hooks", []), list):
                raise SettingsError(f'a matcher group of "hooks.{event}" has "hooks" that is not a list')
    return hooks


def install(data: Any, command: str = COMMAND) -> tuple[dict[str, Any], list[str]]:
    """``data`` with ruleweave's hook on every event of ``HOOK_EVENTS`` (an existing entry is kept, or
    re-spelled).

    Args:
        data: The parsed file (``{}`` for a missing one).
        command: The hook command to install.

    Returns:
        The new data (a copy) and one line per change (empty: nothing to do).

    Raises:
        SettingsError: The data has the wrong shape.
    """
    _checked(data)
    result: dict[str, Any] = json.loads(json.dumps(data))
    hooks = result.setdefault("hooks", {})
    changes: list[str] = []
    for event in HOOK_EVENTS:
        groups = hooks.setdefault(event, [])
        ours = [entry for group in groups for entry in group.get("hooks", []) if is_ours(entry)]
        for entry in ours:
            if entry["command"] != command:
                changes.append(f"{event}: re-spelled {entry['command']!r} as {command!r}")
                entry["command"] = command
        if not ours:
            groups.append({"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT}]})
            changes.append(f"{event}: added {command!r}")
    return result, changes


def uninstall(data: Any) -> tuple[dict[str, Any], list[str]]:
    """``data`` without ruleweave's hook entries (groups and events left empty by that go too).

    Returns:
        The new data (a copy) and one line per change.

    Raises:
        SettingsError: The data has the wrong shape.
    """
    hooks = _checked(data)
    result: dict[str, Any] = json.loads(json.dumps(data))
    if "hooks" not in result:
        return result, []
    changes: list[str] = []
    kept_events: dict[str, Any] = {}
    for event, groups in hooks.items():
        kept_groups = []
        for group in groups:
            entries = group.get("hooks", [])
            kept = [entry for entry in entries if not is_ours(entry)]
            changes.extend(f"{event}: removed {entry['command']!r}" for entry in entries if is_ours(entry))
            if kept or not entries:  # a group that held only ruleweave's entries goes
                kept_groups.append({**group, "hooks": kept} if len(kept) != len(entries) else group)
        if kept_groups or not groups:
            kept_events[event] = json.loads(json.dumps(kept_groups))
    result["hooks"] = kept_events
    return result, changes


def change(path: Path, text: str | None, *, command: str, uninstall: bool) -> tuple[str | None, list[str]]:
    """``path``'s new text with ruleweave's hooks added (or removed), and one line per change.

    Args:
        path: The file (``files``), for messages.
        text: Its text (``None``: it does not exist).
        command: The hook command line.
        uninstall: Remove ruleweave's hooks instead.

    Returns:
        The new text (``text`` itself when nothing changes; ``None``: the file is absent or an
        uninstall left it empty), and the change lines.

    Raises:
        SettingsError: The file is not JSON, or not the shape Codex reads.
    """
    if text is None or not text.strip():
        data: Any = {}
    else:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SettingsError(f"{path} is not JSON ({exc})") from exc
    after, changes = (_uninstall(data) if uninstall else install(data, command))
    if not changes:
        return text, []
    if uninstall and after == {"hooks": {}}:
        return None, changes
    return json.dumps(after, indent=2, ensure_ascii=False) + "\n", changes


_uninstall = uninstall  # ``change`` takes a flag of the same name
