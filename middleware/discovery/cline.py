"""cline (priority 40): Cline's rules — the user tier, then the nearest workspace rules.

User tier ``~/Documents/Cline/Rules/*.md`` first. Then, walking up from cwd to
the project root, the first directory holding ``.clinerules`` or
``.cline/rules`` gives the workspace rules: ``.clinerules`` as a file (one
rule named ``clinerules``) or a directory of ``*.md`` rules, and the
``.cline/rules`` directory beside it (Cline reads both layouts). Files under
``.clinerules/workflows/`` and ``.clinerules/hooks/`` are Cline's workflows and
hooks, not rules. Name: the path in the folder without ``.md``.

``paths:`` is Cline's only condition: a list of globs scopes the rule (root
dialect: ``*.md`` is a file at the top); ``paths: []`` never applies (manual,
``rule://`` only); no ``paths``, or a ``paths`` that is not a list, leaves the
rule always on — ``description``, ``globs`` and ``alwaysApply`` do not change
that (Cline ignores them).
"""

from __future__ import annotations

import os
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "cline", 40
_NOT_RULES = ("workflows", "hooks")


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    paths = data.get("paths")
    if isinstance(paths, list) and paths:
        fields.update(globs=fm.as_globs(paths), always_apply=False)
    elif isinstance(paths, list):  # ``paths: []``: matches no file, so the rule never applies
        fields.update(globs=(), always_apply=False, description=None)
    else:
        fields.update(globs=(), always_apply=True)
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the user tier, then the nearest directory's .clinerules and .cline/rules."""
    rules = load_dir(
        ctx, ctx.config.user_home / "Documents" / "Cline" / "Rules", provider=ID, priority=PRIORITY,
        level="user", suffixes=(".md",), mapper=_fields, skip_dirs=_NOT_RULES,
    )
    for directory in reversed(ctx.walk_spelled):
        candidate, folder = under(directory, ".clinerules"), under(directory, ".cline/rules")
        found = os.path.lexists(candidate)
        if found and os.path.isdir(candidate):
            rules += load_dir(
                ctx, candidate, provider=ID, priority=PRIORITY, level="project",
                suffixes=(".md",), mapper=_fields, skip_dirs=_NOT_RULES,
            )
        elif found:
            rules += load_file(
                ctx, candidate, provider=ID, priority=PRIORITY, level="project",
                name="clinerules", mapper=_fields,
            )
        if os.path.isdir(folder):
            found = True
            rules += load_dir(
                ctx, folder, provider=ID, priority=PRIORITY, level="project",
                suffixes=(".md",), mapper=_fields, skip_dirs=_NOT_RULES,
            )
        if found:
            break
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "~/Documents/Cline/Rules, nearest .clinerules (file or directory), .cline/rules",
    dialect="root", places=True,
)
