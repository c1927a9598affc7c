"""Claude Code session transcripts: ``~/.claude/projects/<project>/<session id>.jsonl``.

The shape relied on (seen in transcripts the bundled CLI 2.1.332 writes, tests/audit):
every conversation line has ``type``, ``sessionId``, ``timestamp``, ``cwd``;

* ``assistant``: ``message.content`` blocks, ``tool_use`` ones with ``id``, ``name``, ``input``,
  ``text`` ones (the reply a streamed rule watching ``text`` checks);
* ``user``: ``message.content``, a string or blocks (``text``, ``tool_result`` with
  ``tool_use_id`` and ``content``);
* ``attachment``: ``attachment.type == "hook_additional_context"`` with ``hookEvent``,
  ``hookName``, ``toolUseID`` and ``content`` (a list of the hooks' texts); ``hook_success``
  names the hook (``SessionStart:compact`` after a compaction);
* ``system`` with ``subtype == "compact_boundary"``: the conversation was compacted.

A hook's refusal reaches the model in the ``tool_result`` of the call it refused
(``PreToolUse:Write hook error: …``, ``is_error``); a Stop hook's block as a ``user`` message
``Stop hook feedback:\n…`` (both seen with 2.1.332).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ruleweave.audit.actions import actions_of, paths_of, reply_action
from ruleweave.audit.dates import seconds
from ruleweave.audit.jsonl import text_of
from ruleweave.audit.received import HOOK_HOW, hook_event_in, rules_in
from ruleweave.audit.timeline import Received, Session

FORMAT = "claude-code"
_TYPES = frozenset({"user", "assistant", "attachment", "system", "summary", "queue-operation"})
_READ_RULE = ("read_rule", "ReadMcpResourceTool")


def detect(objects: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a file's first objects look like a Claude Code transcript."""
    return any(o.get("type") in _TYPES and isinstance(o.get("sessionId"), str) for o in objects)


def read(path: str, lines: Iterable[tuple[int, dict[str, Any]]]) -> list[Session]:
    """The session a transcript holds (one per file).

    Args:
        path: The file.
        lines: Its ``(line number, object)`` pairs (``jsonl.LineReader.objects``).

    Returns:
        One session.
    """
    session = Session(file=path, format=FORMAT)
    tools: dict[str, str] = {}
    compacted = False
    seen: set[tuple[str, str, str | None]] = set()

    def receive(
        seq: int, at: float | None, text: str, how: str, event: str | None, call: str | None
    ) -> None:
        for name, found_how, cut in rules_in(text, how):
            found_how = "compaction" if found_how == "start" and compacted else found_how
            key = (name, found_how, call)
            if key not in seen:
                seen.add(key)
                session.received.append(Received(seq, at, name, found_how, event, call, cut))

    for seq, line in lines:
        kind = line.get("type")
        at = seconds(line.get("timestamp"))
        if not session.id and isinstance(line.get("sessionId"), str):
            session.id = line["sessionId"]
        if not session.cwd and isinstance(line.get("cwd"), str):
            session.cwd = line["cwd"]
        if kind in ("user", "assistant", "attachment"):
            session.note_time(at)
        if kind == "system" and line.get("subtype") == "compact_boundary":
            compacted = True
        elif kind == "attachment" and isinstance(attachment := line.get("attachment"), dict):
            hook = attachment.get("hookName")
            if attachment.get("type") == "hook_success" and hook == "SessionStart:compact":
                compacted = True
            if attachment.get("type") != "hook_additional_context":
                continue
            event = str(attachment.get("hookEvent") or "") or None
            how = HOOK_HOW.get(event or "", "other")
            call = attachment.get("toolUseID")
            call = call if isinstance(call, str) and call != event else None
            receive(seq, at, text_of(attachment.get("content")), how, event, call)
        elif kind == "assistant" and isinstance(message := line.get("message"), dict):
            for block in _blocks(message.get("content")):
                if block.get("type") == "text" and isinstance(block.get("text"), str):
                    session.actions.extend(reply_action(block["text"], seq, at))
                if block.get("type") != "tool_use" or not isinstance(block.get("input"), dict):
                    continue
                name, call, tool_input = str(block.get("name")), str(block.get("id")), block["input"]
                tools[call] = name
                session.touched.extend(paths_of(tool_input))
                session.actions.extend(actions_of(name, call, tool_input, seq, at))
        elif kind == "user" and isinstance(message := line.get("message"), dict):
            content = message.get("content")
            if isinstance(content, str):
                receive(seq, at, content, _how_of(content, "other"), hook_event_in(content), None)
                continue
            for block in _blocks(content):
                result = block.get("type") == "tool_result"
                text = text_of(block.get("content") if result else block.get("text"))
                if result:
                    call = str(block.get("tool_use_id"))
                    default = "read-rule" if tools.get(call, "").endswith(_READ_RULE) else "tool-result"
                    receive(seq, at, text, _how_of(text, default), hook_event_in(text), call)
                else:
                    receive(seq, at, text, _how_of(text, "other"), hook_event_in(text), None)
    return [session]


def _how_of(text: str, default: str) -> str:
    event = hook_event_in(text)
    if event is not None:
        return HOOK_HOW.get(event, default)
    return "stop" if "Stop hook feedback" in text else default


def _blocks(content: Any) -> list[dict[str, Any]]:
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
