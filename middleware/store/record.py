"""A session's delivery record, read back: its entries and a summary per rule or file.

The hooks write the record (``ruleweave._kernel.delivery`` says what an entry
holds); ``ruleweave explain --session`` prints it, and a transcript audit joins
its ``delivered`` entries with the agent's own log by tool call id and time.
"""

from __future__ import annotations

from typing import Any

from ruleweave._kernel.delivery import read_entry
from ruleweave.store.base import SessionStore


def session_record(store: SessionStore, session_id: str) -> dict[str, Any]:
    """The session's delivery record, and per rule or file what became of it.

    Args:
        store: The store the session's hooks wrote to.
        session_id: The agent's session id.

    Returns:
        ``{"session", "entries", "rules"}``: ``entries`` as the store keeps them (oldest
        first, the newest ``RECORD_LIMIT``; text that is not an entry is left out), and
        ``rules`` one summary per ``(kind, name, path)`` in order of first appearance:
        ``delivered`` (times), ``bytes`` (delivered), ``cut`` (bytes left out),
        ``queued``, ``dequeued``, ``rearmed`` (times), ``waiting`` (still in the queue
        as far as the record says), ``first`` and ``last`` (``at`` of its first and last
        delivery, ``None`` when never delivered).

    Raises:
        StoreError: The store cannot be read.
    """
    entries = [found for found in map(read_entry, store.deliveries(session_id)) if found is not None]
    rules: dict[tuple[Any, Any, Any], dict[str, Any]] = {}
    for entry in entries:
        key = (entry.get("kind"), entry.get("name"), entry.get("path"))
        row = rules.get(key)
        if row is None:
            row = rules[key] = {
                "kind": key[0], "name": key[1], "path": key[2], "delivered": 0, "bytes": 0, "cut": 0,
                "queued": 0, "dequeued": 0, "rearmed": 0, "waiting": False, "first": None, "last": None,
            }
        action = str(entry["action"])
        if action in ("queued", "dequeued", "rearmed"):
            row[action] += 1
        elif action == "delivered":
            row["delivered"] += 1
            row["bytes"] += _number(entry.get("bytes"))
            row["first"] = row["first"] if row["first"] is not None else entry.get("at")
            row["last"] = entry.get("at")
        if action in ("delivered", "cut"):  # a queued entry repeats the cut its delivery will count
            row["cut"] += _number(entry.get("cut"))
    for row in rules.values():
        row["waiting"] = row["queued"] > row["dequeued"] + row["rearmed"]
    return {"session": session_id, "entries": entries, "rules": list(rules.values())}


def _number(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
