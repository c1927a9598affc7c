"""continue (priority 30): Continue's ``.continue/rules``.

User tier ``~/.continue/rules`` first, then ``.continue/rules/*.md`` in each
directory of the root→cwd walk. Name: frontmatter ``name``, else the stem.
``globs``, ``regex`` (a gate on the touched file's content), ``description``
and ``alwaysApply``; with ``alwaysApply`` unset and no globs the rule is
always applied, as in Continue.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "continue", 30


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    fields["content_regex"] = fm.as_strings(data.get("regex"))
    if data.get("always_apply") is None and not fields["globs"]:
        fields["always_apply"] = True
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Continue rules, user tier first."""
    rules = load_dir(
        ctx, ctx.config.user_home / ".continue" / "rules", provider=ID, priority=PRIORITY,
        level="user", recursive=False, mapper=_fields, name_from_frontmatter=True,
    )
    for directory in ctx.walk:
        folder = directory / ".continue" / "rules"
        if folder.is_file():
            ctx.warn(folder, "is a file, not a folder: Continue reads the rule files inside "
                     ".continue/rules/; move it to .continue/rules/<name>.md")
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", recursive=False, mapper=_fields, name_from_frontmatter=True,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.continue/rules, .continue/rules/*.md")
