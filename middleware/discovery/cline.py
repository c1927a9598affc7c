"""cline (priority 40): Cline's rules — the user tier, then the nearest workspace rules.

User tier first, in the order Cline 3.0.65 reads it (``resolveRulesConfigSearchPaths``,
``@cline/shared`` storage paths): ``$CLINE_DIR/rules`` (``~/.cline/rules``), ``~/Cline/Rules``
and ``~/Documents/Cline/Rules`` (the extension's global rules folder). Then, walking up from cwd to
the project root, the first directory holding ``.clinerules`` or
``.cline/rules`` gives the workspace rules: ``.clinerules`` as a file (one
rule named ``clinerules``) or a directory, and the ``.cline/rules`` directory
beside it (Cline reads both layouts). Every file of a rules folder is a rule,
recursively and whatever its extension (``01-style.txt`` too), except the
system files ``.DS_Store``, ``Thumbs.db`` and ``desktop.ini`` and what is under
``.clinerules/workflows/``, ``hooks/`` and ``skills/`` — Cline's workflows,
hooks and skills, not rules (the extension's ``getLocalClineRules`` and
``readDirectory``, ``src/core/context/instructions/user-instructions/cline-rules.ts``
and ``src/utils/fs.ts``). Name: the path in the folder, ``.md`` and ``.txt`` dropped.

``paths:`` is Cline's only condition (``rule-conditionals.ts``:
``evaluatePathsConditional``): a list of non-empty strings scopes the rule
(root dialect: ``*.md`` is a file at the top); one that trims to nothing
(``paths: []``, ``paths: ["  "]``) never applies (manual, ``rule://`` only);
anything else — no ``paths``, a string, a list holding ``""`` or a non-string —
fails open and leaves the rule always on. ``description``, ``globs`` and
``alwaysApply`` do not change that (Cline ignores them).

Follows: Cline's loader, ``src/core/context/instructions/user-instructions/cline-rules.ts``
and ``rule-conditionals.ts`` in https://github.com/cline/cline.
"""

from __future__ import annotations

import os
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_file, load_markdown_rule, standard_fields
from ruleweave.rules import Level, Rule

ID, PRIORITY = "cline", 40
NOT_RULES = ("workflows", "hooks", "skills")
"""Subfolders of ``.clinerules`` that hold Cline's workflows, hooks and skills."""
SYSTEM_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
"""OS-generated files Cline leaves out of a rules folder (``OS_GENERATED_FILES``)."""
_TEXT_SUFFIXES = (".md", ".markdown", ".txt")


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    paths = data.get("paths")
    if isinstance(paths, list) and all(isinstance(p, str) and p for p in paths):
        patterns = [p.strip() for p in paths if p.strip()]
        if patterns:
            fields.update(globs=fm.as_globs(patterns), always_apply=False)
        else:  # ``paths: []``: matches no file, so the rule never applies
            fields.update(globs=(), always_apply=False, description=None)
    else:  # no paths, or a value Cline cannot read: fail open, always on
        fields.update(globs=(), always_apply=True)
    return fields


def _name(relative: str) -> str:
    for suffix in _TEXT_SUFFIXES:
        if relative.endswith(suffix) and len(relative) > len(suffix):
            return relative[: -len(suffix)]
    return relative


def _load_folder(ctx: DiscoveryContext, folder: str, level: Level, skip: tuple[str, ...] = ()) -> list[Rule]:
    """Every file of one rules folder (any extension), system files and ``skip`` subfolders aside."""
    if level == "user" and ctx.nested:
        return []
    base = folder.rstrip(os.sep) + os.sep
    skipped = tuple(base + name + os.sep for name in skip)
    rules: list[Rule] = []
    for path in ctx.rule_files(folder, ("",), level=level):  # every name ends with ""
        if os.path.basename(path) in SYSTEM_FILES or (skipped and path.startswith(skipped)):
            continue
        relative = path[len(base) :] if path.startswith(base) else os.path.basename(path)
        rule = load_markdown_rule(
            ctx, path, provider=ID, priority=PRIORITY, level=level, mapper=_fields,
            name=_name(relative.replace(os.sep, "/")),
        )
        if rule is not None:
            rules.append(rule)
    return rules


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load the user tier, then the nearest directory's .clinerules and .cline/rules."""
    config = ctx.config
    rules: list[Rule] = []
    for folder in (under(config.cline_folder, "rules"), under(config.user_home, "Cline/Rules"),
                   under(config.user_home, "Documents/Cline/Rules")):
        rules += _load_folder(ctx, folder, "user")
    for directory in reversed(ctx.walk_spelled):
        candidate, folder = under(directory, ".clinerules"), under(directory, ".cline/rules")
        found = os.path.lexists(candidate)
        if found and os.path.isdir(candidate):
            rules += _load_folder(ctx, candidate, "project", NOT_RULES)
        elif found:
            rules += load_file(
                ctx, candidate, provider=ID, priority=PRIORITY, level="project",
                name="clinerules", mapper=_fields,
            )
        if os.path.isdir(folder):
            found = True
            rules += _load_folder(ctx, folder, "project", NOT_RULES)
        if found:
            break
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load,
    "$CLINE_DIR/rules (~/.cline), ~/Cline/Rules, ~/Documents/Cline/Rules, nearest .clinerules "
    "(file or directory), .cline/rules",
    dialect="root", places=True,
)
