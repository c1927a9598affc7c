"""Finding rules in text the model received, by ruleweave's own notice headers.

* ``[rule: NAME]`` at the start of a line (or right after Claude Code's ``… hook additional
  context: `` wrapper): a notice (``instructions.blob``), a rule of
  the start context's ``<generic-rules>`` (``prompt``), a ``read_rule`` answer
  (``session.rule_uri``);
* ``<rule name="NAME" path="…">`` after ``[ruleweave] Your output was stopped`` (an
  interrupt) or ``[ruleweave] What you just wrote`` (a reminder): a streamed rule's
  text (``ttsr.render``; names are attribute-escaped there, unescaped here). Codex 0.171.0 hands a
  Stop hook's reason to the model inside ``<hook_prompt …>`` with ``<`` and ``>`` escaped
  (``&lt;rule name=…``): read too.

A rule's text that ends in a cut marker (``[ruleweave: N bytes left out…]``: the notice budget's,
``prompt._cuts``, or the hook's context limit's, ``hosts._core.native.fit_context``) reached the
model cut: ``N`` is reported with it.

A template override that drops these headers hides its rules from the audit.
"""

from __future__ import annotations

import html
import re

_NOTICE = re.compile(r"(?m)(?:^|hook additional context: )\[rule: ([^\]\n]{1,300})\]")
_TTSR_RULE = re.compile(r'(?:<|&lt;)rule name="([^"\n]{1,300})" path="')  # Codex escapes a Stop reason
_CUT = re.compile(r"\[ruleweave: ([0-9][0-9,]{0,15}) bytes left out")
_START_PART = "[ruleweave: start context, part "  # hosts._core.delivery.CONTINUED: a later part of it
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


def rules_in(text: str, how: str) -> list[tuple[str, str, int]]:
    """The rules whose text ``text`` carries: ``(name, how, cut)`` each, in order, each name once.

    Args:
        text: What the model received.
        how: How it came (``timeline.HOW``); a streamed rule's text is reported as
            ``ttsr-interrupt`` or ``ttsr-reminder`` instead, and a later part of a start context
            too long for one answer (it went out with another event) as ``start``.

    Returns:
        The rules found; ``cut``: bytes a cut marker in the rule's section (up to the next
        header) says were left out, 0 when none.
    """
    if "[rule: " not in text and "rule name=" not in text:
        return []
    if how not in ("start", "compaction") and _START_PART in text:
        how = "start"
    found: dict[str, tuple[str, int]] = {}
    notices = list(_NOTICE.finditer(text))
    for index, match in enumerate(notices):
        end = notices[index + 1].start() if index + 1 < len(notices) else len(text)
        marker = _CUT.search(text, match.end(), end)
        cut = int(marker.group(1).replace(",", "")) if marker else 0
        found.setdefault(match.group(1).strip(), (how, cut))
    if _INTERRUPT in text or _REMINDER in text:
        ttsr_how = "ttsr-interrupt" if _INTERRUPT in text else "ttsr-reminder"
        for match in _TTSR_RULE.finditer(text):
            found.setdefault(html.unescape(match.group(1)), (ttsr_how, 0))
    return [(name, found_how, cut) for name, (found_how, cut) in found.items()]


_CONTEXT = re.compile(r"<system-reminder>\n(\w+)(?::[\w.-]+)? hook additional context: ")


def hook_event_in(text: str) -> str | None:
    """The hook event whose context Claude Code wrapped ``text`` in, if it says."""
    match = _CONTEXT.search(text)
    return match.group(1) if match else None
