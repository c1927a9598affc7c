"""The delivery record and the delivery queue: what a session's store keeps of each piece of context.

A hook answer may add at most a host's context limit (Claude Code: 10,000
UTF-16 code units, ``utf16_len``). What one event calls for and cannot fit
waits in the session's **queue** and goes out with the next event that can add
context; every piece that goes out, waits or is re-armed is written to the
session's **delivery record**, one JSON object per rule, instruction file or
other piece and per action, oldest first and at most ``RECORD_LIMIT`` per
session (``ruleweave explain --session``, ``ruleweave audit``).

Record entry (``entry``), keys in this order::

    {"at": 1733000000.25,          # wall-clock seconds
     "action": "delivered",        # delivered | queued | dequeued | rearmed | cut
     "event": "PostToolUse",       # the hook event answered (SystemPrompt: the SDK's system prompt)
     "call": "toolu_01…" | null,   # the tool call id the answer rode with
     "agent": "a1b2…" | null,      # the subagent, if the event was one of its
     "kind": "rule",               # rule | instructions | listing | ttsr | reminder | prompt | steering
     "name": "api/style",          # the rule's name, the file's display path, '' when none
     "path": "/repo/.cursor/rules/api/style.mdc",
     "bytes": 5123,                # UTF-8 bytes of the piece as sent (queued: as it waits)
     "cut": 0}                     # bytes of its text left out (cut for size, marker names the whole)

Queue item (``item``): the JSON array ``[key, kind, name, path, text, cut,
event, call, at]`` — a piece and the event it was due at. A subagent has a
queue of its own (``queue_id``): it starts with a fresh context, and what waits
for the main agent must not go out in a subagent's answer, nor the reverse.

A hook process that leaves pieces in the queue also leaves a **mark**, an
empty file named for the session in ``<state dir>/queued``, and removes it when
it empties the queue: the warm path, which must not answer while pieces wait,
looks for the mark with one ``stat`` (and, when it claims notices, checks the
queue itself in the same transaction).

Standard library only, and no ``typing``: the hook's warm path imports this module.
"""

from __future__ import annotations

import os
import zlib

from ruleweave._kernel import jsontext

RECORD_LIMIT = 1000
"""Entries a store keeps per session in the delivery record; past it the oldest are dropped."""

ACTIONS = ("delivered", "queued", "dequeued", "rearmed", "cut")
"""What an entry says happened to its piece:

* ``delivered`` — in this event's answer (``cut`` bytes of it left out);
* ``queued`` — due at this event, but over the limit: it waits in the queue;
* ``dequeued`` — taken from the queue to go out with this event (its ``delivered`` follows);
* ``rearmed`` — waited in the queue when the conversation was cleared: re-armed instead
  (it comes again with the next touch of its files); or a part of the start context that
  waited when a new start context (a compaction's) replaced it;
* ``cut`` — a file or rule of the start context its budget shortened by ``cut`` bytes."""

SEPARATOR = "\n\n"
"""Between two pieces of one answer."""


def utf16_len(text: str) -> int:
    """``text``'s length as JavaScript counts it (UTF-16 code units): how Claude Code measures context."""
    if not text or max(text) <= "\uffff":  # no astral character: one unit each (and no codec to import)
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf8_len(text: str) -> int:
    """``text``'s length in UTF-8 bytes: how Codex measures hook context (bytes / 4 as tokens)."""
    return len(text.encode("utf-8", "surrogatepass"))


UNITS = {"utf16": utf16_len, "utf8": utf8_len}
"""How an agent measures the context one hook answer adds (``Host.context_unit``) → the length function."""


def head_within(text: str, room: int, unit: str = "utf16") -> str:
    """The longest prefix of ``text`` of at most ``room`` units, never splitting a character."""
    codec, width = ("utf-8", 1) if unit == "utf8" else ("utf-16-le", 2)
    return text.encode(codec, "surrogatepass")[: width * max(room, 0)].decode(codec, "ignore")


def queue_id(session_id: str, agent_id: str | None) -> str:
    """The store session holding the queue of the main agent (the session itself) or of a subagent."""
    return session_id if agent_id is None else f"{session_id}@agent:{agent_id}"


def entry(
    action: str,
    kind: str,
    name: str,
    path: str,
    where: tuple[float, str | None, str | None, str | None],
    *,
    size: int = 0,
    cut: int = 0,
) -> str:
    """One delivery record entry, as JSON text (the fields the module docstring lists).

    Args:
        action: One of ``ACTIONS``.
        kind: What the piece carries (``rule``, ``instructions``, ``listing``, ``ttsr``,
            ``reminder``, ``prompt``, ``steering``).
        name: The rule's name or the file's display path ('' when none).
        path: The file the piece comes from ('' when none).
        where: When and with what: wall-clock seconds, the hook event answered, the tool call
            id the answer rode with, the subagent the event belongs to.
        size: UTF-8 bytes of the piece.
        cut: Bytes of the piece's text left out.

    Returns:
        The entry.
    """
    at, event, call, agent = where
    return jsontext.dumps(
        {
            "at": round(at, 3), "action": action, "event": event, "call": call, "agent": agent,
            "kind": kind, "name": name, "path": path, "bytes": size, "cut": cut,
        },
        ensure_ascii=False,
    )


def read_entry(text: str) -> dict[str, object] | None:
    """The fields of a record entry, or ``None`` for text that is not one (never raises)."""
    try:
        found = jsontext.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None
    return found if isinstance(found, dict) and found.get("action") in ACTIONS else None


def item(
    key: str, kind: str, name: str, path: str, text: str, cut: int, event: str | None,
    call: str | None, at: float,
) -> str:
    """One queue item, as JSON text: a piece and the event it was due at."""
    return jsontext.dumps([key, kind, name, path, text, cut, event, call, round(at, 3)], ensure_ascii=False)


def read_item(text: str) -> tuple[str, str, str, str, str, int, str | None, str | None, float] | None:
    """The fields of a queue item, or ``None`` for text that is not one (never raises)."""
    try:
        key, kind, name, path, body, cut, event, call, at = jsontext.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None
    if not all(isinstance(v, str) for v in (key, kind, name, path, body)) or not isinstance(cut, int):
        return None
    return key, kind, name, path, body, cut, event, call, float(at)


MARKS = "queued"
"""The state directory's folder of queue marks."""


def mark_path(directory: str, session_id: str) -> str:
    """The mark of ``session_id``'s queue in ``directory`` (a hash clash only costs a warm answer)."""
    return os.path.join(directory, f"{zlib.crc32(session_id.encode('utf-8', 'surrogatepass')):08x}")


def marked(directory: str, session_id: str) -> bool:
    """Whether a hook left pieces in the session's queue (one ``stat``)."""
    return os.path.exists(mark_path(directory, session_id))


def set_mark(directory: str, session_id: str, waiting: bool) -> None:
    """Leave (``waiting``) or remove the session's mark; never raises."""
    path = mark_path(directory, session_id)
    try:
        if waiting:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o600))
        elif os.path.exists(path):
            os.unlink(path)
    except OSError:
        pass  # a mark is a hint: a missing one delays the queue to the next full answer, never loses it
