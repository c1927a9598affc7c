"""Qwen Code (``@qwen-code/qwen-code``): its declaration (``HOST``), read from its bundle and real runs.

Qwen Code forked from Gemini CLI but its hooks are Claude Code's: the same event
names, the same ``settings.json`` schema and the same ``hookSpecificOutput``
(``packages/core/src/hooks/types.ts``, 0.24.4). Facts: docs/hosts/qwen.md.

==================  ================  =============================================
Qwen Code event     kind              where the answer reaches the model
==================  ================  =============================================
SessionStart        session.*         the system prompt, in a
                                      ``<qwen:session-start-context>`` block;
                                      ``source: compact`` (after a compaction)
                                      replaces the startup one
UserPromptSubmit    user.prompt       a user message; Qwen fires it again with an
                                      empty ``prompt`` before every follow-up
                                      request of the turn, read as no event here
PreToolUse          tool.before       a deny only (its context is dropped): the
                                      reason is the tool's result
PostToolUse         tool.after        appended to the tool's result after a blank
                                      line
SubagentStart       agent.start       the subagent's first turn (``hook_context``)
Stop                stop              ``decision: block`` continues the turn
==================  ================  =============================================

Qwen escapes ``<`` and ``>`` of every ``additionalContext`` as ``&lt;``/``&gt;``.
Its PreCompact context only instructs the summariser, so compaction is
answered at SessionStart ``compact``, as for Claude Code.

This module is on the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already, so it is free

import ruleweave.hosts._claude_style as claude_style
from ruleweave.hosts import (
    SHELL_READ_TEMPLATES,
    USER_PROMPT,
    HookEvent,
    Host,
)

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from ruleweave.config import RuleweaveConfig

__all__ = ["HOST"]

EVENTS = claude_style.EVENTS
"""The hook events ruleweave answers → their kind, in the order the installer adds them (Claude Code's
names)."""

_CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit", "PostToolUse", "SubagentStart"})
"""Events whose ``additionalContext`` reaches the model (PreToolUse's is parsed and dropped)."""

TOOLS: Mapping[str, tuple[str, ...]] = {
    "read_file": ("file_path",),
    "write_file": ("file_path",),
    "edit": ("file_path",),
    "notebook_edit": ("notebook_path",),
    "list_directory": ("path",),
    "glob": ("path", "pattern"),  # the pattern under the path stands for the files it lists
    "grep_search": ("path", "glob"),
    "run_shell_command": ("command", "directory"),  # path-like words, relative ones under directory
}
"""Qwen Code's tools that touch files → the arguments that name their paths (``ToolNames``)."""

CONTEXT_LIMIT = 10_000
"""Characters one answer adds: Qwen sets no limit of its own, but truncates a tool result that with its
context passes 50,000 characters (2 × ``truncateToolOutputThreshold``)."""

NATIVE_FILES = frozenset({"QWEN.md", "AGENTS.md"})
"""Instruction files Qwen Code loads itself (``context.fileName``'s default), from cwd up to the project
root only: never one below cwd, and none just in time."""

LOCAL_FILE = ".qwen/QWEN.local.md"
"""The personal file Qwen Code loads itself from the project root, whatever ``context.fileName`` says
(``LOCAL_CONTEXT_FILENAME``)."""


def native_names(config: RuleweaveConfig) -> frozenset[str]:
    """The instruction file names Qwen Code loads itself in this project: its ``context.fileName``
    setting (from the layer that decides it: system defaults, the user's, the project's, the system
    settings; ``_layered_settings``) when it names any, else ``QWEN.md`` and ``AGENTS.md``.

    The setting replaces the default (0.24.4's ``setMemoryFilename``,
    ``packages/core/src/utils/memory-constants.ts``; an empty list keeps it). ``.qwen/QWEN.local.md``
    is loaded either way.

    Args:
        config: The configuration (project root and the user's home).

    Returns:
        The names, which the hook leaves out of the walk from the root to the cwd.
    """
    from ruleweave.hosts._layered_settings import QWEN, context_file_names

    named = context_file_names(QWEN, str(config.qwen_dir / "settings.json"),
                               str(config.root / ".qwen" / "settings.json"), str(config.root))
    return (frozenset(named) or NATIVE_FILES) | {LOCAL_FILE}


def native_user(config: RuleweaveConfig) -> tuple[Path, ...]:
    """The user-tier files Qwen Code loads itself: ``$QWEN_HOME/<name>`` (``~/.qwen``) for each of
    ``native_names`` (``getMemoryFilePathsInternalForEachDir``).

    Args:
        config: The configuration (the user's home).

    Returns:
        The paths, which the hook leaves out of the start context.
    """
    return tuple(config.qwen_dir / name for name in sorted(native_names(config) - {LOCAL_FILE}))

def distrusted(config: RuleweaveConfig) -> bool:
    """Whether Qwen Code does not trust this folder (folder trust on, and ``trustedFolders.json`` does not
    trust the cwd): it then loads none of the project's instruction files, and its hooks give none of
    the project's rules either (``ruleweave.hosts.qwen.trust``; real runs).

    Args:
        config: The configuration (the cwd and ``$QWEN_HOME``).
    """
    from ruleweave.hosts.qwen.trust import distrusts

    return distrusts(config)


DELEGATION_TOOLS = frozenset({"agent"})
"""The tool that starts a subagent: its task goes to SubagentStart (which carries no task itself)."""


def read_event(payload: Mapping[str, Any]) -> HookEvent:
    """A Qwen Code hook input as a ``HookEvent`` (a key of the wrong type reads as absent).

    A UserPromptSubmit with an empty ``prompt`` is Qwen's follow-up request within a turn, not a
    prompt: its kind is ``None``, so nothing is added to every tool round.

    Args:
        payload: The hook input, as Qwen Code sends it.

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer.
    """
    # The model's own call id first; Qwen's tool_use_id is an internal one.
    event = claude_style.read(payload, call_keys=("tool_call_id", "tool_use_id"))
    if event.kind == USER_PROMPT and not event.text:
        event.kind = None
    return event


def encode(event: HookEvent, reply: str, text: str) -> dict[str, Any] | None:
    """The JSON Qwen Code reads for one answer to ``event``.

    Args:
        event: The event answered.
        reply: ``CONTEXT`` (SessionStart, UserPromptSubmit, PostToolUse, SubagentStart), ``DENY``
            (PreToolUse), ``BLOCK`` (Stop) or ``NOTE`` (any event: ``systemMessage``, shown to the user).
        text: The context, the reason, or the note.

    Returns:
        The object to print; ``None`` for a reply Qwen Code cannot take at that event.
    """
    return claude_style.encode(event, reply, text, context_events=_CONTEXT_EVENTS)


def _hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Qwen Code's own settings run none of ruleweave's hooks here (``install.hooks_off``)."""
    from ruleweave.hosts.qwen.install import hooks_off

    return hooks_off(config)


HOST = Host(
    name="qwen",
    title="Qwen Code",
    events=EVENTS,
    tools=TOOLS,
    native_provider="qwen",  # $QWEN_HOME/rules and <root>/.qwen/rules: Qwen injects them itself
    native_files=NATIVE_FILES,  # the default of native_names
    native_names=native_names,
    native_walk_only=True,  # QWEN.md and AGENTS.md from the cwd up only, never below (FACTS, real runs)
    native_user=native_user,
    distrusted=distrusted,
    context_limit=CONTEXT_LIMIT,
    read_event=read_event,
    encode=encode,
    delegation_tools=DELEGATION_TOOLS,
    extractors="ruleweave.hosts.qwen.paths",
    scopes={"project": "<cwd>/.qwen/settings.json", "user": "$QWEN_HOME/settings.json (~/.qwen)"},
    installer="ruleweave.hosts.qwen.install",
    hooks_off=_hooks_off,
    read_rule_templates=SHELL_READ_TEMPLATES,  # no rule:// reader, but a shell
)
"""Qwen Code as ruleweave serves it (``ruleweave hook qwen``, ``ruleweave install qwen``)."""
