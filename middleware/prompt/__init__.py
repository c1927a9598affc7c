"""Rendering: the prompt blocks, the rule:// paragraph and tool-result notices.

Everything here is pure: the same rules give byte-identical text. Rule
names and descriptions are folded to one line, stripped of control, bidi and
zero-width characters and escaped (attribute values also escape ``"``), and
bodies are neutralised: any tag of ruleweave's blocks is made inert and any
body line that starts like one of ruleweave's headers (``[rule: …]``,
``[file: …]``, ``[import: …]``) is escaped with a backslash, so no rule can
close a block, add lines to a listing, or pass for a second notice. Every template can be overridden through
``RuleweaveConfig.templates`` (``str.format`` fields as in ``TEMPLATES``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from ruleweave._text.lazy_regex import LazyRegex
from ruleweave._text.oneline import one_line_escaped as one_line_escaped
from ruleweave.rules import Rule

TEMPLATES: Mapping[str, str] = {
    "generic": "<generic-rules>\n{rules}\n</generic-rules>",
    "generic_rule": "[rule: {name}] {path}\n{body}",
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
    "listing_notice": (
        "[rules: {path}]\nRules for files under {path}/, each available in full at its address; "
        "read one before you work on what it describes:\n{body}"
    ),
    "rule_address": "rule://{name}",
}
"""Default templates; override any of them by name in ``RuleweaveConfig.templates``."""

BLOCK_TAGS = ("generic-rules", "domain-rules", "rules", "rule", "steering", "instructions")
_CLOSING = LazyRegex(r"<(/?)\s*(" + "|".join(BLOCK_TAGS) + r")\b", re.IGNORECASE)
_SPACE = LazyRegex(r"\s+")
# A line that starts (after blanks and invisible format characters) like a header
# ruleweave writes: notices, blob parts, imports, nested listings, TTSR messages.
_HEADER_LINE = LazyRegex(
    r"^([^\S\n]*(?:[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff][^\S\n]*)*)"
    r"(\[(?:(?:rules?|file|import|end[^\S\n]+import|ruleweave)[^\S\n]*:|ruleweave\]))",
    re.IGNORECASE | re.MULTILINE,
)
_PARAGRAPH = LazyRegex(r"\n\s*\n")


def template(templates: Mapping[str, str], name: str) -> str:
    """The template ``name``, overridden when ``templates`` has it."""
    return templates.get(name, TEMPLATES[name])


def address(templates: Mapping[str, str], name: str) -> str:
    """Where a model reads the rule ``name`` in full (``rule_address``: ``rule://<name>`` by default; a
    host names its own way, e.g. Claude Code's MCP tool). ``name`` is already made safe to show; the field
    ``{shell}`` is ``rule://<name>`` quoted for a POSIX shell, for a template that has the model run
    ``ruleweave read`` (a rule file named ``$(…)`` must not become a command)."""
    found = template(templates, "rule_address")
    if "{shell}" not in found:
        return found.format(name=name)
    import shlex  # only for hosts whose model reads rules through its shell

    return found.format(name=name, shell=shlex.quote(f"rule://{name}"))


def attribute(text: str | None) -> str:
    """``one_line_escaped`` for a double-quoted attribute value (``"`` → ``&quot;``)."""
    return one_line_escaped(text).replace('"', "&quot;")


def neutralise_tags(body: str) -> str:
    """Text with ruleweave's block tags made inert (``<`` → ``&lt;``); header lines left alone.

    For bodies whose lines were already escaped where they were read (instruction
    files: ``instructions.imports``), which carry ruleweave's own import headers.
    """
    return _CLOSING.sub(lambda m: "&lt;" + m.group(1) + m.group(2), body)


def escape_headers(text: str) -> str:
    """Every line that starts like a ruleweave header gets a backslash before its ``[``."""
    if "[" not in text:
        return text
    return _HEADER_LINE.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


def neutralise(body: str) -> str:
    """Rule text that cannot close a block nor pass for a header: tags made inert, header lines escaped."""
    return escape_headers(neutralise_tags(body))


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


def _glob_suffix(rule: Rule) -> str:
    return f" ({', '.join(one_line_escaped(g) for g in rule.globs)})" if rule.globs else ""


def domain_entries(
    rules: Sequence[Rule], templates: Mapping[str, str], custom: bool = False
) -> tuple[list[str], Callable[[str], str], str]:
    """The ``<domain-rules>`` listing (or the custom ``<rule name>`` variant) in pieces.

    Returns:
        One entry per rule, the function that puts joined entries in their block (with
        the protocol text), and the string that joins two entries.
    """
    if custom:
        entries = []
        for rule in rules:
            globs = "".join(
                template(templates, "custom_glob").format(glob=one_line_escaped(g)) for g in rule.globs
            )
            entries.append(
                template(templates, "custom_rule").format(
                    name=attribute(rule.name),
                    description=one_line_escaped(rule.description),
                    globs=globs,
                )
            )
        return entries, lambda joined: template(templates, "custom_rules").format(rules=joined), "\n"
    lines = [
        template(templates, "domain_line").format(
            name=one_line_escaped(rule.name),
            globs=_glob_suffix(rule),
            description=one_line_escaped(rule.description),
        )
        for rule in rules
    ]

    def block(joined: str) -> str:
        protocol = template(templates, "rule_protocol")
        return template(templates, "domain").format(rules=joined) + "\n\n" + protocol

    return lines, block, "\n"


def render_domain(rules: Sequence[Rule], templates: Mapping[str, str], custom: bool = False) -> str:
    """The ``<domain-rules>`` listing (or the custom ``<rule name>`` variant) plus protocol text."""
    if not rules:
        return ""
    entries, block, joiner = domain_entries(rules, templates, custom)
    return block(joiner.join(entries))


def join_blocks(blocks: Iterable[str]) -> str:
    """Non-empty blocks joined by blank lines."""
    return "\n\n".join(block for block in blocks if block)

