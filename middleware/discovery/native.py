"""native (priority 100): ruleweave's own rules.

Reads ``$RULEWEAVE_HOME/rules/**/*.{md,mdc}`` (user tier, default
``~/.ruleweave``) and ``.ruleweave/rules/**/*.{md,mdc}`` in each directory of
the root→cwd walk, plus the sticky ``RULES.md`` (always applied) beside
either ``rules`` directory. Name: frontmatter ``name``, else the stem.

Follows: ruleweave's own format (this page and ``docs/rules.md``).
"""

from __future__ import annotations

from typing import Any

from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Level, Rule

ID, PRIORITY = "native", 100


def _sticky(data: dict[str, Any]) -> dict[str, Any]:
    return {**standard_fields(data), "always_apply": True}


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load native rules, user tier first."""
    homes: list[tuple[str, Level]] = [(str(ctx.config.native_home), "user")]
    homes += [(home, "project") for home in ctx.folders(".ruleweave")]
    rules: list[Rule] = []
    for home, level in homes:
        rules += load_file(
            ctx, under(home, "RULES.md"), provider=ID, priority=PRIORITY, level=level,
            name="RULES", mapper=_sticky,
        )
        rules += load_dir(
            ctx, under(home, "rules"), provider=ID, priority=PRIORITY, level=level,
            suffixes=(".md", ".mdc"), name_from_frontmatter=True,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, ".ruleweave/rules/**, $RULEWEAVE_HOME/rules, RULES.md", places=True)
