"""claude (priority 60): Claude Code's ``.claude/rules``.

User tier ``$CLAUDE_CONFIG_DIR/rules`` (default ``~/.claude/rules``) first,
then ``.claude/rules/**/*.md`` in each directory of the root→cwd walk.
Name: frontmatter ``name``, else the stem. ``paths:`` become globs; a rule
without ``paths`` joins the instruction blob (seed 001).

``paths`` written as a string is split on commas outside braces and nowhere
else, as Claude Code splits it (its bundled CLI: the rule loader reads
``frontmatter.paths`` through a comma splitter that keeps ``{a,b}`` whole). So
a YAML block string holding a list (``paths: |`` then ``- src/**`` lines) is
one glob with line breaks in it, which matches no file: the rule never fires in
Claude Code, nor here, and a warning says to write a YAML list.

Follows: Claude Code's memory docs, https://code.claude.com/docs/en/memory
("Organize rules with ``.claude/rules/``"), and its bundled CLI's rule loader for ``paths``.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "claude", 60


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    paths = data.get("paths")
    globs = fm.as_globs(paths) or fields["globs"]
    fields["globs"] = globs
    if isinstance(paths, str) and "\n" in paths.strip():
        fields["warnings"] = (
            "paths is a YAML block string, which Claude Code reads as one glob with line breaks "
            "in it: it matches no file, so the rule never applies; write paths as a YAML list",
        )
    if not globs and not fields["condition"] and not fields["ast_condition"]:
        fields["joins_instructions"] = True
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Claude rules, user tier first."""
    rules = load_dir(
        ctx, under(ctx.config.claude_dir, "rules"), provider=ID, priority=PRIORITY, level="user",
        mapper=_fields, name_from_frontmatter=True,
    )
    for folder in ctx.folders(".claude/rules"):
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", mapper=_fields, name_from_frontmatter=True,
        )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "$CLAUDE_CONFIG_DIR/rules, .claude/rules/**/*.md", dialect="root", places=True,
)
