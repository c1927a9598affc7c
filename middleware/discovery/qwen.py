"""qwen (priority 30): Qwen Code's ``.qwen/rules``.

User tier ``$QWEN_HOME/rules`` (default ``~/.qwen/rules``) first, then
``.qwen/rules`` in the project root only (not in the directories below it),
each folder read recursively, every ``*.md`` file in path order. A rule's
``paths:`` frontmatter (a YAML list, each item read as text; or one string,
never split) makes it conditional: its globs match paths relative to the
project root. A rule without ``paths`` joins the instruction blob, as Qwen
puts it in the system prompt. ``description`` is kept; Qwen reads no other
key (no ``name``: a rule is named by its path in the folder). HTML comments
are removed from the body (and an unclosed ``<!--``), which is then trimmed;
a rule left empty is skipped.

Two differences, both ruleweave's rules for every provider: a symbolic link in
the folder is followed under ``symlinks`` (Qwen lists the folder's entries and
skips links), and globs are matched in ruleweave's dialect (Qwen uses picomatch
with ``dot``). Qwen's hooks leave these rules to Qwen, which injects a
conditional one into the result of the first tool call reading a matching file
(a real run: ``tests/e2e/qwen``).

Follows: Qwen Code 0.24.4's ``packages/core/src/config/rulesDiscovery.ts``
(``parseRuleFile``, ``collectMdFiles``, ``loadRules``) and ``stripHtmlComments`` in
``packages/core/src/utils/textUtils.ts`` (https://github.com/QwenLM/qwen-code).
"""

from __future__ import annotations

from typing import Any

from ruleweave._text.lazy_regex import LazyRegex
from ruleweave.discovery.context import DiscoveryContext, under
from ruleweave.discovery.provider import Provider
from ruleweave.discovery.rule_file import load_dir, standard_fields
from ruleweave.rules import Rule

ID, PRIORITY = "qwen", 30

_COMMENT = LazyRegex(r"<!--[\s\S]*?-->")


def strip_html_comments(text: str) -> str:
    """``text`` without HTML comments, as Qwen Code strips a rule's body: each ``<!-- … -->``
    removed until none is left (a comment the removal joins up goes too), then every ``<!--``."""
    while True:
        stripped = _COMMENT.sub("", text)
        if stripped == text:
            return stripped.replace("<!--", "")
        text = stripped


def _body(text: str) -> str:
    return strip_html_comments(text).strip()


def js_string(value: Any) -> str:
    """``String(value)`` in JavaScript, for what a YAML list item can be (Qwen maps ``paths`` so)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    if isinstance(value, list | tuple):
        return ",".join("" if item is None else js_string(item) for item in value)
    return "[object Object]"


def qwen_paths(value: Any) -> tuple[str, ...]:
    """The globs of a ``paths:`` value as Qwen Code reads it: a list's items as text, empty
    ones dropped; a non-empty string as one glob, unsplit; anything else none."""
    if isinstance(value, list):
        return tuple(dict.fromkeys(text for text in map(js_string, value) if text))
    if isinstance(value, str) and value:
        return (value,)
    return ()


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    fields = standard_fields(data)
    fields["globs"] = qwen_paths(data.get("paths"))  # Qwen reads paths only, never globs
    fields["always_apply"] = False  # nor alwaysApply: without paths a rule is always in the prompt
    if not fields["globs"] and not fields["condition"] and not fields["ast_condition"]:
        fields["joins_instructions"] = True
    return fields


def load(ctx: DiscoveryContext) -> list[Rule]:
    """Load Qwen Code's rules, user tier first, then the project root's."""
    rules = load_dir(
        ctx, under(ctx.config.qwen_dir, "rules"), provider=ID, priority=PRIORITY, level="user",
        mapper=_fields, body_filter=_body,
    )
    if ctx.nested:  # a folder below the walk: Qwen reads the project root's alone
        return rules
    if ctx.walk_spelled:  # the walk starts at the root
        rules += load_dir(
            ctx, under(ctx.walk_spelled[0], ".qwen/rules"), provider=ID, priority=PRIORITY, level="project",
            mapper=_fields, body_filter=_body,
        )
    return rules


PROVIDER = Provider(
    ID, PRIORITY, load, "$QWEN_HOME/rules, <root>/.qwen/rules/**/*.md", dialect="root", places=True,
)
