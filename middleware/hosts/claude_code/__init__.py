"""Claude Code, the first host: its declaration (``HOST``), and ``ClaudeCodeHooks`` loaded on first access.

==================  ================  =============================================
Claude Code event   kind              what ruleweave answers (``ClaudeCodeHooks``)
==================  ================  =============================================
SessionStart        session.*         the prompt contribution (``source`` says
                                      start, resume, clear or compact)
UserPromptSubmit    user.prompt       steering for the turn
PreToolUse          tool.before       a refusal (``permissionDecision: deny``); for
                                      an edit (``NOTICE_BEFORE``), the notices of
                                      the files it changes
PostToolUse         tool.after        the notices for the paths the call touched
SubagentStart       agent.start       the prompt contribution and the notices of
                                      the paths the delegated task names
Stop                stop              ``decision: block`` for a streamed rule
==================  ================  =============================================

Input keys: ``session_id``, ``cwd``, ``hook_event_name``, ``source``,
``prompt``/``prompt_id``, ``tool_name``/``tool_input``/``tool_use_id``/
``tool_response``, ``last_assistant_message``/``stop_hook_active``,
``agent_id``/``agent_type`` (subagents: their tool calls and SubagentStart). Context goes out as
``hookSpecificOutput.additionalContext``; over 10,000 characters Claude Code
replaces it by a file pointer. The warm answer comes from ``snapshot``, the
cold one from ``ClaudeCodeHooks`` over a freshly loaded rule set (which
rewrites the snapshot); the installer is ``settings``.

This module is on the hook's fast path: standard library only, no ``typing``;
the rule machinery is imported inside the functions that need it.
"""

from __future__ import annotations

from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already

import ruleweave.hosts._claude_style as claude_style
from ruleweave._lazy import lazy_exports
from ruleweave.hosts import HookEvent, Host

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from typing import Any

    from ruleweave.hosts._hook_log import HookLog
    from ruleweave.hosts._options import HookOptions
    from ruleweave.hosts.claude_code.handlers import ClaudeCodeHooks

__all__ = ["HOST", "ClaudeCodeHooks"]

__getattr__ = lazy_exports(__name__, {"ClaudeCodeHooks": "ruleweave.hosts.claude_code.handlers"})

EVENTS = claude_style.EVENTS
"""The hook events ruleweave answers → their kind, in the order the installer adds them (Claude Code's)."""

TOOLS: Mapping[str, tuple[str, ...]] = {
    "Read": ("file_path",),
    "Write": ("file_path",),
    "Edit": ("file_path",),
    "MultiEdit": ("file_path",),
    "NotebookEdit": ("notebook_path",),
    "Glob": ("path", "pattern"),  # the pattern under the path stands for the files it lists
    "Grep": ("path", "glob"),
    "Bash": ("command",),  # the words of the command line that look like paths
}
"""Claude Code's tools that touch files → the arguments that name their paths (``paths``)."""

CONTEXT_LIMIT = 10_000
"""Characters of ``additionalContext`` Claude Code shows inline (above it: a file pointer)."""

NATIVE_PROVIDER = "claude"
"""The provider whose rules Claude Code loads itself (``.claude/rules``)."""

NATIVE_FILES = frozenset({"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"})
"""Instruction files Claude Code loads itself (root and nested, with their imports)."""

NATIVE_FALLBACK = frozenset({"AGENTS.md"})
"""Instruction files Claude Code 2.1.332 loads itself only in a project with no ``NATIVE_FILES`` on the
walk up from its cwd (its built-in ``AGENTS_MD_PLUGIN``; ``native.agents_md_native``)."""

AGENTS_MD_PLUGIN = "cc-plugin-agents-md@builtin"
"""The built-in plugin that loads ``AGENTS.md`` (``enabledPlugins`` can switch it off)."""

NOTICE_BEFORE = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})
"""Tools whose notices go out with PreToolUse (then PostToolUse adds nothing for the same call)."""

DELEGATION_TOOLS = frozenset({"Agent", "Task"})
"""The tools that start a subagent (``Agent``; ``Task`` before 2.1): their task goes to SubagentStart."""


def read_event(payload: Mapping[str, Any]) -> HookEvent:
    """A Claude Code hook input as a ``HookEvent`` (a key of the wrong type reads as absent).

    Args:
        payload: The hook input, as Claude Code sends it.

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer.
    """
    return claude_style.read(payload)


def encode(event: HookEvent, reply: str, text: str) -> dict[str, Any] | None:
    """The JSON Claude Code reads for one answer to ``event``.

    Args:
        event: The event answered.
        reply: ``CONTEXT`` (any event), ``DENY`` (PreToolUse), ``BLOCK`` (Stop) or ``NOTE`` (any event:
            the top-level ``systemMessage``, which Claude Code shows the user as a warning).
        text: The context, the reason, or the note.

    Returns:
        The object to print; ``None`` for a reply Claude Code cannot take at that event.
    """
    return claude_style.encode(event, reply, text)


def answer_warm(payload: Mapping[str, Any], options: HookOptions) -> object:
    """The answer from the snapshot, or ``MISS`` (the shared engine's, ``_core.answer``)."""
    from ruleweave.hosts._core.answer import answer_warm as warm

    return warm(HOST, payload, options)


def answer_cold(
    payload: Mapping[str, Any], options: HookOptions, log: HookLog, state: str, write_snapshot: bool
) -> dict[str, Any] | None:
    """The shared engine's answer over the rules loaded now, with notices naming ``read_rule``."""
    from ruleweave.hosts._core.answer import answer_cold as cold
    from ruleweave.hosts.claude_code.read_rule import READ_RULE_TEMPLATES

    return cold(HOST, payload, options, log, state, write_snapshot, READ_RULE_TEMPLATES)


def _agents_md_native(config: Any) -> bool:
    """Whether Claude Code loads ``AGENTS.md`` itself here (``native.agents_md_native``)."""
    from ruleweave.hosts.claude_code.native import agents_md_native

    return agents_md_native(config)


def _hooks_off(config: Any) -> str | None:
    """Why Claude Code's settings run no hook here (``native.hooks_off``)."""
    from ruleweave.hosts.claude_code.native import hooks_off

    return hooks_off(config)


HOST = Host(
    name="claude-code",
    title="Claude Code",
    events=EVENTS,
    tools=TOOLS,
    native_provider=NATIVE_PROVIDER,
    native_files=NATIVE_FILES,
    native_fallback=NATIVE_FALLBACK,
    context_limit=CONTEXT_LIMIT,
    read_event=read_event,
    encode=encode,
    answer_warm=answer_warm,
    answer_cold=answer_cold,
    notice_before=NOTICE_BEFORE,
    delegation_tools=DELEGATION_TOOLS,
    extractors="ruleweave.hosts.claude_code.paths",
    native_check=_agents_md_native,
    hooks_off=_hooks_off,
    native_user=lambda config: (config.claude_managed / "CLAUDE.md", config.claude_dir / "CLAUDE.md"),
    scopes={
        "project": "<root>/.claude/settings.json",
        "local": "<root>/.claude/settings.local.json",
        "user": "$CLAUDE_CONFIG_DIR/settings.json (~/.claude)",
    },
    installer="ruleweave.hosts.claude_code.settings",
)
"""Claude Code as ruleweave serves it (``ruleweave hook claude-code``, ``ruleweave install claude-code``)."""
