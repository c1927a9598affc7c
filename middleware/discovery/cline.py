"""cline (priority 40): the nearest ``.clinerules``.

Walks up from cwd to the project root and takes the first ``.clinerules``:
a file (one rule named ``clinerules``, always applied) or a directory of
``*.md`` rules (named by stem). ``paths:`` become globs; a rule without
``paths`` or ``globs`` is always applied, as Cline applies it.
"""

from __future__ import annotations

from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "cline", 40


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    fields["globs"] = fm.as_globs(data.get("paths")) or fields["globs"]
    if not fields["globs"] and not fields["description"]:
        fields["always_apply"] = True
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the nearest .clinerules file or directory."""
    for directory in reversed(ctx.walk):
        candidate = directory / ".clinerules"
        if candidate.is_dir():
            return load_dir(
                ctx, candidate, provider=ID, priority=PRIORITY, level="project",
                suffixes=(".md",), mapper=_fields,
            )
        if candidate.exists() or candidate.is_symlink():
            return load_file(
                ctx, candidate, provider=ID, priority=PRIORITY, level="project",
                name="clinerules", mapper=_fields,
            )
    return []


PROVIDER = Provider(ID, PRIORITY, load, "nearest .clinerules (file or directory of *.md)")
