"""agents (priority 70): ``.agent/rules`` and ``.agents/rules``.

User tier ``~/.agent/rules`` and ``~/.agents/rules`` first, then both
directories in each directory of the root→cwd walk. Name: the file stem;
Antigravity's ``trigger`` when a file has one, else the shared markdown
mapping (``discovery.antigravity``).

Follows: Google Antigravity's rules docs,
https://antigravity.google/docs/rules-workflows (the mapping: ``discovery.antigravity``).
"""

from __future__ import annotations

from ruleweave.discovery import antigravity
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir
from ruleweave.rules import Rule

ID, PRIORITY = "agents", 70
_DIRS = (".agent", ".agents")


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load agents rules, user tier first."""
    rules: list[Rule] = []
    for name in _DIRS:
        rules += load_dir(
            ctx, under(ctx.config.user_home, f"{name}/rules"), provider=ID, priority=PRIORITY,
            level="user", suffixes=(".md", ".mdc"), mapper=antigravity.fields,
        )
    for directory in ctx.walk_spelled:
        for name in _DIRS:
            rules += load_dir(
                ctx, under(directory, f"{name}/rules"), provider=ID, priority=PRIORITY,
                level="project", suffixes=(".md", ".mdc"), mapper=antigravity.fields,
            )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, ".agent/rules, .agents/rules (cwd up to root), ~/.agent(s)", places=True,
)
