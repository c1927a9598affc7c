"""``ruleweave audit``: what reached the model, and whether the model then followed it.

An audit reads agent transcripts (Claude Code JSONL, Codex CLI rollout
files, ruleweave's own event log), each detected by its content
(``detect``), into one normalised timeline per session (``timeline``): the
notices the model received, found by ruleweave's own headers
(``received``), and the writes, edits, commands and replies it made. It joins
what reached the model with the store's delivery record (``join``; ``start``
tells which rules a recorded start context held), runs each
rule's mechanical check over the model's actions before and after the rule
reached it (``checks``), derives advice (``advice``) and builds the report
(``report``) that ``render`` prints and ``--json`` dumps (docs/audit.md).

Transcripts are untrusted: a file that cannot be read, is of no known
format, is cut short or is hostile (huge lines, invalid UTF-8, deep JSON)
becomes a warning naming it, never an exception (``jsonl``).
"""

from __future__ import annotations

from ruleweave.audit.report import SCHEMA_VERSION, audit

__all__ = ["SCHEMA_VERSION", "audit"]
