"""Codex CLI session logs: rollout files, ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

The shape read, as the real Codex CLI 0.171.0 writes it (tests/e2e/codex/test_audit_rollout.py runs
it against the mock Responses API): each line is ``{"timestamp": ISO, "type": T, "payload": {...}}``
with ``T`` one of

* ``session_meta``: ``payload.id``, ``payload.cwd``, ``payload.timestamp``;
* ``response_item``: ``payload.type``

  - ``message``: ``role`` (``developer``, ``user``, ``assistant``), ``content`` blocks with ``text``.
    A hook's ``additionalContext`` is a ``developer`` message of its own whose
    ``internal_chat_message_metadata_passthrough.content_item_kinds`` holds
    ``hooks.additional_context``: SessionStart's before the user's prompt, a tool hook's between the
    call and its output (PreToolUse's or PostToolUse's: the file does not say which);
  - ``function_call``: ``name``, ``arguments`` (JSON text), ``call_id``; ``exec_command`` runs
    ``cmd`` (a string; older releases' ``shell`` ran ``command``, a list);
  - ``custom_tool_call``: ``name == "apply_patch"``, ``input`` the patch, ``call_id``;
  - ``function_call_output`` / ``custom_tool_call_output``: ``call_id``, ``output`` (a PreToolUse
    refusal reads ``Command blocked by PreToolUse hook: <reason>``); ``local_shell_call``
    (``action.command``) from older releases;

* ``compacted``: the history was compacted (what follows it is after a compaction);
* ``event_msg`` (UI events repeating what ``response_item`` holds), ``turn_context``,
  ``world_state``, ``token_usage_record`` and any other type are skipped.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from ruleweave.audit.actions import actions_of, patch_actions, paths_of, reply_action
from ruleweave.audit.dates import seconds
from ruleweave.audit.jsonl import text_of
from ruleweave.audit.received import rules_in
from ruleweave.audit.timeline import Received, Session

FORMAT = "codex"
_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
_HOOK_CONTEXT = "hooks.additional_context"


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
    open_calls: list[str] = []  # calls made whose output has not come yet: a hook's context rides with them
    seen: set[tuple[str, str, str | None]] = set()

    def receive(seq: int, at: float | None, text: str, how: str, call: str | None) -> None:
        for name, found_how, cut in rules_in(text, how):
            found_how = "compaction" if found_how == "start" and compacted else found_how
            if (name, found_how, call) not in seen:
                seen.add((name, found_how, call))
                session.received.append(Received(seq, at, name, found_how, None, call, cut))

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
            compacted, acted, open_calls = True, False, []
        elif kind == "response_item":
            session.note_time(at)
            item = payload.get("type")
            call = str(payload.get("call_id") or payload.get("id") or "")
            if item == "message" and payload.get("role") in ("user", "developer", "system"):
                text = text_of(payload.get("content"))
                if open_calls and _from_hook(payload):
                    receive(seq, at, text, "tool-result", open_calls[-1])
                else:
                    how = "prompt" if acted else ("compaction" if compacted else "start")
                    receive(seq, at, text, how, None)
            elif item == "message":
                acted = True
                session.actions.extend(reply_action(text_of(payload.get("content")), seq, at))
            elif item in ("function_call_output", "custom_tool_call_output"):
                if call in open_calls:
                    open_calls.remove(call)
                receive(seq, at, text_of(payload.get("output")), "tool-result", call)
            elif item in ("function_call", "custom_tool_call", "local_shell_call"):
                acted = True
                open_calls.append(call)
                _act(session, payload, call, seq, at)
    return [session]


def _from_hook(payload: Mapping[str, Any]) -> bool:
    """Whether a message is a hook's ``additionalContext`` (Codex marks the kind of its content)."""
    meta = payload.get("internal_chat_message_metadata_passthrough")
    kinds = meta.get("content_item_kinds") if isinstance(meta, dict) else None
    return isinstance(kinds, list) and _HOOK_CONTEXT in kinds


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
