"""cursor (priority 50): Cursor's ``.cursor/rules`` and legacy ``.cursorrules``.

User tier ``~/.cursor/rules`` first, then ``.cursor/rules/**/*.{mdc,md}`` in
each directory of the root→cwd walk, and the legacy ``.cursorrules`` file
(always applied, named ``cursorrules``) at the project root only, where Cursor
reads it. Name: the path in the folder without the suffix. Cursor's four rule
types map onto the buckets: Always (``alwaysApply``), Auto Attached
(``globs``; a bare ``*.ts`` matches anywhere), Agent Requested
(``description``), Manual (none of them). ``.mdc`` is the documented format:
current Cursor ignores ``.md`` files in ``.cursor/rules``; they are still read,
with an info line in ``scan`` naming the folder.

Follows: Cursor's rules docs, https://cursor.com/docs/context/rules.
"""

from __future__ import annotations

import os
from typing import Any

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, note, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "cursor", 50


def _legacy(data: dict[str, Any]) -> dict[str, Any]:
    return {**standard_fields(data), "always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Cursor rules, user tier first."""
    rules = load_dir(
        ctx, under(ctx.config.user_home, ".cursor/rules"), provider=ID, priority=PRIORITY,
        level="user", suffixes=(".mdc", ".md"),
    )
    root = str(ctx.config.root)
    for directory in ctx.walk_spelled:
        folder = under(directory, ".cursor/rules")
        if os.path.isfile(folder):
            ctx.warn(folder, "is a file, not a folder: Cursor reads the rule files inside .cursor/rules/; "
                     "move it to .cursor/rules/<name>.mdc")
        found = load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", suffixes=(".mdc", ".md"),
        )
        plain = sum(1 for rule in found if rule.path.endswith(".md"))
        if plain:
            note(ctx, folder, f"holds {plain} .md rule file{'s' if plain > 1 else ''}: current Cursor reads "
                 "only .mdc files there; ruleweave still reads them (rename to .mdc)")
        rules += found
        if directory == root and not ctx.nested:
            rules += load_file(
                ctx, under(directory, ".cursorrules"), provider=ID, priority=PRIORITY, level="project",
                name="cursorrules", mapper=_legacy,
            )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "~/.cursor/rules, .cursor/rules/**/*.{mdc,md}, .cursorrules", places=True,
)
