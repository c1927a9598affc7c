"""Rendering a lint report: text that fits 100 columns, and the ``--json`` shape.

Text from repositories (paths, globs, paragraphs) is printed as found; the
CLI prints it through ``escaped_output``, which spells hidden characters as
escapes. Cells too long for their column end in ``…``.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from typing import Any

from ruleweave.lint.agent_view import AgentView
from ruleweave.lint.findings import CODES, Finding
from ruleweave.lint.run import LintReport

WIDTH = 100
"""Columns the text report fits in."""


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters, ending in ``…`` when cut."""
    text = " ".join(text.split("\n"))
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def finding_lines(finding: Finding, width: int = WIDTH) -> list[str]:
    """One finding: a head line (where, severity, code, agent), the sentence wrapped, its details."""
    where = finding.path or "(project)"
    if finding.line:
        where += f":{finding.line}"
    tail = f"  {finding.severity} {finding.code}" + (f" [{finding.agent}]" if finding.agent else "")
    head = shorten(where, width - len(tail)) + tail
    body = textwrap.wrap(
        " ".join(finding.message.split()), width, initial_indent="    ", subsequent_indent="    ",
        break_long_words=True, break_on_hyphens=False,
    )
    return [head, *body, *(shorten("      " + d, width) for d in finding.details)]


def render_text(report: LintReport, width: int = WIDTH) -> list[str]:
    """The whole report as lines: each agent view asked for, the findings, a summary."""
    out: list[str] = []
    for view in report.views:
        out += view_lines(view, width)
        out.append("")
    for finding in report.findings:
        out += finding_lines(finding, width)
    counts = Counter(f.code for f in report.findings)
    warnings = sum(1 for f in report.findings if f.severity == "warning")
    if report.findings:
        out.append("")
    out.append(
        f"{len(report.findings)} findings ({warnings} warnings, {len(report.findings) - warnings} info) "
        f"over {report.rules} rules and {report.files:,} files (listed by {report.listing})"
    )
    if counts:
        out.append("  " + ", ".join(f"{code}: {counts[code]}" for code in CODES if counts[code]))
    return out


def view_lines(view: AgentView, width: int = WIDTH) -> list[str]:
    """One agent's view as lines."""
    agent = view.agent
    if agent.id == "ruleweave":
        dialect = "; each rule's globs match as its own agent reads them"
    elif not agent.providers:
        dialect = "; it reads no rule files, only instruction files"
    elif agent.dialect == "anywhere":
        dialect = "; a bare glob like *.py matches a file name anywhere"
    else:
        dialect = "; a bare glob like *.py matches files in the project root only"
    out = [shorten(f"{agent.label} (--agent {agent.id}){dialect}", width)]
    out.append(f"session start: {len(view.session_start)} files and rules, {view.session_bytes:,} bytes")
    for item in view.session_start:
        out.append(_row(item.path, f"{item.bytes:>9,} bytes  {item.why:<16}", width))
    out.append(f"rules that attach by path ({len(view.by_path)}):")
    for rule in view.by_path:
        left = f"{rule.name}  {rule.path}  {', '.join(rule.globs)}"
        out.append(_row(left, f"{rule.files:>7,} files", width))
    out.append(f"rules read by description ({len(view.by_description)}):")
    out += [shorten(f"  {name}  {path}: {text}", width) for name, path, text in view.by_description]
    out.append(f"manual rules ({len(view.manual)}):")
    out += [shorten(f"  {name}  {path}", width) for name, path in view.manual]
    title = "budgets" if agent.id == "ruleweave" else "documented limits"
    out.append(f"{title} ({len(view.limits)}):" if view.limits else f"{title}: none known to ruleweave")
    out += [shorten(f"  {name}: {amount:,} {unit} per {scope.replace('-', ' ')}", width)
            for name, amount, unit, scope in view.limits]
    return out


def _row(left: str, right: str, width: int) -> str:
    """``  left … right``, the left cell cut so the line fits ``width``."""
    room = width - 4 - len(right)
    return ("  " + shorten(left, room).ljust(room) + "  " + right).rstrip()


def render_json(report: LintReport) -> dict[str, Any]:
    """The ``--json`` shape: findings, summary counts, and each agent view asked for."""
    counts = Counter(f.code for f in report.findings)
    return {
        "findings": [f.as_json() for f in report.findings],
        "summary": {
            "findings": len(report.findings),
            "warnings": sum(1 for f in report.findings if f.severity == "warning"),
            "by_code": {code: counts[code] for code in CODES if counts[code]},
            "rules": report.rules,
            "files": report.files,
            "listing": report.listing,
        },
        "agents": [view.as_json() for view in report.views],
    }
