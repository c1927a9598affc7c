"""cursor (priority 50): Cursor's ``.cursor/rules`` and legacy ``.cursorrules``.

User tier ``~/.cursor/rules`` first, then ``.cursor/rules/**/*.{mdc,md}`` and
the legacy ``.cursorrules`` file (always applied, named ``cursorrules``) in
each directory of the root→cwd walk. Name: the stem. Cursor's four rule
types map onto the buckets: Always (``alwaysApply``), Auto Attached
(``globs``), Agent Requested (``description``), Manual (none of them).
"""

from __future__ import annotations

from typing import Any

from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "cursor", 50


def _legacy(data: dict[str, Any]) -> dict[str, Any]:
    return {**standard_fields(data), "always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Cursor rules, user tier first."""
    rules = load_dir(
        ctx, ctx.config.user_home / ".cursor" / "rules", provider=ID, priority=PRIORITY,
        level="user", suffixes=(".mdc", ".md"),
    )
    for directory in ctx.walk:
        folder = directory / ".cursor" / "rules"
        if folder.is_file():
            ctx.warn(folder, "is a file, not a folder: Cursor reads the rule files inside .cursor/rules/; "
                     "move it to .cursor/rules/<name>.mdc")
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", suffixes=(".mdc", ".md"),
        )
        rules += load_file(
            ctx, directory / ".cursorrules", provider=ID, priority=PRIORITY, level="project",
            name="cursorrules", mapper=_legacy,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.cursor/rules, .cursor/rules/**/*.{mdc,md}, .cursorrules")
