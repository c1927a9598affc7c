"""trae (priority 50): Trae's ``.trae/rules/*.md``.

In each directory of the root→cwd walk (not nested folders: Trae reads the
project's own ``.trae/rules``): ``.trae/rules/*.md``, named by the stem.
Cursor-style frontmatter: ``alwaysApply`` → always, ``globs`` → scoped,
``description`` → agent-requested, none of them → manual. ``project_rules.md``
(the file Trae's settings create) is always applied, and so is a file with
no frontmatter at all (every file of the folder was a project rule before
Trae added rule types).

Follows: Trae's rules docs, https://docs.trae.ai/ide/rules.
"""

from __future__ import annotations

from typing import Any

from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, rule_stem, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "trae", 50
ALWAYS_FILE = "project_rules"
"""The rule (by name) that Trae always applies, whatever its frontmatter says."""


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    if not data:
        fields["always_apply"] = True
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Trae project rules."""
    if ctx.nested:
        return []
    rules: list[Rule] = []
    for folder in ctx.folders(".trae/rules"):
        found = load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", recursive=False, mapper=_fields,
        )
        rules += [
            rule._replace(always_apply=True) if rule_stem(rule.path) == ALWAYS_FILE else rule
            for rule in found
        ]
    return rules


PROVIDER = Provider(ID, PRIORITY, load, ".trae/rules/*.md", dialect="anywhere", places=True)
