"""ruleweave's own event log (``RuleweaveConfig(event_log=PATH)``; ``ruleweave.events``, docs/replay.md).

Lines are ``{"event", "session", "ts", …}``; one log may hold many sessions. Read:
``session_start`` (``generic_rules`` reached the start context, ``cwd``), ``injection``
(``items[].name`` went out in a tool result), ``ttsr`` (``rules``, ``interrupt``,
``call_id``), ``tool_touch`` (``tool``, ``args``, ``paths``: the call's writes and
commands), ``compacted`` (later start context counts as after a compaction).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ruleweave.audit.actions import actions_of
from ruleweave.audit.dates import seconds
from ruleweave.audit.timeline import Received, Session

FORMAT = "event-log"
_EVENTS = frozenset(
    {"session_start", "tool_touch", "injection", "ttsr", "prompt", "tool_check", "turn_start", "compacted"}
)


def detect(objects: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a file's first objects look like ruleweave's event log."""
    return any(o.get("event") in _EVENTS and "session" in o for o in objects)


def read(path: str, lines: Iterable[tuple[int, dict[str, Any]]]) -> list[Session]:
    """The sessions an event log holds, in the order they first appear.

    Args:
        path: The file.
        lines: Its ``(line number, object)`` pairs.

    Returns:
        One session per ``session`` value.
    """
    sessions: dict[str, Session] = {}
    compacted: set[str] = set()
    for seq, line in lines:
        sid = str(line.get("session") or "")
        session = sessions.get(sid)
        if session is None:
            session = sessions[sid] = Session(file=path, format=FORMAT, id=sid)
        at = seconds(line.get("ts"))
        session.note_time(at)
        event = line.get("event")
        if event == "session_start":
            session.cwd = str(line.get("cwd") or session.cwd)
            how = "compaction" if sid in compacted else "start"
            for name in _strings(line.get("generic_rules")):
                session.received.append(Received(seq, at, name, how, "session_start"))
        elif event == "compacted":
            compacted.add(sid)
        elif event == "injection":
            for item in line.get("items") or []:
                if isinstance(item, dict) and item.get("kind") in ("rule", None) and item.get("name"):
                    session.received.append(Received(seq, at, str(item["name"]), "tool-result", "injection"))
        elif event == "ttsr":
            how = "ttsr-interrupt" if line.get("interrupt") else "ttsr-reminder"
            call = line.get("call_id") if isinstance(line.get("call_id"), str) else None
            for name in _strings(line.get("rules")):
                session.received.append(Received(seq, at, name, how, "ttsr", call))
        elif event == "tool_touch":
            raw = line.get("args")
            args: dict[str, Any] = raw if isinstance(raw, dict) else {}
            paths = _strings(line.get("paths"))
            session.touched.extend(paths)
            tool = str(line.get("tool") or "")
            found = actions_of(tool, f"#{seq}", {"file_path": paths[0], **args} if paths else args, seq, at)
            session.actions.extend(found)
    return list(sessions.values())


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value if isinstance(v, str)] if isinstance(value, list) else []
