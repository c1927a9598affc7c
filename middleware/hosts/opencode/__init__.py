"""OpenCode (``opencode-ai``): its declaration (``HOST``), read from its binary and real runs.

OpenCode has no command hooks: it loads JavaScript plugins. ``ruleweave install
opencode`` writes one (``.opencode/plugins/ruleweave.js``, ``install``) that hands
each plugin hook to ``ruleweave hook opencode`` as one JSON object on stdin (the
plugin's normalised event, below) and applies the JSON answer. Facts:
docs/hosts/opencode.md.

=================================  ==============  ===========================================
plugin event (``event``)           kind            what the plugin does with the answer
=================================  ==============  ===========================================
session.start (the first           session.start   ``context`` joins the session's system
``experimental.chat.system.                        prompt (every later request of the session)
transform`` of a session)
chat.message                       user.prompt     ``context`` (steering) joins the system
                                                   prompt until the next prompt
tool.execute.before                tool.before     ``deny``: thrown as an Error, whose message
                                                   is the tool's result
tool.execute.after                 tool.after      ``context`` appended to the tool's output
experimental.session.compacting    session.compact ``context`` replaces the start context in
                                                   the system prompt (notices re-armed)
=================================  ==============  ===========================================

Input keys (all the plugin sends): ``event``, ``session_id``, ``cwd`` (the plugin's
``directory``), and per event ``tool``, ``call_id``, ``args`` (tool events), ``output``
(``tool.execute.after``: the tool's output text), ``prompt``, ``message_id`` and ``agent``
(``chat.message``). Output: ``{"context": text}``, ``{"deny": reason}``, and ``{"note": text}``
(written to OpenCode's log), or nothing.

This module is on the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already, so it is free

from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    CONTEXT,
    DENY,
    NOTE,
    SESSION_COMPACT,
    SESSION_START,
    SHELL_READ_TEMPLATES,
    USER_PROMPT,
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

EVENTS = {
    "session.start": SESSION_START,
    "chat.message": USER_PROMPT,
    "tool.execute.before": BEFORE_TOOL,
    "tool.execute.after": AFTER_TOOL,
    "experimental.session.compacting": SESSION_COMPACT,
}
"""The plugin's events → their kind (``session.start`` is the plugin's own: the first system-prompt
transform of a session)."""

_CONTEXT_EVENTS = frozenset(
    {"session.start", "chat.message", "tool.execute.after", "experimental.session.compacting"}
)
"""Events whose ``context`` the plugin delivers."""

TOOLS: Mapping[str, tuple[str, ...]] = {
    "read": ("filePath",),
    "write": ("filePath",),
    "edit": ("filePath",),
    "apply_patch": ("patchText",),  # the files its patch text names (``paths``)
    "glob": ("path", "pattern"),  # the pattern under the path stands for the files it lists
    "grep": ("path", "include"),
    "bash": ("command", "workdir"),  # path-like words, relative ones under workdir
}
"""OpenCode's tools that touch files → the arguments that name their paths (1.18.33's tool list)."""

CONTEXT_LIMIT = 16_000
"""Characters one answer adds. OpenCode cuts neither the system prompt nor a plugin's addition to a tool's
output (its own 50 KB / 2,000-line cut runs inside the tool, before the plugin): the limit keeps one tool
result's addition bounded while a usual start context fits the system prompt whole."""

NATIVE_PROVIDER = "opencode"
"""The provider whose rules OpenCode loads itself (``instructions`` in ``opencode.json``)."""

NATIVE_FILES = frozenset({"AGENTS.md", "CONTEXT.md"})
"""Instruction files OpenCode loads itself: from the cwd up to the worktree root into the system prompt,
and below the cwd just in time, appended to a ``read`` of a file under them. (``CONTEXT.md`` only where no
``AGENTS.md`` or ``CLAUDE.md`` is found: rare enough to count as read.)"""

NATIVE_FALLBACK = frozenset({"CLAUDE.md"})
"""Read by OpenCode only where no ``AGENTS.md`` is on the walk from the cwd up
(``native.claude_md_native``)."""


def read_event(payload: Mapping[str, Any]) -> HookEvent:
    """The plugin's event as a ``HookEvent`` (a key of the wrong type reads as absent).

    Args:
        payload: The JSON object the ruleweave plugin sends (see the module docstring).

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer.
    """
    name = payload.get("event")
    name = name if isinstance(name, str) else None
    kind = EVENTS.get(name) if name is not None else None
    return HookEvent(
        name,
        kind,
        payload_text(payload, "session_id"),
        cwd=payload_cwd(payload.get("cwd")),
        source="compact" if kind == SESSION_COMPACT else None,
        tool=payload_text(payload, "tool"),
        args=payload_mapping(payload, "args"),
        call_id=payload_id(payload, "call_id"),
        result=payload.get("output"),
        text=payload_text(payload, "prompt") if kind == USER_PROMPT else "",
        turn_id=payload_id(payload, "message_id") if kind == USER_PROMPT else None,
    )


def encode(event: HookEvent, reply: str, text: str) -> dict[str, Any] | None:
    """The JSON the ruleweave plugin reads for one answer to ``event``.

    Args:
        event: The event answered.
        reply: ``CONTEXT`` (session.start, chat.message, tool.execute.after, compacting), ``DENY``
            (tool.execute.before) or ``NOTE`` (any event: written to OpenCode's log).
        text: The context, the reason, or the note.

    Returns:
        The object to print; ``None`` for a reply the plugin cannot deliver at that event (there is no
        hook that can keep the model going, so never ``BLOCK``).
    """
    if reply == CONTEXT and event.name in _CONTEXT_EVENTS:
        return {"context": text}
    if reply == DENY and event.kind == BEFORE_TOOL:
        return {"deny": text}
    if reply == NOTE:
        return {"note": text}
    return None


def _claude_md_native(config: Any) -> bool:
    """Whether OpenCode loads ``CLAUDE.md`` itself here (``native.claude_md_native``)."""
    from ruleweave.hosts.opencode.native import claude_md_native

    return claude_md_native(config)


def _native_user(config: Any) -> Any:
    from ruleweave.hosts.opencode.native import user_files

    return user_files(config)


HOST = Host(
    name="opencode",
    title="OpenCode",
    events=EVENTS,
    tools=TOOLS,
    native_provider=NATIVE_PROVIDER,
    native_files=NATIVE_FILES,
    native_fallback=NATIVE_FALLBACK,
    native_check=_claude_md_native,
    native_user=_native_user,
    context_limit=CONTEXT_LIMIT,
    read_event=read_event,
    encode=encode,
    extractors="ruleweave.hosts.opencode.paths",
    scopes={
        "project": "<root>/.opencode/plugins/ruleweave.js",
        "user": "$XDG_CONFIG_HOME/opencode/plugins/ruleweave.js (~/.config/opencode)",
    },
    installer="ruleweave.hosts.opencode.install",
    read_rule_templates=SHELL_READ_TEMPLATES,  # no rule:// reader, but a shell
)
"""OpenCode as ruleweave serves it (``ruleweave hook opencode``, ``ruleweave install opencode``)."""
