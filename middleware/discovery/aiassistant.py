"""aiassistant (priority 30): JetBrains AI Assistant's ``.aiassistant/rules/*.md``.

In each directory of the root→cwd walk (not nested folders: the IDE reads
the project's own folder): ``.aiassistant/rules/*.md``, named by the stem.
A rule file without an ``apply`` key is always applied (the IDE's default);
``apply``: ``always`` → always, ``by file patterns`` → ``patterns`` as globs,
``by model decision`` → ``instructions`` as the description, ``manually`` →
manual, ``off`` → not read.

Follows: AI Assistant's project-rules docs,
https://www.jetbrains.com/help/ai-assistant/configure-project-rules.html.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_markdown_rule, rule_name_in
from ruleweave.rules import Rule

ID, PRIORITY = "aiassistant", 30


def _apply(data: dict[str, Any]) -> str:
    return " ".join((fm.as_text(data.get("apply")) or "always").lower().replace("_", " ").split())


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    apply = _apply(data)
    if apply == "by file patterns":
        return {"globs": fm.as_globs(data.get("patterns"))}
    if apply == "by model decision":
        return {"description": fm.as_text(data.get("instructions"))}
    if apply in ("manually", "manual", "off"):
        return {}
    return {"always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load AI Assistant project rules; rules switched ``off`` are left out."""
    if ctx.nested:
        return []
    rules: list[Rule] = []
    for folder in ctx.folders(".aiassistant/rules"):
        for path in ctx.rule_files(folder, (".md",), level="project", recursive=False):
            text = ctx.read(path) if ctx.first_visit(path) else None
            if text is None or _apply(fm.parse(text).data) == "off":
                continue
            rule = load_markdown_rule(
                ctx, path, provider=ID, priority=PRIORITY, level="project", mapper=_fields,
                name=rule_name_in(folder, path), text=text,
            )
            if rule is not None:
                rules.append(rule)
    return rules


PROVIDER = Provider(ID, PRIORITY, load, ".aiassistant/rules/*.md (apply:)", dialect="anywhere", places=True)
