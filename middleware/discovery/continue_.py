"""continue (priority 30): Continue's ``.continue/rules`` and colocated ``rules.md`` files.

User tier ``~/.continue/rules`` first, then, in each directory of the root→cwd
walk, ``.continue/rules/*.md`` and a colocated ``rules.md`` (named ``rules``;
one in a directory below the walk is read on the first touch under it, like
every nested rule folder, so it applies to its own directory). Name:
frontmatter ``name``, else the stem.

Mapping, as Continue applies a rule:

* ``alwaysApply: true`` → always;
* ``globs`` (a bare ``*.ts`` matches anywhere) → scoped; a glob written
  ``!**/*.test.ts`` excludes instead (only exclusions: every other file);
* ``regex`` → the rule applies when a touched file's content (or the text the
  tool call wrote) matches: with no globs it gates every file, so a rule with
  ``regex`` and ``alwaysApply`` unset or ``false`` waits for its content;
* ``alwaysApply`` unset with no globs and no ``regex`` → always;
* ``description`` alone with ``alwaysApply: false`` → listed for the model.
"""

from __future__ import annotations

import os
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "continue", 30
_EVERY_FILE = "**"


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    globs: tuple[str, ...] = fields["globs"]
    include = tuple(g for g in globs if not g.startswith("!"))
    exclude = tuple(g[1:].strip() for g in globs if g.startswith("!") and g[1:].strip())
    regex = fm.as_strings(data.get("regex"))
    always = data.get("always_apply")
    if (exclude or regex) and not include:
        include = (_EVERY_FILE,)
    fields.update(globs=include, exclude_globs=exclude, content_regex=regex)
    if fm.as_bool(always):
        fields.update(always_apply=True)
    elif always is None and not include:
        fields["always_apply"] = True
    else:
        fields["always_apply"] = False
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Continue rules, user tier first."""
    rules = load_dir(
        ctx, under(ctx.config.user_home, ".continue/rules"), provider=ID, priority=PRIORITY,
        level="user", recursive=False, mapper=_fields, name_from_frontmatter=True,
    )
    for directory in ctx.walk_spelled:
        folder = under(directory, ".continue/rules")
        if os.path.isfile(folder):
            ctx.warn(folder, "is a file, not a folder: Continue reads the rule files inside "
                     ".continue/rules/; move it to .continue/rules/<name>.md")
        rules += load_dir(
            ctx, folder, provider=ID, priority=PRIORITY,
            level="project", recursive=False, mapper=_fields, name_from_frontmatter=True,
        )
        rules += load_file(
            ctx, under(directory, "rules.md"), provider=ID, priority=PRIORITY, level="project",
            name="rules", mapper=_fields,
        )
    return rules


PROVIDER = Provider(ID, PRIORITY, load, "~/.continue/rules, .continue/rules/*.md, rules.md", places=True)
