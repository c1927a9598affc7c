"""builtin (priority 1): the rules shipped with ruleweave.

Reads ``ruleweave/builtin_rules/*.md`` from the installed package. Name: the
stem. Dropped as a whole when ``RuleweaveConfig(builtin_rules=False)``.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_markdown_rule
from ruleweave.rules import Rule

ID, PRIORITY = "builtin", 1
BUILTIN_DIR = Path(__file__).resolve().parent.parent / "builtin_rules"


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the shipped rules (none when builtins are off)."""
    if not ctx.config.builtin_rules:
        return []
    rules: list[Rule] = []
    for path in sorted(BUILTIN_DIR.glob("*.md")):
        rule = load_markdown_rule(ctx, path, provider=ID, priority=PRIORITY, level="builtin")
        if rule is not None:
            rules.append(rule)
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "rules shipped with ruleweave")
