"""Advice from an audit's totals: what to change about a rule, one sentence each."""

from __future__ import annotations

from typing import Any

MANY_SESSIONS = 2
"""Sessions a rule must reach before 'globs too wide' is said of it."""


def advise(row: dict[str, Any]) -> list[str]:
    """Advice for one rule's totals row (``report.audit``'s ``rules[]``).

    * broken after it reached the model: a streamed rule (it would stop the write) or a steering
      refusal; for a rule already streamed, letting it fire again (``repeat``) or a refusal;
    * reached the model in ``MANY_SESSIONS`` or more sessions where none of its globs' files was
      touched: its globs (or ``alwaysApply``) are too wide;
    * checkable, reached the model, and never broken, not even before it arrived: a candidate to
      leave out (the bytes it cost);
    * reached the model cut (a budget or the hook's context limit left part of it out): shorten
      it or split it, above all when the model never read it whole.
    """
    out: list[str] = []
    if row["cut"]:
        unread = row["cut"] - row["read_whole"]
        read = f"the model read it whole in {row['read_whole']}" if not unread else (
            f"the model never read the rest in {unread}")
        out.append(f"reached the model cut in {row['cut']} session(s), up to {row['cut_bytes']:,} bytes "
                   f"left out ({read}): shorten it or split it into smaller rules")
    if row["violations"]["after"]:
        if row["streamed"]:
            out.append("broken after delivery although streamed: it fires once per session by default "
                       "(repeat: once); let it fire again (repeat: after-gap N) with interruptMode: always, "
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
