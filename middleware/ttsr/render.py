"""The text a TTSR hit injects: an interrupt message or a tool-result reminder.

Both name each rule and the file it came from, relative to the project
(``~/`` for the user tier, ``builtin:<file>`` for shipped rules), and
carry the rule's body. Names and paths are attribute-escaped (a rule named
``q" path="builtin:x.md`` cannot add an attribute and pose as a shipped
rule) and bodies neutralised (``prompt.neutralise``). Override any template by name in
``RuleweaveConfig.templates``; fields are ``str.format`` fields:

* ``ttsr_interrupt`` / ``ttsr_reminder``: ``{names}`` (``rule `a``` or
  ``rules `a` and `b```), ``{rules}`` (the rendered rules), ``{count}``;
* ``ttsr_rule``: ``{name}``, ``{path}``, ``{body}``.

A template that does not format (an unknown field, a stray brace) is
reported once when the index is built, and the default is used instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import MappingProxyType

from ruleweave._files.paths import display
from ruleweave.config import RuleweaveConfig
from ruleweave.prompt import attribute, neutralise, one_line_escaped
from ruleweave.rules import Rule

TEMPLATES: Mapping[str, str] = MappingProxyType(
    {
        "ttsr_interrupt": (
            "[ruleweave] Your output was stopped because it matches {names} of this project. "
            "Read the rule text below, then write your response again so that it follows it."
            "\n\n{rules}"
        ),
        "ttsr_reminder": (
            "[ruleweave] What you just wrote matches {names} of this project. "
            "Check your work against the rule text below and fix whatever does not follow it."
            "\n\n{rules}"
        ),
        "ttsr_rule": '<rule name="{name}" path="{path}">\n{body}\n</rule>',
    }
)
"""Default TTSR templates; override them by name in ``RuleweaveConfig.templates``."""

TEMPLATE_FIELDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "ttsr_interrupt": frozenset({"names", "rules", "count"}),
        "ttsr_reminder": frozenset({"names", "rules", "count"}),
        "ttsr_rule": frozenset({"name", "path", "body"}),
    }
)
"""The ``str.format`` fields each TTSR template may use."""

_SAMPLE = {"names": "rule `x`", "rules": "", "count": 1, "name": "x", "path": "x.md", "body": ""}


def check_templates(templates: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The TTSR templates to use, with overrides that do not format replaced by defaults.

    Args:
        templates: ``RuleweaveConfig.templates``.

    Returns:
        ``{name: template}`` for the three TTSR templates, and one problem per bad override.
    """
    chosen: dict[str, str] = {}
    problems: list[str] = []
    for name, default in TEMPLATES.items():
        override = templates.get(name)
        if override is None:
            chosen[name] = default
            continue
        try:
            override.format(**_SAMPLE)
        except (KeyError, IndexError, ValueError, AttributeError) as exc:
            problems.append(f"template {name!r} does not format ({exc!r}); the default is used")
            chosen[name] = default
        else:
            chosen[name] = override
    return chosen, problems


def rule_path(rule: Rule, config: RuleweaveConfig) -> str:
    """Where a rule lives, for people: relative to the project, ``~/...``, or ``builtin:...``."""
    if rule.source.level == "builtin":
        return f"builtin:{Path(rule.path).name}"
    return display(rule.path, config.root, config.home)


def names_phrase(rules: Sequence[Rule]) -> str:
    """``rule `a```, ``rules `a` and `b```, ``rules `a`, `b` and `c```."""
    # A backtick in a name would end its quote and let the rest pass for another name.
    quoted = [f"`{one_line_escaped(rule.name).replace('`', chr(39))}`" for rule in rules]
    if len(quoted) == 1:
        return f"rule {quoted[0]}"
    return f"rules {', '.join(quoted[:-1])} and {quoted[-1]}"


def render(
    rules: Sequence[Rule], interrupt: bool, templates: Mapping[str, str], config: RuleweaveConfig
) -> str:
    """The injection text for a hit.

    Args:
        rules: The rules that fired, de-duplicated, in precedence order.
        interrupt: Render the interrupt message (else the reminder).
        templates: The checked templates (``check_templates``).
        config: Supplies the project root and home for rule paths.

    Returns:
        The text to inject.
    """
    blocks = "\n\n".join(
        templates["ttsr_rule"].format(
            name=attribute(rule.name), path=attribute(rule_path(rule, config)),
            body=neutralise(rule.content),
        )
        for rule in rules
    )
    key = "ttsr_interrupt" if interrupt else "ttsr_reminder"
    return templates[key].format(names=names_phrase(rules), rules=blocks, count=len(rules))
