"""roo (priority 40): Roo Code (and Zoo Code) rule folders.

User tier ``~/.roo/rules/`` and ``~/.roo/rules-<mode>/`` first, then
``.roo/rules/`` and ``.roo/rules-<mode>/`` in each directory of the root→cwd
walk (not nested folders: Roo reads the workspace's own ``.roo``). Every
``.md``/``.markdown``/``.txt`` file below them, recursively, in path order.
``.roo/rules/`` is always applied (Roo puts it in every prompt, frontmatter
has no meaning to it). A mode's folder is always applied when
``RuleweaveConfig.mode`` names that mode, else manual (``rule://`` only).
Name: the path in ``.roo/rules/``; ``rules-<mode>/<path>`` for a mode's
folder, so ``code``'s ``style`` and the shared ``style`` are two rules.

The legacy single files are Roo's fallback, read at the project root only:
``.roorules`` when ``.roo/rules/`` is missing or empty, ``.roorules-<mode>``
(for Roo's built-in modes and the configured one) when ``.roo/rules-<mode>/`` is (https://docs.roocode.com/features/custom-instructions).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file
from ruleweave.rules import Level, Rule

ID, PRIORITY = "roo", 40
SUFFIXES = (".md", ".markdown", ".txt")
MODE_PREFIX = "rules-"
LEGACY = ".roorules"
BUILT_IN_MODES = ("architect", "ask", "code", "debug", "orchestrator")
"""Roo's built-in modes (https://docs.roocode.com/basic-usage/using-modes)."""


def _always(_: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True}


def _manual(_: dict[str, Any]) -> dict[str, Any]:
    return {}


def _mode_folders(ctx: DiscoveryContext, roo: str, level: Level) -> list[tuple[str, str]]:
    """``(mode, folder)`` for each ``rules-<mode>`` directory in ``roo``, sorted by mode."""
    if not os.path.isdir(roo) or not ctx.contained(roo, level):
        return []
    try:
        with os.scandir(roo) as entries:
            names = sorted(e.name for e in entries if e.name.startswith(MODE_PREFIX) and e.is_dir())
    except OSError:
        return []  # absent or unreadable ``.roo``: nothing to read (list_files warns on the rest)
    return [(name[len(MODE_PREFIX) :], under(roo, name)) for name in names if len(name) > len(MODE_PREFIX)]


def _load_roo(ctx: DiscoveryContext, roo: str, level: Level) -> list[Rule]:
    rules = load_dir(
        ctx, under(roo, "rules"), provider=ID, priority=PRIORITY, level=level,
        suffixes=SUFFIXES, mapper=_always, stem_suffixes=SUFFIXES,
    )
    for mode, folder in _mode_folders(ctx, roo, level):
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY, level=level, suffixes=SUFFIXES,
            mapper=_always if mode == ctx.config.mode else _manual, stem_suffixes=SUFFIXES,
            name_prefix=f"{os.path.basename(folder)}/",
        )
    return rules


def _legacy_modes(ctx: DiscoveryContext) -> list[str]:
    """The modes whose ``.roorules-<mode>`` file is looked for: Roo's own and the configured one.

    Probed by name rather than by listing the project root, which discovery never lists.
    """
    mode = ctx.config.mode
    return sorted({*BUILT_IN_MODES, *([mode] if mode and "/" not in mode else [])})


def _load_legacy(ctx: DiscoveryContext, root: Path, found: list[Rule]) -> list[Rule]:
    """``.roorules`` and ``.roorules-<mode>`` where the matching ``.roo`` folder gave nothing."""
    have = {rule.name.partition("/")[0] if rule.name.startswith(MODE_PREFIX) else "" for rule in found}
    rules: list[Rule] = []
    if "" not in have:
        rules += load_file(
            ctx, root / LEGACY, provider=ID, priority=PRIORITY, level="project", name=LEGACY, mapper=_always
        )
    for mode in _legacy_modes(ctx):
        if MODE_PREFIX + mode not in have:
            rules += load_file(
                ctx, root / f"{LEGACY}-{mode}", provider=ID, priority=PRIORITY, level="project",
                name=f"{LEGACY}-{mode}", mapper=_always if mode == ctx.config.mode else _manual,
            )
    return rules


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Roo Code rules, user tier first."""
    if ctx.nested:
        return []
    rules = _load_roo(ctx, under(ctx.config.user_home, ".roo"), "user")
    for directory in ctx.walk:
        found = _load_roo(ctx, under(directory, ".roo"), "project")
        if directory == ctx.config.root:
            found += _load_legacy(ctx, directory, found)
        rules += found
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "~/.roo/rules*, .roo/rules/, .roo/rules-<mode>/, else .roorules(-<mode>)",
    places=True,
)
