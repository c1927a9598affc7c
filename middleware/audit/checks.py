"""Mechanical compliance: what marks a violation of a rule, and which of the model's actions show one.

A rule is checkable when it has

* a ``check:`` frontmatter field — kept audit-side: the rule file's frontmatter is read
  again here, so discovery and ``Rule`` stay as they are. Either a regex (RE2), or a
  mapping ``{regex, ast_grep, paths}`` (each optional; ``paths`` globs default to the rule's
  ``globs``), or a list of those;
* or streamed-rule conditions (``condition`` regexes, ``ast_condition`` ast-grep patterns):
  what would trigger the rule is what breaks it.

A regex is searched in what a write adds and in a command; an ast-grep pattern in what a
write adds, in the language its path names. With ``paths``, only writes to matching files count.
A streamed rule's conditions are checked where its ``scope`` watches (no scope: prose and every
tool): its ``text`` scope over the model's replies, its ``tool`` entries over the calls of that
kind of tool (``tool_names``) and, with a glob, to matching files. A ``check:`` field is checked
over writes and commands, never replies.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ruleweave import frontmatter as fm
from ruleweave._files.reading import read_text
from ruleweave.audit.timeline import Action
from ruleweave.globs import PathSpellings, compile_glob
from ruleweave.rules import Rule
from ruleweave.session.tool_names import ToolNames
from ruleweave.ttsr import ast_grep
from ruleweave.ttsr.conditions import compile_condition
from ruleweave.ttsr.scope import DEFAULT_SCOPE, ScopeEntry, parse_scope

_RULE_FILE_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Check:
    """What marks a violation of one rule.

    Attributes:
        rule: The rule's name.
        source: ``check`` (the frontmatter field) or ``condition`` (streamed-rule conditions).
        regexes: RE2 patterns.
        patterns: ast-grep patterns.
        paths: Globs a written file must match ('': any file, and commands count too).
        problems: Patterns that did not compile, one sentence each.
        scope: Where a streamed rule watches (``condition`` checks only; ``ttsr.scope``).
    """

    rule: str
    source: str
    regexes: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    scope: tuple[ScopeEntry, ...] = ()

    def violated_by(self, action: Action, root: str) -> str | None:
        """The text of ``action`` that breaks the rule, or ``None``.

        Args:
            action: A write, command or reply.
            root: The project root (relative paths and globs are read against it).
        """
        if not self.watches(action, root):
            return None
        if self.paths and (action.kind != "write" or not _in_paths(action.path, self.paths, root)):
            return None
        for pattern in self.regexes:
            condition, _ = compile_condition(pattern)
            if condition is not None and (match := condition.regex.search(action.text)) is not None:
                return str(match.group(0))
        language = ast_grep.language_for(action.path) if action.kind == "write" and action.path else None
        if self.patterns and language is not None:
            found = ast_grep.find(action.text, language, self.patterns)
            if found:
                return found[0][1]
        return None


    def watches(self, action: Action, root: str) -> bool:
        """Whether ``action`` is where this check looks (a reply: a streamed rule watching ``text``)."""
        if action.kind == "reply":
            return any(entry.source == "text" for entry in self.scope)
        if self.source != "condition":
            return True
        kind = _TOOLS.canonical(action.tool)
        return any(
            entry.source == "tool"
            and (entry.tool is None or _TOOLS.canonical(entry.tool) == kind)
            and (entry.glob is None or _in_paths(action.path, (entry.glob,), root))
            for entry in self.scope
        )


_TOOLS = ToolNames()


def check_of(rule: Rule) -> Check | None:
    """The rule's check: its ``check:`` field, else its streamed-rule conditions, else ``None``."""
    field = _check_field(rule.path)
    if field is not None:
        return _from_field(rule, field)
    if rule.condition or rule.ast_condition:
        scope = parse_scope(rule.scope)[0] or DEFAULT_SCOPE
        return Check(rule.name, "condition", rule.condition, rule.ast_condition, scope=scope)
    return None


def _check_field(path: str) -> Any:
    if not path or path.startswith("builtin:"):
        return None
    result = read_text(path, _RULE_FILE_BYTES)
    if result.text is None:
        return None
    return fm.parse(result.text).data.get("check")


def _from_field(rule: Rule, field: Any) -> Check | None:
    regexes: list[str] = []
    patterns: list[str] = []
    paths: list[str] = []
    for entry in field if isinstance(field, list) else [field]:
        if isinstance(entry, str) and entry:
            regexes.append(entry)
        elif isinstance(entry, dict):
            regexes.extend(fm.as_strings(entry.get("regex")))
            patterns.extend(fm.as_strings(entry.get("ast_grep")))
            paths.extend(fm.as_strings(entry.get("paths")))
    if not regexes and not patterns:
        return None
    problems = tuple(p for r in regexes if (p := compile_condition(r)[1]) is not None)
    return Check(rule.name, "check", tuple(regexes), tuple(patterns), tuple(paths or rule.globs), problems)


def _in_paths(path: str, globs: Sequence[str], root: str) -> bool:
    if not path:
        return False
    absolute = path if os.path.isabs(path) else os.path.join(root or "/", path)
    spelled = PathSpellings.of(os.path.normpath(absolute), root.rstrip("/") + "/")
    spellings = [s for s in (spelled.relative, spelled.absolute, spelled.name) if s]
    return any(compile_glob(g)(s) for g in globs for s in spellings)


def touches(path: str, globs: Sequence[str], root: str) -> bool:
    """Whether ``path`` matches any of ``globs`` (read against ``root``)."""
    return _in_paths(path, globs, root)
