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
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir
from ruleweave.rules import Level, Rule

ID, PRIORITY = "roo", 40
SUFFIXES = (".md", ".markdown", ".txt")
MODE_PREFIX = "rules-"


def _always(_: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True}


def _manual(_: dict[str, Any]) -> dict[str, Any]:
    return {}


def _mode_folders(ctx: DiscoveryContext, roo: Path, level: Level) -> list[tuple[str, Path]]:
    """``(mode, folder)`` for each ``rules-<mode>`` directory in ``roo``, sorted by mode."""
    if not roo.is_dir() or not ctx.contained(roo, level):
        return []
    try:
        with os.scandir(roo) as entries:
            names = sorted(e.name for e in entries if e.name.startswith(MODE_PREFIX) and e.is_dir())
    except OSError:
        return []  # absent or unreadable ``.roo``: nothing to read (list_files warns on the rest)
    return [(name[len(MODE_PREFIX) :], roo / name) for name in names if len(name) > len(MODE_PREFIX)]


def _load_roo(ctx: DiscoveryContext, roo: Path, level: Level) -> list[Rule]:
    rules = load_dir(
        ctx, roo / "rules", provider=ID, priority=PRIORITY, level=level,
        suffixes=SUFFIXES, mapper=_always, stem_suffixes=SUFFIXES,
    )
    for mode, folder in _mode_folders(ctx, roo, level):
        found = load_dir(
            ctx, folder, provider=ID, priority=PRIORITY, level=level, suffixes=SUFFIXES,
            mapper=_always if mode == ctx.config.mode else _manual, stem_suffixes=SUFFIXES,
        )
        rules += [rule.model_copy(update={"name": f"{folder.name}/{rule.name}"}) for rule in found]
    return rules


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Roo Code rules, user tier first."""
    if ctx.nested:
        return []
    rules = _load_roo(ctx, ctx.config.user_home / ".roo", "user")
    for directory in ctx.walk:
        rules += _load_roo(ctx, directory / ".roo", "project")
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.roo/rules*, .roo/rules/, .roo/rules-<mode>/")
