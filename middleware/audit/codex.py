"""Codex CLI session logs: rollout files, ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

The shape assumed (openai/codex ``codex-rs/protocol/src/protocol.rs`` ``RolloutLine``/``RolloutItem``
and ``codex-rs/protocol/src/models.rs`` ``ResponseItem``; the repository was too large to fetch
whole here, so this follows those types as published): each line is
``{"timestamp": ISO, "type": T, "payload": {...}}`` with ``T`` one of

* ``session_meta``: ``payload.id``, ``payload.cwd``, ``payload.timestamp``;
* ``response_item``: ``payload.type`` ``message`` (``role``, ``content`` blocks with
  ``text``), ``function_call`` (``name``, ``arguments`` as JSON text, ``call_id``; ``shell``
  runs ``command``, a list), ``function_call_output`` (``call_id``, ``output``),
  ``custom_tool_call`` (``name == "apply_patch"``, ``input`` the patch, ``call_id``),
  ``custom_tool_call_output``, ``local_shell_call`` (``action.command``, ``call_id``);
* ``compacted``: the history was compacted; ``turn_context`` and ``event_msg`` are skipped
  (``event_msg`` repeats what ``response_item`` holds).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from ruleweave.audit.actions import actions_of, patch_actions, paths_of
from ruleweave.audit.dates import seconds
from ruleweave.audit.jsonl import text_of
from ruleweave.audit.received import rules_in
from ruleweave.audit.timeline import Received, Session

FORMAT = "codex"
_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})


def detect(objects: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a file's first objects look like a Codex rollout file."""
    return any(o.get("type") in _TYPES and isinstance(o.get("payload"), dict) for o in objects)


def read(path: str, lines: Iterable[tuple[int, dict[str, Any]]]) -> list[Session]:
    """The session a rollout file holds (one per file).

    Args:
        path: The file.
        lines: Its ``(line number, object)`` pairs.

    Returns:
        One session.
    """
    session = Session(file=path, format=FORMAT)
    compacted = acted = False
    seen: set[tuple[str, str, str | None]] = set()

    def receive(seq: int, at: float | None, text: str, how: str, call: str | None) -> None:
        for name, found_how in rules_in(text, how):
            if (name, found_how, call) not in seen:
                seen.add((name, found_how, call))
                session.received.append(Received(seq, at, name, found_how, None, call))

    for seq, line in lines:
        payload, at = line.get("payload"), seconds(line.get("timestamp"))
        if not isinstance(payload, dict):
            continue
        kind = line.get("type")
        if kind == "session_meta":
            session.id = str(payload.get("id") or session.id)
            session.cwd = str(payload.get("cwd") or session.cwd)
            session.note_time(seconds(payload.get("timestamp")) or at)
        elif kind == "compacted":
            compacted = True
        elif kind == "response_item":
            session.note_time(at)
            item = payload.get("type")
            call = str(payload.get("call_id") or payload.get("id") or "")
            if item == "message" and payload.get("role") in ("user", "developer", "system"):
                how = "compaction" if compacted and not acted else ("prompt" if acted else "start")
                receive(seq, at, text_of(payload.get("content")), how, None)
            elif item == "message":
                acted = True
            elif item in ("function_call_output", "custom_tool_call_output"):
                receive(seq, at, text_of(payload.get("output")), "tool-result", call)
            elif item in ("function_call", "custom_tool_call", "local_shell_call"):
                acted = True
                _act(session, payload, call, seq, at)
    return [session]


def _act(session: Session, payload: Mapping[str, Any], call: str, seq: int, at: float | None) -> None:
    name = str(payload.get("name") or payload.get("type"))
    if payload.get("type") == "local_shell_call":
        action = payload.get("action")
        arguments: Any = {"command": action.get("command")} if isinstance(action, dict) else {}
        name = "shell"
    elif payload.get("type") == "custom_tool_call":
        arguments = payload.get("input")
    else:
        arguments = payload.get("arguments")
        if isinstance(arguments, str) and len(arguments) <= 8 * 1024 * 1024:
            with contextlib.suppress(ValueError, RecursionError):
                arguments = json.loads(arguments)
    if name == "apply_patch":
        patch = arguments.get("input") if isinstance(arguments, dict) else arguments
        if isinstance(patch, str):
            found = patch_actions(patch, call, name, seq, at)
            session.actions.extend(found)
            session.touched.extend(a.path for a in found)
        return
    if isinstance(arguments, dict):
        session.touched.extend(paths_of(arguments))
        session.actions.extend(actions_of(name, call, arguments, seq, at))
