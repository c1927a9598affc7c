"""Qwen Code's installer: ruleweave's hooks merged into a ``.qwen/settings.json``, and taken out again.

Qwen Code reads Claude Code's hook schema (``{"hooks": {"PostToolUse": [{"matcher": "*",
"hooks": [{"type": "command", "command": ...}]}]}}``) from ``<cwd>/.qwen/settings.json``
(the directory it starts in, not walked up) and ``$QWEN_HOME/settings.json`` (``~/.qwen``;
``loadSettings``, ``Storage.getWorkspaceSettingsPath``). The project scope writes the
file at the project root, where Qwen is normally started; the user scope the one in
``$QWEN_HOME``. One command hook per event of ``HOST.events`` is added unless it is there
(twice = once); every other key, hook and matcher group is kept in its order, and a file
that needs no change keeps its bytes. Qwen also accepts comments in the file; ruleweave
cannot merge into such a file without losing them, so it refuses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL
from ruleweave.hosts._hooks_json import HooksJson, SettingsError
from ruleweave.hosts.qwen import HOST

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig

__all__ = ["SettingsError", "change", "files", "hooks_off", "is_ours"]

TOOL_EVENTS = frozenset(event for event, kind in HOST.events.items() if kind in (BEFORE_TOOL, AFTER_TOOL))
"""Events whose matcher group names tools (``*``: every tool, so steering sees them all)."""


HOOKS = HooksJson(
    agent=HOST.name,
    events=tuple(HOST.events),
    matchers=dict.fromkeys(TOOL_EVENTS, "*"),
    config_keys=frozenset({"enabled", "disabled", "notifications"}),  # Qwen's HOOKS_CONFIG_FIELDS
    error=SettingsError,
)
"""Qwen Code's variant of the Claude-style hook settings."""


def files(scope: str, config: RuleweaveConfig) -> list[Path]:
    """The file an install in ``scope`` writes: ``project`` ``<root>/.qwen/settings.json``, ``user``
    ``$QWEN_HOME/settings.json`` (``~/.qwen``), where Qwen Code reads its user settings
    (``Storage.getGlobalSettingsPath``).

    Args:
        scope: One of ``HOST.scopes``.
        config: The project's configuration (its root and the agent's user folder).

    Returns:
        The one settings file (it may not exist yet).
    """
    if scope == "user":
        return [config.qwen_dir / "settings.json"]
    return [config.root / ".qwen" / "settings.json"]


is_ours = HOOKS.is_ours
"""Whether a hook entry is a command that runs ``ruleweave hook qwen`` (bare, by path or quoted)."""

change = HOOKS.change
"""``path``'s new text with ruleweave's hooks added (or removed), and one line per change
(``HooksJson.change``; ``SettingsError`` for a file that is not Qwen's settings object)."""


def hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Qwen Code's settings run no hook here, or ``None``: ``disableAllHooks: true`` in the layer
    that decides it (system defaults, the user's, ``<cwd>/.qwen``, the system settings; real runs: set in
    the user's or the project's settings, no hook ran, and the project's ``false`` over the user's
    ``true`` ran them).

    Args:
        config: The configuration (the cwd and ``$QWEN_HOME``).
    """
    from ruleweave.hosts._layered_settings import QWEN, layers, setting

    user, workspace = config.qwen_dir / "settings.json", config.cwd / ".qwen" / "settings.json"
    found = layers(QWEN, str(user), str(workspace), root=str(config.root))
    decided = setting(found, "disableAllHooks")
    return f"disableAllHooks in {decided[0]}" if decided is not None and decided[1] is True else None
