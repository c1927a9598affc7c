"""augment (priority 30): Augment's ``.augment/rules``.

User tier ``~/.augment/rules/**/*.md`` first (always applied, whatever the
frontmatter says, as Augment treats user rules), then
``.augment/rules/**/*.md`` in each directory of the root→cwd walk (not nested
folders: Augment reads the workspace root's folder). Name: the path in the
folder. ``type``: ``always_apply`` (the default) → always, ``agent_requested``
→ ``description`` (manual without one), ``manual`` → manual — mapped onto the
buckets the way Windsurf's triggers are.

Follows: Augment's rules docs, https://docs.augmentcode.com/cli/rules.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir
from ruleweave.rules import Rule

ID, PRIORITY = "augment", 30


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    kind = (fm.as_text(data.get("type")) or "always_apply").lower().replace("-", "_")
    description = fm.as_text(data.get("description"))
    if kind == "agent_requested":
        return {"always_apply": False, "description": description}
    if kind == "manual":
        return {"always_apply": False}
    return {"always_apply": True, "description": description}


def _always(data: dict[str, Any]) -> dict[str, Any]:
    return {"always_apply": True, "description": fm.as_text(data.get("description"))}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Augment rules, user tier first."""
    if ctx.nested:
        return []
    rules = load_dir(
        ctx, under(ctx.config.user_home, ".augment/rules"), provider=ID, priority=PRIORITY,
        level="user", mapper=_always,
    )
    for folder in ctx.folders(".augment/rules"):
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", mapper=_fields,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.augment/rules, .augment/rules/**/*.md (type:)", places=True)
