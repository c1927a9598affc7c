"""Delivered vs received: the store's delivery record joined with what the transcript shows arrived."""

from __future__ import annotations

from typing import Any

from ruleweave._kernel.delivery import read_entry

_RULE_KINDS = frozenset({"rule", "ttsr"})


def delivered(store: Any, session_id: str) -> dict[str, dict[str, Any]]:
    """Per rule name, what the store says went out to ``session_id``: ``{times, bytes, first, hows}``.

    Args:
        store: A ``SessionStore`` (``store.deliveries``).
        session_id: The agent's session id.

    Returns:
        One row per rule delivered at least once (``first``: wall-clock seconds).

    Raises:
        StoreError: The store cannot be read.
    """
    rows: dict[str, dict[str, Any]] = {}
    for text in store.deliveries(session_id):
        entry = read_entry(text)
        if entry is None or entry.get("action") != "delivered" or entry.get("kind") not in _RULE_KINDS:
            continue
        name = str(entry.get("name") or "")
        if not name:
            continue
        row = rows.setdefault(name, {"times": 0, "bytes": 0, "first": None, "events": []})
        row["times"] += 1
        size = entry.get("bytes")
        row["bytes"] += size if isinstance(size, int) else 0
        at = entry.get("at")
        if isinstance(at, (int, float)) and (row["first"] is None or at < row["first"]):
            row["first"] = float(at)
        if entry.get("event") not in row["events"]:
            row["events"].append(entry.get("event"))
    return rows


def gap(delivered_times: int | None, received_times: int) -> str:
    """The delivered-vs-received verdict for one rule in one session.

    Returns:
        ``ok`` (both or neither), ``lost`` (the store says it went out; the transcript never
        shows it), ``unrecorded`` (it arrived; the store has no delivery of it: the prompt
        contribution, another path), ``unknown`` (no store given).
    """
    if delivered_times is None:
        return "unknown"
    if delivered_times and not received_times:
        return "lost"
    if received_times and not delivered_times:
        return "unrecorded"
    return "ok"
