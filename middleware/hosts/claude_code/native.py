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
``fit_context`` cuts only a notice alone over it. The facts themselves
(``NATIVE_PROVIDER``, ``NATIVE_FILES``, ``NATIVE_FALLBACK``, ``CONTEXT_LIMIT``) are the host's
declaration, ``ruleweave.hosts.claude_code``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ruleweave.hosts.claude_code import (
    AGENTS_MD_PLUGIN,
    CONTEXT_LIMIT,
    NATIVE_FALLBACK,
    NATIVE_FILES,
    NATIVE_PROVIDER,
)

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig

HOOK_NOTICE_BYTES = CONTEXT_LIMIT
"""Byte budget of one rule's or file's notice in a hook, whatever the config says: each goes out alone
if need be (``delivery``), so only a rule whose notice alone is over the limit is cut."""

_CUT_MARKER = (
    "\n[ruleweave: {dropped} bytes left out to stay under Claude Code's 10,000-character hook limit{where}]"
)


def hook_config(
    config: RuleweaveConfig, *, leave_out_native: bool = True, templates: Mapping[str, str] | None = None
) -> RuleweaveConfig:
    """``config`` for Claude Code hooks: notices within the hook limit, and without what Claude Code loads.

    The prompt contribution keeps the configured ``prompt_max_bytes``: a start context
    longer than one answer goes out in parts (``delivery.split_start``).

    Args:
        config: The caller's configuration.
        leave_out_native: Drop the ``claude`` provider and the instruction files Claude Code
            reads itself (``NATIVE_FILES``, and ``NATIVE_FALLBACK`` where ``agents_md_native``).
        templates: Template defaults of this way of running the hooks (how a rule is read in
            full: ``served.READ_RULE_TEMPLATES``); the caller's own overrides win.

    Returns:
        The derived configuration (``config`` itself when nothing changes).
    """
    update: dict[str, Any] = {}
    if config.notice_max_bytes != HOOK_NOTICE_BYTES:  # each notice goes out alone: the limit is the budget
        update["notice_max_bytes"] = HOOK_NOTICE_BYTES
    if leave_out_native:
        if NATIVE_PROVIDER not in config.disabled_providers:
            update["disabled_providers"] = config.disabled_providers | {NATIVE_PROVIDER}
        native = NATIVE_FILES | NATIVE_FALLBACK if agents_md_native(config) else NATIVE_FILES
        kept = tuple(name for name in config.instruction_files if name not in native)
        if kept != config.instruction_files:
            update["instruction_files"] = kept
    missing = {name: text for name, text in (templates or {}).items() if name not in config.templates}
    if missing:
        update["templates"] = {**config.templates, **missing}
    return config.replace(**update) if update else config


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


def _plugin_enabled(config: RuleweaveConfig) -> bool:
    """``enabledPlugins`` for ``AGENTS_MD_PLUGIN`` in the user's, the project's and the local settings."""
    from ruleweave._files.reading import read_text

    enabled = True
    files = [config.claude_dir / "settings.json", *(config.root / name for name in _SETTINGS)]
    for path in files:
        text = read_text(path, config.max_file_bytes).text
        try:
            settings = json.loads(text) if text else None
        except ValueError:
            continue  # Claude Code reports a broken settings file; it names no plugin here
        plugins = settings.get("enabledPlugins") if isinstance(settings, dict) else None
        if isinstance(plugins, dict) and isinstance(plugins.get(AGENTS_MD_PLUGIN), bool):
            enabled = plugins[AGENTS_MD_PLUGIN]
    return enabled


def fit_context(text: str, *, where: str | None = None, limit: int = CONTEXT_LIMIT) -> tuple[str, bool]:
    """``text`` cut on a line boundary to stay within ``limit`` UTF-16 code units (as Claude Code counts).

    Args:
        text: The context.
        where: Where the whole text is (``rule://name``, a path), for the marker.
        limit: The most UTF-16 code units.

    Returns:
        The text, ending with a marker saying how many bytes were left out and where the whole
        text is when it was cut, and whether it was cut.
    """
    from ruleweave._kernel.delivery import utf16_len

    if utf16_len(text) <= limit:
        return text, False
    size = len(text.encode("utf-8", "surrogatepass"))
    tail = "" if where is None else f"; whole text at {where}"
    marker = _CUT_MARKER.format(dropped=size, where=tail)  # the widest the count can be
    room = limit - utf16_len(marker)
    head = text.encode("utf-16-le", "surrogatepass")[: 2 * max(room, 0)].decode("utf-16-le", "ignore")
    newline = head.rfind("\n")
    head = head[:newline] if newline > 0 else head
    dropped = size - len(head.encode("utf-8", "surrogatepass"))
    return head + _CUT_MARKER.format(dropped=dropped, where=tail), True
