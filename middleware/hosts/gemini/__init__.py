"""Gemini CLI (``@google/gemini-cli``): its declaration (``HOST``), verified against 0.61.0 and real runs.

==============  ================  ==================================================
Gemini event    kind              where the answer reaches the model
==============  ================  ==================================================
SessionStart    session.*         the prompt contribution, prepended to the first
                                  prompt (headless) or the first history turn
                                  (``source``: startup, resume, clear)
BeforeAgent     user.prompt       steering: a ``<hook_context>`` part after the
                                  user's prompt
BeforeTool      tool.before       a refusal (``decision: deny``): the tool's
                                  result is ``Tool execution blocked: <reason>``
AfterTool       tool.after        the notices, appended to the tool's result as
                                  ``<hook_context>…</hook_context>``
AfterModel      chunk             one streamed chunk of the reply: ``decision:
                                  deny`` stops the reply and keeps it out of the
                                  history (the reason is shown to the user only)
AfterAgent      stop              ``decision: deny``: the reason is sent to the
                                  model as a new prompt, and it answers again
PreCompress     session.precompact  ``/compress`` (``trigger: manual``): the
                                  notices re-armed; its answer is ignored
==============  ================  ==================================================

Input keys: ``session_id``, ``cwd``, ``hook_event_name``, ``source``, ``prompt``,
``tool_name``/``tool_input``/``tool_response``, ``llm_response`` (AfterModel: the
chunk; ``llm_request`` carries the whole conversation and is not read),
``prompt_response``/``stop_hook_active``, ``trigger``. No tool-call id, no agent
id (a subagent's events carry its parent's ``session_id``), no prompt id. Gemini
escapes ``<`` and ``>`` of every ``additionalContext`` as ``&lt;``/``&gt;``.
PreCompress with ``trigger: auto`` fires before every model request whether or
not it compresses, so only ``manual`` is read as compaction (the installer's
matcher runs the hook for ``manual`` alone). Facts:
docs/hosts/gemini.md.

This module is on the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already, so it is free

from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    BLOCK,
    CHUNK,
    CONTEXT,
    DENY,
    NOTE,
    PRE_COMPACT,
    SESSION_CLEAR,
    SESSION_RESUME,
    SESSION_START,
    SHELL_READ_TEMPLATES,
    STOP,
    USER_PROMPT,
    HookEvent,
    Host,
    payload_cwd,
    payload_kind,
    payload_mapping,
    payload_text,
)

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from ruleweave.config import RuleweaveConfig

__all__ = ["HOST"]

EVENTS = {
    "SessionStart": SESSION_START,
    "BeforeAgent": USER_PROMPT,
    "BeforeTool": BEFORE_TOOL,
    "AfterTool": AFTER_TOOL,
    "AfterModel": CHUNK,
    "AfterAgent": STOP,
    "PreCompress": PRE_COMPACT,
}
"""The hook events ruleweave answers → their kind, in the order the installer adds them."""

_SOURCES = {"resume": SESSION_RESUME, "clear": SESSION_CLEAR}
"""SessionStart's ``source`` → its kind (``startup``, or anything else: ``SESSION_START``)."""

_TEXT_KEYS = {USER_PROMPT: "prompt", STOP: "prompt_response"}
"""Where an event's text is (AfterModel's is in ``llm_response``)."""

CONTEXT_EVENTS = frozenset({"SessionStart", "BeforeAgent", "AfterTool"})
"""Events whose ``hookSpecificOutput.additionalContext`` Gemini CLI adds to the conversation."""

MANUAL = "manual"
"""PreCompress's ``trigger`` for ``/compress``; ``auto`` comes before every model request."""

TOOLS: Mapping[str, tuple[str, ...]] = {
    "read_file": ("file_path",),
    "write_file": ("file_path",),
    "replace": ("file_path",),
    "list_directory": ("dir_path",),
    "read_many_files": ("include",),  # paths and globs under the cwd
    "glob": ("dir_path", "pattern"),  # the pattern under the directory stands for the files it lists
    "grep_search": ("dir_path", "include_pattern"),
    "run_shell_command": ("command", "dir_path"),  # path-like words, relative ones under dir_path
}
"""Gemini CLI's tools that touch files → the arguments that name their paths (``tool-names.ts``)."""

CONTEXT_LIMIT = 10_000
"""Characters one answer adds: Gemini sets no limit of its own, but cuts a shell or MCP tool result that
with its context passes ``tools.truncateToolOutputThreshold`` (40,000 characters)."""

NATIVE_FILES = frozenset({"GEMINI.md"})
"""Instruction files Gemini CLI loads itself (``context.fileName``'s default): in ``~/.gemini/``, from the
cwd up to the git root at start, and just in time on the walk up from every path its file tools touch."""


def native_names(config: RuleweaveConfig) -> frozenset[str]:
    """The instruction file names Gemini CLI loads itself in this project: ``GEMINI.md`` and each name of
    its ``context.fileName`` setting (from the layer that decides it: system defaults, the user's, the
    project's, the system settings; ``_layered_settings``).

    The setting adds to ``GEMINI.md`` rather than replacing it: 0.61.0's ``setGeminiMdFilename``
    (``packages/core/src/tools/memoryTool.ts``) puts the current names (``GEMINI.md`` at start) after the
    new ones, and a real run with ``["AGENTS.md", "CONTEXT.md"]`` loaded all three.

    Args:
        config: The configuration (project root and the user's home).

    Returns:
        The names, which the hook leaves out wherever they are.
    """
    from ruleweave.hosts._layered_settings import GEMINI, context_file_names

    named = context_file_names(GEMINI, str(config.gemini_dir / "settings.json"),
                               str(config.root / ".gemini" / "settings.json"), str(config.root))
    return NATIVE_FILES | frozenset(named)


def native_user(config: RuleweaveConfig) -> tuple[Path, ...]:
    """The user-tier files Gemini CLI loads itself: ``$GEMINI_CLI_HOME/.gemini/<name>`` (``~/.gemini``)
    for each of ``native_names`` (``getGlobalMemoryPaths``).

    Args:
        config: The configuration (the user's home).

    Returns:
        The paths, which the hook leaves out of the start context.
    """
    return tuple(config.gemini_dir / name for name in sorted(native_names(config)))


def _chunk(payload: Mapping[str, Any]) -> tuple[str, str | None, str | None]:
    """AfterModel's chunk: its text, its finish reason (``None`` before the reply's last chunk), and a
    key naming the reply (the request's message count and the last message's length: the same for every
    chunk of one reply; Gemini sends no response id)."""
    response = payload_mapping(payload, "llm_response")
    text = response.get("text")
    candidates = response.get("candidates")
    first = candidates[0] if isinstance(candidates, list) and candidates else None
    first = first if isinstance(first, Mapping) else {}
    if not isinstance(text, str):
        content = first.get("content")
        parts = content.get("parts") if isinstance(content, Mapping) else None
        text = "".join(p for p in parts if isinstance(p, str)) if isinstance(parts, list) else ""
    finish = first.get("finishReason")
    request = payload.get("llm_request")
    messages = request.get("messages") if isinstance(request, Mapping) else None
    reply = None
    if isinstance(messages, list) and messages:
        last = messages[-1]
        content = last.get("content") if isinstance(last, Mapping) else None
        reply = f"{len(messages)}:{len(content) if isinstance(content, str) else 0}"
    return text, finish if isinstance(finish, str) and finish else None, reply


def read_event(payload: Mapping[str, Any]) -> HookEvent:
    """A Gemini CLI hook input as a ``HookEvent`` (a key of the wrong type reads as absent).

    AfterModel's ``text`` is the chunk's own text (a delta), its ``result`` the finish reason on the
    reply's last chunk, its ``turn_id`` a key naming the reply. PreCompress is compaction only with
    ``trigger: manual``; ``auto`` reads as no event.

    Args:
        payload: The hook input, as Gemini CLI sends it.

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer.
    """
    name, kind, source = payload_kind(payload, EVENTS, _SOURCES)
    if kind == PRE_COMPACT and payload.get("trigger") != MANUAL:
        kind = None
    result = payload.get("tool_response")
    text = payload_text(payload, _TEXT_KEYS[kind]) if kind in _TEXT_KEYS else ""
    turn_id = None
    if kind == CHUNK:
        text, result, turn_id = _chunk(payload)
    return HookEvent(
        name,
        kind,
        payload_text(payload, "session_id"),
        cwd=payload_cwd(payload.get("cwd")),
        source=source,
        tool=payload_text(payload, "tool_name"),
        args=payload_mapping(payload, "tool_input"),
        result=result,
        text=text,
        turn_id=turn_id,
        stop_active=payload.get("stop_hook_active") is True,
    )


def encode(event: HookEvent, reply: str, text: str) -> dict[str, Any] | None:
    """The JSON Gemini CLI reads for one answer to ``event``.

    Args:
        event: The event answered.
        reply: ``CONTEXT`` (SessionStart, BeforeAgent, AfterTool), ``DENY`` (BeforeTool), ``BLOCK``
            (AfterAgent: the text becomes the model's next prompt; AfterModel: the reply stops and
            leaves the history, the text is shown to the user) or ``NOTE`` (any event:
            ``systemMessage``, shown to the user).
        text: The context, the reason, or the note.

    Returns:
        The object to print; ``None`` for a reply Gemini CLI cannot take at that event.
    """
    if reply == CONTEXT and event.name in CONTEXT_EVENTS:
        return {"hookSpecificOutput": {"hookEventName": event.name, "additionalContext": text}}
    if (reply == DENY and event.kind == BEFORE_TOOL) or (reply == BLOCK and event.kind in (STOP, CHUNK)):
        return {"decision": "deny", "reason": text}
    if reply == NOTE:
        return {"systemMessage": text}
    return None


def _hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Gemini CLI's own settings run none of ruleweave's hooks here (``install.hooks_off``)."""
    from ruleweave.hosts.gemini.install import hooks_off

    return hooks_off(config)


HOST = Host(
    name="gemini",
    title="Gemini CLI",
    events=EVENTS,
    tools=TOOLS,
    native_provider=None,  # GEMINI.md is an instruction file; .gemini/styleguide.md is not read by the CLI
    native_files=NATIVE_FILES,  # the default of native_names
    native_names=native_names,
    native_user=native_user,
    context_limit=CONTEXT_LIMIT,
    read_event=read_event,
    encode=encode,
    extractors="ruleweave.hosts.gemini.paths",
    scopes={"project": "<root>/.gemini/settings.json", "user": "$GEMINI_CLI_HOME/.gemini/settings.json (~)"},
    installer="ruleweave.hosts.gemini.install",
    hooks_off=_hooks_off,
    read_rule_templates=SHELL_READ_TEMPLATES,  # no rule:// reader, but a shell
)
"""Gemini CLI as ruleweave serves it (``ruleweave hook gemini``, ``ruleweave install gemini``)."""
