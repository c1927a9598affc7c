"""The audit itself: sessions read, rules joined and checked, totals and advice, as one JSON-ready dict.

The dict is ``--json``'s output; docs/audit.md documents it (``SCHEMA_VERSION``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruleweave.audit.advice import advise
from ruleweave.audit.checks import Check, check_of, touches
from ruleweave.audit.detect import files_of, read_file
from ruleweave.audit.join import Record, delivered, gap
from ruleweave.audit.timeline import Action, Received, Session
from ruleweave.rules import Rule

if TYPE_CHECKING:
    from ruleweave.audit.start import StartContexts

SCHEMA_VERSION = 1
"""``version`` of the JSON report; raised when a field changes meaning or goes away."""

PHASES = ("before", "after", "after_ttsr")

_TTSR = ("ttsr-interrupt", "ttsr-reminder")
"""Receipts the delivery record cannot show: a hook's refusal or Stop block is its answer, not a
delivery, and a reminder across processes goes out unnamed. They count towards the gap only for
a rule the record holds deliveries of."""


def audit(
    paths: Sequence[str],
    rules: Sequence[Rule],
    root: str,
    *,
    store: Any = None,
    since: float | None = None,
    only: Sequence[str] = (),
    start: StartContexts | None = None,
) -> dict[str, Any]:
    """Audit transcripts against rules.

    Args:
        paths: Transcript files and folders of them.
        rules: The project's rules (checks, globs, whether streamed).
        root: The project root (globs and relative paths are read against it).
        store: The store the hooks wrote to (``SessionStore``), for delivered vs received.
        since: Skip sessions that started before this (epoch seconds).
        only: Audit only these rule names (all when empty).
        start: The start contexts the hooks send for ``rules``, to tell which rules a recorded
            start context held (``start.StartContexts``); without it those rules read
            ``unrecorded`` against the store unless the record holds them otherwise.

    Returns:
        The report (docs/audit.md): ``version``, ``files``, ``sessions``, ``rules``, ``totals``,
        ``warnings``.

    Raises:
        StoreError: The store cannot be read.
    """
    warnings: list[str] = []
    files = files_of(paths, warnings)
    sessions: list[Session] = []
    for path in files:
        for session in read_file(path, warnings):
            if since is None or session.started is None or session.started >= since:
                sessions.append(session)
    by_name = {r.name: r for r in rules}
    checks = {r.name: c for r in rules if (c := check_of(r)) is not None}
    for check in checks.values():
        warnings.extend(f"rule {check.rule}: {p}" for p in check.problems)
    session_rows = [_session(s, by_name, checks, root, (store, start), only) for s in sessions]
    totals = _totals(session_rows, by_name, checks)
    return {
        "version": SCHEMA_VERSION,
        "files": files,
        "sessions": session_rows,
        "rules": totals,
        "totals": {
            "files": len(files),
            "sessions": len(session_rows),
            "rules": len(totals),
            "received": sum(r["sessions_received"] for r in totals),
            "lost": sum(r["lost"] for r in totals),
            "cut": sum(r["cut"] for r in totals),
            "stopped": sum(r["stopped"] for r in totals),
            **{f"violations_{p}": sum(r["violations"][p] for r in totals) for p in PHASES},
            "broken": sorted(r["rule"] for r in totals if r["status"] == "broken"),
        },
        "warnings": warnings,
    }


def _session(
    session: Session, rules: dict[str, Rule], checks: dict[str, Check], root: str,
    joined: tuple[Any, StartContexts | None], only: Sequence[str],
) -> dict[str, Any]:
    store, start = joined
    record: Record | None = None
    if store is not None and session.id:
        held = None if start is None else (lambda piece, size: start.rules_of(session.format, piece, size))
        record = delivered(store, session.id, held)
    names = [*checks, *(r.rule for r in session.received), *(record.rules if record else {})]
    touched = [_moved(p, session.cwd, root) for p in session.touched]
    rows = []
    for name in dict.fromkeys(names):
        if only and name not in only:
            continue
        received = [r for r in session.received if r.rule == name]
        times, size, sent_cut = _sent(record, name, received)
        row: dict[str, Any] = {
            "rule": name,
            "received": [{"how": r.how, "at": r.at, "event": r.event, "call": r.call, "cut": r.cut}
                         for r in received],
            "delivered": times,
            "delivered_bytes": size,
            "delivered_cut": sent_cut,
            "gap": _gap(times, received),
            "cut": max((r.cut for r in received), default=0),
            "touched": None,
            "violations": dict.fromkeys(PHASES, 0),
            "stopped": 0,
            "files": [],
            "actions_checked": 0,
        }
        rule = rules.get(name)
        if rule is not None and rule.globs:
            row["touched"] = any(touches(p, rule.globs, root) for p in touched)
        check = checks.get(name)
        if check is not None:
            _check(row, check, session, received, root)
        if received or row["delivered"] or any(row["violations"].values()):
            rows.append(row)
    return {
        "file": session.file, "format": session.format, "id": session.id, "cwd": session.cwd,
        "started": session.started, "actions": sum(a.kind != "reply" for a in session.actions),
        "replies": sum(a.kind == "reply" for a in session.actions),
        "start_context": _start_joined(record), "rules": rows,
    }


def _sent(record: Record | None, name: str, received: list[Received]) -> tuple[Any, Any, Any]:
    """``(times, bytes, cut)`` the record says went out of the rule (``None`` each without a store).

    A start context whose rules could not be told (``start_context: whole``) still went out:
    a rule the transcript shows in it counts as delivered with it."""
    if record is None:
        return None, None, None
    row = record.rules.get(name) or {"times": 0, "bytes": 0, "cut": 0}
    times = row["times"]
    if not times and record.start_unmatched:
        times = min(sum(r.how in ("start", "compaction") for r in received), record.start_parts)
    return times, row["bytes"], row["cut"]


def _gap(times: int | None, received: list[Received]) -> str:
    counted = [r for r in received if r.how not in _TTSR]
    return gap(times, len(counted) or (len(received) if times else 0))


def _start_joined(record: Record | None) -> str | None:
    """How the start context was joined: ``per-rule``, ``whole``, or ``None`` (no store or none recorded)."""
    if record is None or not record.start_parts:
        return None
    return "whole" if record.start_unmatched else "per-rule"


def _check(row: dict[str, Any], check: Check, session: Session, received: list[Received], root: str) -> None:
    first = min((r.seq for r in received), default=None)
    ttsr = min((r.seq for r in received if r.how.startswith("ttsr")), default=None)
    refused = {r.call for r in received if r.how == "ttsr-interrupt" and r.call}
    for action in session.actions:
        moved = Action(action.seq, action.at, action.tool, action.call,
                       _moved(action.path, session.cwd, root), action.text, action.kind)
        if not check.watches(moved, root):
            continue
        if check.paths and (moved.kind != "write" or not touches(moved.path, check.paths, root)):
            continue
        row["actions_checked"] += 1
        found = check.violated_by(moved, root)
        if found is None:
            continue
        phase = "before" if first is None or action.seq < first else "after"
        row["violations"][phase] += 1
        if ttsr is not None and action.seq > ttsr:
            row["violations"]["after_ttsr"] += 1
        stopped = bool(action.call) and action.call in refused
        row["stopped"] += stopped
        where = moved.path or f"({action.tool})"
        row["files"].append({"path": where, "when": phase, "match": found[:200], "stopped": stopped})


def _moved(path: str, cwd: str, root: str) -> str:
    """``path`` moved from the transcript's machine to ``root`` (relative paths resolved against ``cwd``)."""
    if not path:
        return path
    if not os.path.isabs(path):
        path = os.path.join(cwd or root, path)
    if cwd and not (cwd + "/").startswith(root.rstrip("/") + "/") and path.startswith(cwd.rstrip("/") + "/"):
        return os.path.join(root, path[len(cwd.rstrip("/")) + 1:])
    return path


def _totals(
    sessions: list[dict[str, Any]], rules: dict[str, Rule], checks: dict[str, Check]
) -> list[dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for session in sessions:
        for row in session["rules"]:
            name = row["rule"]
            rule, check = rules.get(name), checks.get(name)
            total = out.get(name)
            if total is None:
                total = out[name] = {
                    "rule": name, "known": rule is not None,
                    "streamed": bool(rule and (rule.condition or rule.ast_condition)),
                    "globs": list(rule.globs) if rule else [],
                    "check": None if check is None else {
                        "source": check.source, "regex": list(check.regexes),
                        "ast_grep": list(check.patterns), "paths": list(check.paths),
                        "scope": [str(entry) for entry in check.scope],
                    },
                    "sessions": 0, "sessions_received": 0, "sessions_delivered": 0, "sessions_untouched": 0,
                    "how": {}, "lost": 0, "unrecorded": 0, "cut": 0, "cut_bytes": 0, "read_whole": 0,
                    "stopped": 0, "violations": dict.fromkeys(PHASES, 0),
                    "files": [], "actions_checked": 0, "bytes_received": 0,
                }
            total["sessions"] += 1
            got = bool(row["received"])
            total["sessions_received"] += got
            total["sessions_delivered"] += bool(row["delivered"])
            total["sessions_untouched"] += got and row["touched"] is False
            for r in row["received"]:
                total["how"][r["how"]] = total["how"].get(r["how"], 0) + 1
            total["lost"] += row["gap"] == "lost"
            total["unrecorded"] += row["gap"] == "unrecorded"
            cut = bool(row["cut"] or row["delivered_cut"])
            total["cut"] += cut
            total["cut_bytes"] = max(total["cut_bytes"], row["cut"], row["delivered_cut"] or 0)
            total["read_whole"] += cut and any(r["how"] == "read-rule" for r in row["received"])
            total["stopped"] += row["stopped"]
            for phase in PHASES:
                total["violations"][phase] += row["violations"][phase]
            total["files"].extend(f["path"] for f in row["files"] if f["path"] not in total["files"])
            total["actions_checked"] += row["actions_checked"]
            if got:
                size = len((rule.content if rule else "").encode())
                total["bytes_received"] += row["delivered_bytes"] or size
    for total in out.values():
        total["status"] = _status(total)
        total["advice"] = advise(total)
    return sorted(out.values(), key=lambda t: t["rule"])


def _status(total: dict[str, Any]) -> str:
    v = total["violations"]
    if v["after"]:
        return "broken"
    if total["check"] is None:
        return "unchecked"
    return "followed" if v["before"] else "clean"
