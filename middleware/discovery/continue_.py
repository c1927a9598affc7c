"""continue (priority 30): Continue's ``.continue/rules``, ``.continue/prompts`` and colocated ``rules.md``.

User tier ``~/.continue/rules`` and ``~/.continue/prompts`` first, then, in each
directory of the root→cwd walk, ``.continue/rules/*.md``,
``.continue/prompts/*.md`` and a colocated ``rules.md`` (named ``rules``; one
in a directory below the walk is read on the first touch under it, like every
nested rule folder). Name: frontmatter ``name``, else the stem. Continue loads
the ``.md`` files of both folders as rules, except those with
``invokable: true``: those are slash prompts, not rules
(``core/config/markdown/loadMarkdownRules.ts``).

Mapping, as Continue applies a rule (``core/llm/rules/getSystemMessageWithRules.ts``:
``shouldApplyRule``):

* ``alwaysApply: true`` → always;
* ``globs`` → scoped; Continue matches them with ``minimatch`` and no
  match-anywhere, so a bare ``*.ts`` is a file at the top of the project (root
  dialect); a glob written ``!**/*.test.ts`` excludes instead (only
  exclusions: every other file);
* ``regex`` → the rule applies when a touched file's content (or the text the
  tool call wrote) matches: with no globs it gates every file, so a rule with
  ``regex`` and ``alwaysApply`` unset or ``false`` waits for its content;
* ``alwaysApply`` unset with no globs and no ``regex`` → always (a rule of a
  ``.continue`` folder is "root level");
* ``description`` alone with ``alwaysApply: false`` → listed for the model.

A colocated ``rules.md`` is never root level: Continue scopes it to its own
directory (``packages/config-yaml/src/markdown/markdownToRule.ts``:
``getGlobPattern`` gives it ``<dir>/**/*`` without globs and ``<dir>/**/<glob>``
with them), so it applies on a touch of any file below its directory — the
project root's too — unless ``alwaysApply: true``.

Follows: Continue's loader, ``core/config/markdown/loadMarkdownRules.ts`` and
``core/llm/rules/getSystemMessageWithRules.ts`` in https://github.com/continuedev/continue.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import Skipped, load_dir, load_file, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "continue", 30
FOLDERS = (".continue/rules", ".continue/prompts")
_EVERY_FILE = "**"


def _mapping(colocated: bool) -> Callable[[dict[str, Any]], dict[str, Any] | Skipped]:
    def fields_of(data: dict[str, Any]) -> dict[str, Any] | Skipped:
        if fm.as_bool(data.get("invokable")):
            return Skipped("invokable: true makes it a slash prompt in Continue, not a rule")
        fields = standard_fields(data)
        globs: tuple[str, ...] = fields["globs"]
        include = tuple(g for g in globs if not g.startswith("!"))
        exclude = tuple(g[1:].strip() for g in globs if g.startswith("!") and g[1:].strip())
        if colocated:  # getGlobPattern: every glob under the file's directory, at any depth
            include = tuple(g if g.startswith("**") else f"**/{g}" for g in include)
            exclude = tuple(g if g.startswith("**") else f"**/{g}" for g in exclude)
        regex = fm.as_strings(data.get("regex"))
        always = data.get("always_apply")
        if (exclude or regex or colocated) and not include:
            include = (_EVERY_FILE,)
        fields.update(globs=include, exclude_globs=exclude, content_regex=regex)
        if fm.as_bool(always):
            fields.update(always_apply=True)
        elif always is None and not include:
            fields["always_apply"] = True
        else:
            fields["always_apply"] = False
        return fields

    return fields_of


_FOLDER_RULE = _mapping(colocated=False)
_COLOCATED = _mapping(colocated=True)


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Continue rules, user tier first."""
    rules: list[Rule] = []
    for folder in FOLDERS:
        rules += load_dir(
            ctx, under(ctx.config.user_home, folder), provider=ID, priority=PRIORITY,
            level="user", recursive=False, mapper=_FOLDER_RULE, name_from_frontmatter=True,
        )
    for directory in ctx.walk_spelled:
        for relative in FOLDERS:
            folder = under(directory, relative)
            if os.path.isfile(folder):
                ctx.warn(folder, f"is a file, not a folder: Continue reads the rule files inside "
                         f"{relative}/; move it to {relative}/<name>.md")
            rules += load_dir(
                ctx, folder, provider=ID, priority=PRIORITY,
                level="project", recursive=False, mapper=_FOLDER_RULE, name_from_frontmatter=True,
            )
        rules += load_file(
            ctx, under(directory, "rules.md"), provider=ID, priority=PRIORITY, level="project",
            name="rules", mapper=_COLOCATED,
        )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "~/.continue/rules, .continue/rules/*.md, .continue/prompts/*.md, rules.md",
    dialect="root", places=True,
)
