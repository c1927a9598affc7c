"""The terminal report: one table row per rule (at most 100 columns), totals, advice, warnings."""

from __future__ import annotations

import textwrap
from typing import Any

WIDTH = 100
"""The widest line printed (before the CLI's escaping of what the files hold)."""

MAX_FILES = 40
"""The most violations listed under ``violations in:``."""

_HOW_SHORT = {
    "start": "start", "compaction": "compact", "prompt": "prompt", "pretool": "pre", "tool-result": "result",
    "ttsr-interrupt": "ttsr!", "ttsr-reminder": "ttsr", "read-rule": "read", "stop": "stop", "other": "other",
}


def lines(report: dict[str, Any]) -> list[str]:
    """The report as lines of text (each at most ``WIDTH`` characters)."""
    totals = report["totals"]
    out = [
        f"{totals['files']} files, {totals['sessions']} sessions, {totals['rules']} rules; "
        f"violations {totals['violations_before']} before delivery, {totals['violations_after']} after "
        f"({totals['violations_after_ttsr']} after a TTSR hit, {totals['stopped']} stopped)",
    ]
    if report["rules"]:
        out += ["", f"  {'rule':<26} {'status':<9} {'recv':>4} {'lost':>4} {'cut':>3} {'before':>6} "
                f"{'after':>5} {'ttsr':>4}  how"]
        for row in report["rules"]:
            how = ",".join(f"{_HOW_SHORT.get(k, k)}×{n}" for k, n in sorted(row["how"].items()))
            line = (f"  {_cut(row['rule'], 26):<26} {row['status']:<9} {row['sessions_received']:>4} "
                    f"{row['lost']:>4} {row['cut']:>3} {row['violations']['before']:>6} "
                    f"{row['violations']['after']:>5} {row['violations']['after_ttsr']:>4}  {how}")
            out.append(_cut(line, WIDTH))
    advice = [(row["rule"], text) for row in report["rules"] for text in row["advice"]]
    if advice:
        out += ["", "advice:"]
        out += [line for name, text in advice for line in _wrap(f"{name}: {text}")]
    files = [(s_row["rule"], f) for session in report["sessions"] for s_row in session["rules"]
             for f in s_row["files"]]
    if files:
        out += ["", "violations in:"]
        for name, found in files[:MAX_FILES]:
            tail = f" ({found['when']}{', stopped' if found['stopped'] else ''})"
            head = f"  {name}: "
            out.append(_cut(head + _left_cut(found["path"], WIDTH - len(head) - len(tail)) + tail, WIDTH))
        if len(files) > MAX_FILES:
            out.append(f"  … and {len(files) - MAX_FILES:,} more (--json lists them all)")
    if report["warnings"]:
        out += ["", "warnings:"]
        out += [line for w in report["warnings"] for line in _wrap(w)]
    return out


def _wrap(text: str) -> list[str]:
    """``text`` wrapped at ``WIDTH`` (long paths broken too), indented, continuation lines further."""
    return textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _left_cut(text: str, width: int) -> str:
    """``text`` with its start cut to fit ``width`` (a path keeps its file name)."""
    width = max(width, 8)
    return text if len(text) <= width else "…" + text[len(text) - width + 1:]
