"""builtin (priority 1): the rules shipped with ruleweave.

Reads ``ruleweave/builtin_rules/*.md`` from the installed package. Name: the
stem. Opt-in: none unless ``RuleweaveConfig(builtin_rules=True)`` (all) or a
list of names (those), so a repository with no rule files gets nothing.

Follows: ruleweave's own format (the ``native`` provider's), for the files it ships.
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
    """Load the shipped rules that are switched on (none by default)."""
    wanted = ctx.config.builtin_rules
    if not wanted:
        return []
    rules: list[Rule] = []
    for path in sorted(BUILTIN_DIR.glob("*.md")):
        if isinstance(wanted, tuple) and path.stem not in wanted:
            continue
        rule = load_markdown_rule(ctx, path, provider=ID, priority=PRIORITY, level="builtin")
        if rule is not None:
            rules.append(rule)
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "rules shipped with ruleweave", places=True)


def builtin_names() -> tuple[str, ...]:
    """The names of every shipped rule (for ``builtin_rules=[...]`` and ``ruleweave scan``)."""
    return tuple(sorted(path.stem for path in BUILTIN_DIR.glob("*.md")))
