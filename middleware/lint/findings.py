"""A lint finding: a stable code, where it applies, and one sentence (pure data)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["warning", "info"]
"""``warning`` fails ``--strict``; ``info`` is shown but never fails it."""

CODES: dict[str, str] = {
    "dead-glob": "a glob matches no tracked file",
    "dead-rule": "every glob of a rule is dead, so the rule never fires",
    "over-limit": "a file or chain is longer than an agent's documented limit or ruleweave's budget",
    "duplicate": "the same text (whitespace aside) is kept in several files",
    "drift": "copies of one text differ in some paragraphs: one was edited, the others not",
    "unreachable": "a rule no agent or session will ever use",
    "discovery": "a file discovery skipped or repaired (malformed, unreadable, oversized)",
}
"""Every finding code, with what it means; codes are stable (CI gates on them with ``--fail-on``)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem, naming the file and line where it applies.

    Attributes:
        code: A key of ``CODES``.
        severity: ``warning`` or ``info``.
        path: The file, relative to the project root ('' when none).
        line: The 1-based line, when known.
        message: One sentence.
        agent: The agent whose semantics or limit the finding is about, if any.
        details: Extra lines: the paragraphs that differ, what would be cut.
    """

    code: str
    severity: Severity
    path: str
    line: int | None
    message: str
    agent: str | None = None
    details: tuple[str, ...] = ()

    def sort_key(self) -> tuple[str, int, str, str]:
        """Findings sort by file, line, code and message (deterministic output)."""
        return (self.path, self.line or 0, self.code, self.message)

    def as_json(self) -> dict[str, Any]:
        """The finding as the ``--json`` output spells it."""
        return {
            "code": self.code,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "agent": self.agent,
            "details": list(self.details),
        }
