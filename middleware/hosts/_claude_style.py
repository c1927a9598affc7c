"""The hook input and output Claude Code defined and Codex and Qwen Code took over: one reader, one encoder.

All three send ``hook_event_name``, ``session_id``, ``cwd``, ``source``,
``tool_name``/``tool_input``/``tool_response``, ``prompt``,
``last_assistant_message``/``stop_hook_active`` and ``agent_id``/``agent_type``, and
read ``hookSpecificOutput`` (``additionalContext``, PreToolUse's
``permissionDecision``), Stop's ``decision: block`` and ``systemMessage``. What
differs stays in each host's module: the key of the call id and of the turn id,
SessionStart's sources, and the events whose context reaches the model.

On the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

from ruleweave.hosts import (
    AFTER_TOOL,
    AGENT_START,
    BEFORE_TOOL,
    BLOCK,
    CONTEXT,
    DENY,
    NOTE,
    SESSION_CLEAR,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
    HookEvent,
    payload_cwd,
    payload_id,
    payload_kind,
    payload_mapping,
    payload_text,
)

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

EVENTS = {
    "SessionStart": SESSION_START,
    "UserPromptSubmit": USER_PROMPT,
    "PreToolUse": BEFORE_TOOL,
    "PostToolUse": AFTER_TOOL,
    "SubagentStart": AGENT_START,
    "Stop": STOP,
}
"""The hook events ruleweave answers → their kind, in the order the installer adds them."""

SOURCES = {"resume": SESSION_RESUME, "clear": SESSION_CLEAR, "compact": SESSION_COMPACT}
"""SessionStart's ``source`` → its kind (``startup``, or anything else: ``SESSION_START``)."""

TEXT_KEYS = {USER_PROMPT: "prompt", STOP: "last_assistant_message"}
"""Where an event's text is."""


def read(
    payload: Mapping[str, Any],
    *,
    sources: Mapping[str, str] = SOURCES,
    call_keys: Sequence[str] = ("tool_use_id",),
    turn_key: str = "prompt_id",
) -> HookEvent:
    """A Claude-style hook input as a ``HookEvent`` (a key of the wrong type reads as absent).

    Args:
        payload: The hook input.
        sources: SessionStart's ``source`` → its kind.
        call_keys: Where the tool call's id is, the first present one winning.
        turn_key: Where the user turn's id is.

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer.
    """
    name, kind, source = payload_kind(payload, EVENTS, sources)
    call_id = None
    for key in call_keys:
        call_id = call_id or payload_id(payload, key)
    return HookEvent(
        name,
        kind,
        payload_text(payload, "session_id"),
        cwd=payload_cwd(payload.get("cwd")),
        source=source,
        tool=payload_text(payload, "tool_name"),
        args=payload_mapping(payload, "tool_input"),
        call_id=call_id,
        result=payload.get("tool_response"),
        text=payload_text(payload, TEXT_KEYS[kind]) if kind in TEXT_KEYS else "",
        turn_id=payload_id(payload, turn_key),
        agent_id=payload_id(payload, "agent_id"),
        agent_type=payload_id(payload, "agent_type"),
        stop_active=payload.get("stop_hook_active") is True,
    )


def encode(
    event: HookEvent, reply: str, text: str, *, context_events: frozenset[str] | None = None
) -> dict[str, Any] | None:
    """The Claude-style JSON for one answer to ``event``.

    Args:
        event: The event answered.
        reply: ``CONTEXT``, ``DENY`` (PreToolUse), ``BLOCK`` (Stop) or ``NOTE`` (any event: the
            top-level ``systemMessage``, which the agent shows the user as a warning).
        text: The context, the reason, or the note.
        context_events: The events whose ``additionalContext`` reaches the model (``None``: all).

    Returns:
        The object to print; ``None`` for a reply the agent cannot take at that event.
    """
    if reply == CONTEXT and event.name is not None:
        if context_events is not None and event.name not in context_events:
            return None
        return {"hookSpecificOutput": {"hookEventName": event.name, "additionalContext": text}}
    if reply == DENY and event.kind == BEFORE_TOOL:
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": text,
            }
        }
    if reply == BLOCK and event.kind == STOP:
        return {"decision": "block", "reason": text}
    if reply == NOTE:
        return {"systemMessage": text}
    return None
