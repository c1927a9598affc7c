"""Cline CLI (``cline``): its declaration (``HOST``), verified against the 3.0.65 binary and real runs.

Cline 3.x runs hook *files* (``<dir>/PreToolUse``, ``<dir>/PostToolUse``, …) from
``~/.cline/hooks``, ``~/Documents/Cline/Hooks`` and the git root's
``.clinerules/hooks`` and ``.cline/hooks``, with the payload on stdin. Only two
of its events are awaited, so only they can add context (docs/hosts/cline.md):

===========  ============  ===================================================
Cline file   kind          what ruleweave answers (the shared engine)
===========  ============  ===================================================
TaskStart    session.start nothing Cline reads (it runs detached): the start
                           context waits in the session's queue and goes out
                           with the next PostToolUse, once per session
PreToolUse   tool.before   a refusal: the call's input replaced by one every
                           built-in tool rejects, and the reason as context
PostToolUse  tool.after    the notices for the paths the call touched
===========  ============  ===================================================

UserPromptSubmit runs detached too (steering has nowhere to go) and PreCompact
is never run by 3.0.65, so ruleweave installs neither.

Input keys: ``hookName`` (``tool_call``/``tool_result``), ``sessionContext.rootSessionId``,
``taskId``, ``workspaceRoots`` (the git root, not the cwd), ``agent_id``/``parent_agent_id``,
``tool_call{id, name, input}`` or ``tool_result{id, name, input, output, error}``
(``preToolUse``/``postToolUse`` repeat them with every argument JSON-encoded as a string).
There is no ``cwd``: Cline starts the hook in the session's cwd, which is what the
model's relative paths resolve against, so the hook's own working directory is the cwd.
Every ``contextModification`` of one model turn reaches the model as one separate user
message after the tool results, each in a ``<hook_context source=… tool_call_id=…>``
block, never inside a tool result.

This module is on the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

import os
from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already

from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    CONTEXT,
    DENY,
    SESSION_START,
    SHELL_READ_TEMPLATES,
    HookEvent,
    Host,
    payload_cwd,
    payload_id,
    payload_mapping,
    payload_text,
)

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from typing import Any

__all__ = ["HOST"]

EVENTS = {"TaskStart": SESSION_START, "PreToolUse": BEFORE_TOOL, "PostToolUse": AFTER_TOOL}
"""The hook files ruleweave installs → their kind, in the order the installer adds them."""

_NAMES = {"agent_start": "TaskStart", "tool_call": "PreToolUse", "tool_result": "PostToolUse"}
"""The payload's ``hookName`` → the hook file's name (``HOOK_CONFIG_FILE_EVENT_MAP``)."""

_CALL_KEYS = {"tool_call": "tool_call", "tool_result": "tool_result"}
"""Where each event's structured call is (``postToolUse.parameters`` holds JSON strings)."""

TOOLS: Mapping[str, tuple[str, ...]] = {
    "read_files": ("files", "file_paths", "paths", "path", "file_path", "filePath"),
    "editor": ("path",),
    "apply_patch": ("input",),  # the patch text: its *** Add/Update/Delete File: lines
    "run_commands": ("commands", "command", "cmd"),  # path-like words of each command
}
"""Cline's tools that touch files → the arguments that name their paths. ``apply_patch`` replaces
``editor`` for GPT and Codex models. ``search_codebase`` takes regexes only (no path)."""

_MAIN_KEY = {"read_files": "files", "run_commands": "commands", "apply_patch": "input"}
"""Where a tool's input that is not an object belongs (Cline accepts a bare list or string)."""

REJECTING_TOOLS = frozenset({
    "read_files", "editor", "apply_patch", "run_commands", "search_codebase", "fetch_web_content",
})
"""Built-in tools whose input schema every variant of requires a key ``REFUSED_INPUT`` lacks, so
they fail before doing anything (``@cline/core`` re-parses the input in ``execute``)."""

REFUSED_INPUT_KEY = "ruleweave_refused"
"""The only key of the input a refused call runs with."""

CONTEXT_LIMIT = 10_000
"""Characters one answer adds. Cline cuts a hook's context at 50,000 characters
(``MAX_HOOK_CONTEXT_SIZE``) and sets no other limit; the rest waits for the next answer."""

NATIVE_FILES = frozenset({"AGENTS.md"})
"""Instruction files Cline loads itself: ``AGENTS.md`` in its cwd (and ``~/.agents/AGENTS.md``),
never one above or below it. ``.clinerules`` and ``.cline/rules`` are the ``cline`` provider's."""


def _cwd(payload: Mapping[str, Any]) -> str | None:
    """The session's cwd: this process's (Cline starts hooks there), else the workspace root."""
    try:
        return os.getcwd()
    except OSError:  # the directory is gone: the workspace root is the best guess
        roots = payload.get("workspaceRoots")
        return payload_cwd(roots[0] if isinstance(roots, list) and roots else None)


def _args(tool: str, value: Any) -> Mapping[str, Any]:
    if isinstance(value, Mapping):
        return value
    key = _MAIN_KEY.get(tool)
    return {key: value} if key is not None and isinstance(value, (str, list)) else {}


def read_event(payload: Mapping[str, Any]) -> HookEvent:
    """A Cline hook input as a ``HookEvent`` (a key of the wrong type reads as absent).

    Args:
        payload: The hook input, as Cline sends it on stdin.

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer. Its ``cwd`` is
        this process's working directory (see the module docstring).
    """
    hook = payload_text(payload, "hookName")
    name = _NAMES.get(hook)
    session = payload_id(payload_mapping(payload, "sessionContext"), "rootSessionId")
    call = payload_mapping(payload, _CALL_KEYS.get(hook, ""))
    tool = payload_text(call, "name")
    result: Any = None
    if hook == "tool_result":
        error = call.get("error")
        result = error if isinstance(error, str) and error else call.get("output")
    return HookEvent(
        name,
        EVENTS.get(name) if name is not None else None,
        session or payload_text(payload, "taskId"),
        cwd=_cwd(payload),
        tool=tool,
        args=_args(tool, call.get("input")),
        call_id=payload_id(call, "id"),
        result=result,
        # The main agent's agent_id changes with every run of a session; only a subagent's counts.
        agent_id=payload_id(payload, "agent_id") if payload_id(payload, "parent_agent_id") else None,
    )


def encode(event: HookEvent, reply: str, text: str) -> dict[str, Any] | None:
    """The JSON Cline reads for one answer to ``event``.

    Args:
        event: The event answered.
        reply: ``CONTEXT`` (PreToolUse, PostToolUse) or ``DENY`` (PreToolUse). Cline has no
            streamed-reply event (``BLOCK``) and no message for the user (``NOTE``).
        text: The context or the reason.

    Returns:
        The object to print; ``None`` for a reply Cline cannot take at that event. A refusal of a
        built-in tool replaces its input by ``{"ruleweave_refused": reason}``, which it rejects
        without running, and gives the reason as context; any other tool (MCP, plugins) may accept
        that input, so its refusal is ``cancel``, which ends the whole task.
    """
    if event.name not in EVENTS:
        return None
    if reply == CONTEXT and event.name != "TaskStart":  # detached: its output is never read
        return {"contextModification": text}
    if reply == DENY and event.name == "PreToolUse":
        reason = text if text.strip() else "ruleweave refused this call."
        if event.tool in REJECTING_TOOLS:
            return {"overrideInput": {REFUSED_INPUT_KEY: reason}, "contextModification": reason}
        return {"cancel": True, "errorMessage": reason}
    return None


HOST = Host(
    name="cline",
    title="Cline",
    events=EVENTS,
    tools=TOOLS,
    native_provider="cline",
    native_files=NATIVE_FILES,
    native_walk_only=True,
    context_limit=CONTEXT_LIMIT,
    read_event=read_event,
    encode=encode,
    extractors="ruleweave.hosts.cline.paths",
    scopes={
        "project": "<root>/.cline/hooks/PreToolUse, PostToolUse",
        "user": "$CLINE_DIR/hooks/PreToolUse, PostToolUse (~/.cline)",
    },
    installer="ruleweave.hosts.cline.install",
    read_rule_templates=SHELL_READ_TEMPLATES,  # no rule:// reader, but a shell
)
"""Cline as ruleweave serves it (``ruleweave hook cline``, ``ruleweave install cline``)."""
