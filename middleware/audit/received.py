"""Finding rules in text the model received, by ruleweave's own notice headers.

* ``[rule: NAME]`` at the start of a line (or right after Claude Code's ``… hook additional
  context: `` wrapper): a notice (``instructions.blob``), a rule of
  the start context's ``<generic-rules>`` (``prompt``), a ``read_rule`` answer
  (``session.rule_uri``);
* ``<rule name="NAME" path="…">`` after ``[ruleweave] Your output was stopped`` (an
  interrupt) or ``[ruleweave] What you just wrote`` (a reminder): a streamed rule's
  text (``ttsr.render``; names are attribute-escaped there, unescaped here).

A template override that drops these headers hides its rules from the audit.
"""

from __future__ import annotations

import html
import re

_NOTICE = re.compile(r"(?m)(?:^|hook additional context: )\[rule: ([^\]\n]{1,300})\]")
_TTSR_RULE = re.compile(r'<rule name="([^"\n]{1,300})" path="')
_INTERRUPT = "[ruleweave] Your output was stopped"
_REMINDER = "[ruleweave] What you just wrote"

HOOK_HOW = {
    "SessionStart": "start",
    "UserPromptSubmit": "prompt",
    "PreToolUse": "pretool",
    "PostToolUse": "tool-result",
    "PostToolUseFailure": "tool-result",
    "Stop": "stop",
    "SubagentStop": "stop",
    "SubagentStart": "start",
}
"""How a hook event's context reaches the model (``timeline.HOW``)."""


def rules_in(text: str, how: str) -> list[tuple[str, str]]:
    """The rules whose text ``text`` carries: ``(name, how)`` each, in order, each name once.

    Args:
        text: What the model received.
        how: How it came (``timeline.HOW``); a streamed rule's text is reported as
            ``ttsr-interrupt`` or ``ttsr-reminder`` instead.

    Returns:
        The rules found.
    """
    if "[rule: " not in text and "<rule name=" not in text:
        return []
    found: dict[str, str] = {}
    for match in _NOTICE.finditer(text):
        found.setdefault(match.group(1).strip(), how)
    if _INTERRUPT in text or _REMINDER in text:
        ttsr_how = "ttsr-interrupt" if _INTERRUPT in text else "ttsr-reminder"
        for match in _TTSR_RULE.finditer(text):
            found.setdefault(html.unescape(match.group(1)), ttsr_how)
    return list(found.items())


_CONTEXT = re.compile(r"<system-reminder>\n(\w+)(?::[\w.-]+)? hook additional context: ")


def hook_event_in(text: str) -> str | None:
    """The hook event whose context Claude Code wrapped ``text`` in, if it says."""
    match = _CONTEXT.search(text)
    return match.group(1) if match else None
