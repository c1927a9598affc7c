"""Delivered vs received: the store's delivery record joined with what the transcript shows arrived."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ruleweave._kernel.delivery import read_entry

_RULE_KINDS = frozenset({"rule", "ttsr"})

StartRules = Callable[[str, int], "tuple[str, ...] | None"]
"""The rules a recorded start-context piece held, from its ``name`` and ``bytes``
(``start.StartContexts``)."""


@dataclass(slots=True)
class Record:
    """What a session's delivery record says went out, per rule.

    Attributes:
        rules: Per rule name: ``times`` delivered, ``bytes``, ``cut`` (bytes of its text left
            out, by the delivery or the start context's budget), ``first`` (wall-clock seconds),
            ``events``.
        start_parts: Start-context pieces delivered.
        start_unmatched: Of those, pieces whose rules could not be told (no ``start`` given, or
            none of the start contexts built now has a part of that number and size).
    """

    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    start_parts: int = 0
    start_unmatched: int = 0

    def row(self, name: str) -> dict[str, Any]:
        """The rule's row, added empty if need be."""
        return self.rules.setdefault(name, {"times": 0, "bytes": 0, "cut": 0, "first": None, "events": []})


def delivered(store: Any, session_id: str, start: StartRules | None = None) -> Record:
    """What the store says went out to ``session_id``, per rule.

    A start-context piece counts once for each rule ``start`` says it held (its ``bytes``: the
    piece's, shared by them); a ``cut`` entry adds the bytes a budget left out of a rule.

    Args:
        store: A ``SessionStore`` (``store.deliveries``).
        session_id: The agent's session id.
        start: The rules of a start-context piece (``start.StartContexts.rules_of`` for the
            session's format), or ``None`` to leave start-context pieces unmatched.

    Returns:
        The ``Record``.

    Raises:
        StoreError: The store cannot be read.
    """
    record = Record()
    for text in store.deliveries(session_id):
        entry = read_entry(text)
        if entry is None:
            continue
        action, kind, name = entry.get("action"), entry.get("kind"), str(entry.get("name") or "")
        size, cut = entry.get("bytes"), entry.get("cut")
        size, cut = (size if isinstance(size, int) else 0), (cut if isinstance(cut, int) else 0)
        if action == "cut" and kind == "rule" and name:
            record.row(name)["cut"] += cut
            continue
        if action != "delivered":
            continue
        if kind == "prompt":
            record.start_parts += 1
            names = start(name, size) if start is not None else None
            if names is None:
                record.start_unmatched += 1
            for held in names or ():
                _count(record.row(held), entry, size, 0)
        elif kind in _RULE_KINDS and name:
            for held in name.split(", ") if kind == "ttsr" else (name,):  # a reminder names all its rules
                _count(record.row(held), entry, size, cut)
    return record


def _count(row: dict[str, Any], entry: dict[str, Any], size: int, cut: int) -> None:
    row["times"] += 1
    row["bytes"] += size
    row["cut"] += cut
    at = entry.get("at")
    if isinstance(at, (int, float)) and (row["first"] is None or at < row["first"]):
        row["first"] = float(at)
    if entry.get("event") not in row["events"]:
        row["events"].append(entry.get("event"))


def gap(delivered_times: int | None, received_times: int) -> str:
    """The delivered-vs-received verdict for one rule in one session.

    Returns:
        ``ok`` (both or neither), ``lost`` (the store says it went out; the transcript never
        shows it), ``unrecorded`` (it arrived; the store has no delivery of it), ``unknown``
        (no store given).
    """
    if delivered_times is None:
        return "unknown"
    if delivered_times and not received_times:
        return "lost"
    if received_times and not delivered_times:
        return "unrecorded"
    return "ok"
