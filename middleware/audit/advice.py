"""Advice from an audit's totals: what to change about a rule, one sentence each."""

from __future__ import annotations

from typing import Any

MANY_SESSIONS = 2
"""Sessions a rule must reach before 'globs too wide' is said of it."""


def advise(row: dict[str, Any]) -> list[str]:
    """Advice for one rule's totals row (``report.audit``'s ``rules[]``).

    * broken after it reached the model: a streamed rule (it would stop the write) or a steering
      refusal; for a rule already streamed, an interrupt or a refusal;
    * reached the model in ``MANY_SESSIONS`` or more sessions where none of its globs' files was
      touched: its globs (or ``alwaysApply``) are too wide;
    * checkable, reached the model, and never broken, not even before it arrived: a candidate to
      leave out (the bytes it cost).
    """
    out: list[str] = []
    if row["violations"]["after"]:
        if row["streamed"]:
            out.append("broken after delivery although streamed: set interrupt_mode: always, "
                       "or refuse the tool call with a steering rule")
        else:
            out.append("broken after delivery: make it a streamed rule (condition:) so the write is "
                       "stopped, or refuse the tool call with a steering rule")
    if row["globs"] and row["sessions_untouched"] >= MANY_SESSIONS:
        out.append(f"reached {row['sessions_untouched']} sessions that never touched its files: "
                   "its globs are too wide")
    checked = row["check"] is not None and row["actions_checked"]
    if checked and row["sessions_received"] and not any(row["violations"].values()):
        out.append(f"never broken, even before delivery: a candidate to leave out "
                   f"({row['bytes_received']:,} bytes saved)")
    return out
