"""Rendering: the prompt blocks, the rule:// paragraph and tool-result notices.

Everything here is pure: the same rules give byte-identical text. Rule
names and descriptions are folded to one line and escaped, and bodies have
any closing tag of ruleweave's blocks neutralised, so no rule can close a
block or add lines to a listing. Every template can be overridden through
``RuleweaveConfig.templates`` (``str.format`` fields as in ``TEMPLATES``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from ruleweave.rules import Rule

TEMPLATES: Mapping[str, str] = {
    "generic": "<generic-rules>\n{rules}\n</generic-rules>",
    "domain": "<domain-rules>\n{rules}\n</domain-rules>",
    "domain_line": "- {name}{globs}: {description}",
    "rule_protocol": (
        "The rules listed in <domain-rules> are available in full at rule://<name>. "
        "Before you work on files a rule covers, or on the task its description names, "
        "read that rule first and follow it."
    ),
    "custom_rules": (
        "<rules>\n"
        "You MUST read rule://<name> before working on anything a rule below covers.\n"
        "{rules}\n"
        "</rules>"
    ),
    "custom_rule": '<rule name="{name}">\n<description>{description}</description>\n{globs}</rule>',
    "custom_glob": "<glob>{glob}</glob>\n",
    "notice": "[rule: {name}]\n{body}",
    "instructions_notice": "[file: {path}]\n{body}",
}
"""Default templates; override any of them by name in ``RuleweaveConfig.templates``."""

BLOCK_TAGS = ("generic-rules", "domain-rules", "rules", "rule", "steering", "instructions")
_CLOSING = re.compile(r"<(/?)\s*(" + "|".join(BLOCK_TAGS) + r")\b", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_PARAGRAPH = re.compile(r"\n\s*\n")


def template(templates: Mapping[str, str], name: str) -> str:
    """The template ``name``, overridden when ``templates`` has it."""
    return templates.get(name, TEMPLATES[name])


def one_line_escaped(text: str | None) -> str:
    """Fold whitespace (newlines included) to single spaces and escape angle brackets."""
    if not text:
        return ""
    folded = _SPACE.sub(" ", text).strip()
    return folded.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def neutralise(body: str) -> str:
    """Rule text with ruleweave's block tags made inert (``<`` → ``&lt;``)."""
    return _CLOSING.sub(lambda m: "&lt;" + m.group(1) + m.group(2), body)


def _paragraphs(text: str) -> list[str]:
    return [_SPACE.sub(" ", p).strip() for p in _PARAGRAPH.split(text) if p.strip()]


def _contains_run(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    if not needle or len(needle) > len(haystack):
        return False
    first = needle[0]
    for start in range(len(haystack) - len(needle) + 1):
        if haystack[start] == first and list(haystack[start : start + len(needle)]) == list(needle):
            return True
    return False


def dedupe_generic(rules: Iterable[Rule], existing: Iterable[str]) -> tuple[list[Rule], list[Rule]]:
    """Split generic rules into kept and dropped: dropped ones already appear in ``existing``.

    A rule is dropped when its paragraphs appear contiguously (whitespace
    folded) in any of the texts — the custom system prompt or the blob.
    """
    hay = [_paragraphs(text) for text in existing if text]
    kept: list[Rule] = []
    dropped: list[Rule] = []
    for rule in rules:
        needle = _paragraphs(rule.content)
        (dropped if any(_contains_run(h, needle) for h in hay) else kept).append(rule)
    return kept, dropped


def render_generic(rules: Sequence[Rule], templates: Mapping[str, str]) -> str:
    """The ``<generic-rules>`` block ('' when empty)."""
    if not rules:
        return ""
    body = "\n\n".join(neutralise(rule.content) for rule in rules)
    return template(templates, "generic").format(rules=body)


def _glob_suffix(rule: Rule) -> str:
    return f" ({', '.join(one_line_escaped(g) for g in rule.globs)})" if rule.globs else ""


def render_domain(rules: Sequence[Rule], templates: Mapping[str, str], custom: bool = False) -> str:
    """The ``<domain-rules>`` listing (or the custom ``<rule name>`` variant) plus protocol text."""
    if not rules:
        return ""
    if custom:
        entries = []
        for rule in rules:
            globs = "".join(
                template(templates, "custom_glob").format(glob=one_line_escaped(g)) for g in rule.globs
            )
            entries.append(
                template(templates, "custom_rule").format(
                    name=one_line_escaped(rule.name).replace('"', "&quot;"),
                    description=one_line_escaped(rule.description),
                    globs=globs,
                )
            )
        return template(templates, "custom_rules").format(rules="\n".join(entries))
    lines = "\n".join(
        template(templates, "domain_line").format(
            name=one_line_escaped(rule.name),
            globs=_glob_suffix(rule),
            description=one_line_escaped(rule.description),
        )
        for rule in rules
    )
    block = template(templates, "domain").format(rules=lines)
    return block + "\n\n" + template(templates, "rule_protocol")


def render_notice(name: str, body: str, templates: Mapping[str, str]) -> str:
    """One rule's tool-result notice: ``[rule: <name>]`` and its body (seed 001)."""
    return template(templates, "notice").format(name=one_line_escaped(name), body=neutralise(body))


def render_instructions_notice(path: str, body: str, templates: Mapping[str, str]) -> str:
    """One nested instruction file's tool-result notice."""
    return template(templates, "instructions_notice").format(path=path, body=neutralise(body))


def join_blocks(blocks: Iterable[str]) -> str:
    """Non-empty blocks joined by blank lines."""
    return "\n\n".join(block for block in blocks if block)

