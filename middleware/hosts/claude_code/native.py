"""What Claude Code loads itself, and the limits its hooks live under, applied to a configuration.

Claude Code (2.1.332, checked against the CLI) reads ``CLAUDE.md``,
``.claude/CLAUDE.md`` and ``CLAUDE.local.md`` on the walk up from its cwd and
nested ones when a file below them is read, with their imports, and
``.claude/rules``; a hook that injected them again would double them.
``AGENTS.md`` it reads through its built-in ``cc-plugin-agents-md`` plugin,
and only as a fallback: in a project with no ``CLAUDE.md`` family file on
that walk, the ``AGENTS.md`` files from the cwd up and, on a read, the
nested ones below (``agents_md_native``). In every other project the hook
delivers ``AGENTS.md``, root and nested. Hook context over 10,000 characters is not
cut by Claude Code but replaced by a file pointer, so every answer stays below
that: the start context keeps the configured ``prompt_max_bytes`` and goes out in
parts (``delivery.split_start``), a notice may take the whole limit, and
``ruleweave.hosts._core.native.fit_context`` cuts only a notice alone over it. The facts themselves
(``NATIVE_PROVIDER``, ``NATIVE_FILES``, ``NATIVE_FALLBACK``, ``CONTEXT_LIMIT``) are the host's
declaration, ``ruleweave.hosts.claude_code``.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from ruleweave.hosts.claude_code import AGENTS_MD_PLUGIN, NATIVE_FILES

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig


_SETTINGS = (".claude/settings.json", ".claude/settings.local.json")
"""Claude Code's project settings files, in the order they override the user's."""


def agents_md_native(config: RuleweaveConfig) -> bool:
    """Whether Claude Code loads ``AGENTS.md`` itself in this project (so the hook leaves it out).

    Its built-in plugin does, unless switched off in ``enabledPlugins`` (user, project, local
    settings; the last that names it wins), when no ``CLAUDE.md``, ``.claude/CLAUDE.md`` or
    ``CLAUDE.local.md`` is in the cwd or a directory above it (up to, not including, the
    filesystem root; the user's own ``CLAUDE.md`` in Claude's config directory does not count).
    A nested ``AGENTS.md`` beside a ``CLAUDE.md`` is then left out too, although the CLI skips it.

    Args:
        config: The configuration (cwd, root and Claude's config directory).

    Returns:
        ``True`` when Claude Code loads ``AGENTS.md`` from the cwd up and nested ones on a read.
    """
    if not _plugin_enabled(config):
        return False
    user_memory = os.path.normpath(config.claude_dir / "CLAUDE.md")
    directory = os.path.normpath(config.cwd)
    while os.path.dirname(directory) != directory:
        for name in NATIVE_FILES:
            path = os.path.join(directory, name)
            if path != user_memory and os.path.isfile(path):
                return False
        directory = os.path.dirname(directory)
    return True


def hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Claude Code runs none of ruleweave's hooks in this project, or ``None``.

    ``disableAllHooks: true`` turns every hook off: the managed settings' value when they set it,
    else that of the most specific of the user's, the project's and the local settings;
    ``allowManagedHooksOnly: true`` in the managed settings keeps only the organisation's hooks
    (set elsewhere it does nothing). Each case checked with the CLI (2.1.332): no hook ran.

    Args:
        config: The configuration (root, Claude's config and managed directories).

    Returns:
        The setting and the file that sets it, as a phrase.
    """
    managed_path = config.claude_managed / "managed-settings.json"
    managed = _settings(managed_path, config)
    if isinstance(managed.get("disableAllHooks"), bool):
        return f"disableAllHooks in {managed_path}" if managed["disableAllHooks"] else None
    if managed.get("allowManagedHooksOnly") is True:
        return f"allowManagedHooksOnly in {managed_path}"
    found: str | None = None
    for path in _settings_files(config):
        value = _settings(path, config).get("disableAllHooks")
        if isinstance(value, bool):
            found = f"disableAllHooks in {path}" if value else None
    return found


def _plugin_enabled(config: RuleweaveConfig) -> bool:
    """``enabledPlugins`` for ``AGENTS_MD_PLUGIN`` in the user's, the project's and the local settings."""
    enabled = True
    for path in _settings_files(config):
        plugins = _settings(path, config).get("enabledPlugins")
        if isinstance(plugins, dict) and isinstance(plugins.get(AGENTS_MD_PLUGIN), bool):
            enabled = plugins[AGENTS_MD_PLUGIN]
    return enabled


def _settings_files(config: RuleweaveConfig) -> list[Path]:
    """The user's, the project's and the local settings, each overriding the one before."""
    return [config.claude_dir / "settings.json", *(config.root / name for name in _SETTINGS)]


def _settings(path: Path, config: RuleweaveConfig) -> dict[str, Any]:
    """A settings file's object; ``{}`` when it is absent, unreadable or broken (Claude Code reports
    a broken one and reads nothing from it)."""
    from ruleweave._files.reading import read_text

    text = read_text(path, config.max_file_bytes).text
    try:
        settings = json.loads(text) if text else None
    except ValueError:
        return {}
    return settings if isinstance(settings, dict) else {}
