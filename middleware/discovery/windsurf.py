"""windsurf (priority 50): Windsurf rules and memories.

User tier ``~/.codeium/windsurf/memories/global_rules.md`` (always applied,
named ``global_rules``) first, then ``.windsurf/rules/*.md`` and the legacy
``.windsurfrules`` file (always, named ``windsurfrules``) in each directory
of the root→cwd walk. Name: the stem. ``trigger``: ``always_on`` → always,
``glob`` → ``globs``, ``model_decision`` → ``description``, ``manual`` → manual.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "windsurf", 50


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    trigger = (fm.as_text(data.get("trigger")) or "").lower().replace("-", "_")
    if trigger == "always_on":
        fields["always_apply"] = True
    elif trigger == "glob":
        fields["always_apply"] = False
        fields["description"] = None
    elif trigger == "model_decision":
        fields["always_apply"] = False
        fields["globs"] = ()
    elif trigger == "manual":
        fields.update(always_apply=False, globs=(), description=None)
    return fields


def _always(data: dict[str, Any]) -> dict[str, Any]:
    return {**standard_fields(data), "always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Windsurf rules, user tier first."""
    global_rules = ctx.config.user_home / ".codeium" / "windsurf" / "memories" / "global_rules.md"
    rules = load_file(
        ctx, global_rules, provider=ID, priority=PRIORITY, level="user",
        name="global_rules", mapper=_always,
    )
    for directory in ctx.walk:
        rules += load_dir(
            ctx, directory / ".windsurf" / "rules", provider=ID, priority=PRIORITY,
            level="project", recursive=False, mapper=_fields,
        )
        rules += load_file(
            ctx, directory / ".windsurfrules", provider=ID, priority=PRIORITY, level="project",
            name="windsurfrules", mapper=_always,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "global_rules.md, .windsurf/rules/*.md, .windsurfrules")
