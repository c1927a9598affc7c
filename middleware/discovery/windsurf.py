"""windsurf (priority 50): Windsurf (Devin) rules and memories.

User tier ``~/.codeium/windsurf/memories/global_rules.md`` (always applied,
named ``global_rules``) first, then ``.windsurf/rules/*.md``, ``.devin/rules/*.md``
(the same format under its new name) and the legacy ``.windsurfrules`` file
(always, named ``windsurfrules``) in each directory of the root→cwd walk.
Name: the stem. ``trigger`` (``trigger_fields``): ``always_on`` → always,
``glob`` → ``globs`` (a bare ``*.py`` matches anywhere), ``model_decision`` →
``description``, ``manual`` → manual. Cascade reads at most 12,000 characters of
a rule file: the rest is cut there, with a warning naming the file.

Follows: Windsurf's docs, https://docs.windsurf.com/windsurf/cascade/memories (Rules).
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "windsurf", 50
MAX_CHARS = 12_000
"""Cascade's limit on one rule file, in characters."""
_FOLDERS = (".windsurf", ".devin")


def trigger_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The shared mapping with Windsurf's ``trigger`` applied (Antigravity reads it the same way)."""
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


def cut_to_limit(ctx: DiscoveryContext, rules: list[Rule], limit: int = MAX_CHARS) -> list[Rule]:
    """Each rule cut at ``limit`` characters, as Cascade reads it, with a warning naming the file."""
    out: list[Rule] = []
    for rule in rules:
        extra = len(rule.content) - limit
        if extra <= 0:
            out.append(rule)
            continue
        ctx.warn(
            rule.path,
            f"is {len(rule.content):,} characters, over Windsurf's limit of {limit:,} for a rule file; "
            f"the last {extra:,} characters were cut (Cascade never sees them)",
        )
        marker = f"\n[ruleweave: rule cut at {limit:,} characters, as Windsurf reads it]"
        content = rule.content[:limit] + marker
        out.append(rule._replace(content=content, truncated=True))
    return out


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Windsurf rules, user tier first."""
    global_rules = ctx.config.user_home / ".codeium" / "windsurf" / "memories" / "global_rules.md"
    rules = load_file(
        ctx, global_rules, provider=ID, priority=PRIORITY, level="user",
        name="global_rules", mapper=_always,
    )
    for directory in ctx.walk_spelled:
        for folder in _FOLDERS:
            rules += load_dir(
                ctx, under(directory, f"{folder}/rules"), provider=ID, priority=PRIORITY,
                level="project", recursive=False, mapper=trigger_fields,
            )
        rules += load_file(
            ctx, under(directory, ".windsurfrules"), provider=ID, priority=PRIORITY, level="project",
            name="windsurfrules", mapper=_always,
        )
    return cut_to_limit(ctx, rules)


PROVIDER = Provider(
    ID, PRIORITY, load, "global_rules.md, .windsurf/rules/*.md, .devin/rules/*.md, .windsurfrules",
    places=True,
)
