"""Codex CLI (``@openai/codex``): its declaration (``HOST``), verified against the 0.171.0 binary.

=================  ===============  ==============================================
Codex event        kind             what ruleweave answers (the shared engine)
=================  ===============  ==============================================
SessionStart       session.*        the prompt contribution (``source``: startup,
                                    resume, clear, compact, fork); ``compact``
                                    re-arms the notices
UserPromptSubmit   user.prompt      steering for the turn
PreToolUse         tool.before      a refusal (``permissionDecision: deny``)
PostToolUse        tool.after       the notices for the paths the call touched
SubagentStart      agent.start      the prompt contribution of a subagent
Stop               stop             ``decision: block`` for a streamed rule
=================  ===============  ==============================================

Input keys: ``session_id``, ``turn_id``, ``cwd``, ``hook_event_name``, ``source``,
``prompt``, ``tool_name``/``tool_input``/``tool_use_id``/``tool_response``,
``last_assistant_message``/``stop_hook_active``, ``agent_id``/``agent_type``.
The shell arrives as ``Bash`` with ``tool_input.command`` (never the call's
``workdir``), a patch as ``apply_patch`` with the patch text under
``tool_input.command``, ``view_image`` with ``tool_input.path``. Each
``hookSpecificOutput.additionalContext`` becomes its own developer message,
next to the call (before its output), never inside the tool result; over
2,500 approximate tokens (bytes / 4) Codex cuts it to a preview and saves the
whole text to a file. PreCompact and PostCompact cannot add context: after a
compaction Codex runs SessionStart with ``source: compact``, which can.

This module is on the hook's fast path: standard library only, no ``typing``.
"""

from __future__ import annotations

from _collections_abc import Mapping  # what collections.abc re-exports; os loaded it already

import ruleweave.hosts._claude_style as claude_style
from ruleweave.hosts import (
    BLOCK,
    DENY,
    SESSION_RESUME,
    SHELL_READ_TEMPLATES,
    HookEvent,
    Host,
)

TYPE_CHECKING = False  # not typing's: see above
if TYPE_CHECKING:
    from typing import Any

    from ruleweave.config import RuleweaveConfig

__all__ = ["HOST"]

EVENTS = claude_style.EVENTS
"""The hook events ruleweave answers → their kind, in the order the installer adds them (Claude Code's
names)."""

CONTEXT_EVENTS = frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart"})
"""The events whose output schema has ``hookSpecificOutput.additionalContext`` (0.171.0's embedded
``*.command.output`` schemas; PreCompact, PostCompact, Stop and SubagentStop have none)."""

_SOURCES = {**claude_style.SOURCES, "fork": SESSION_RESUME}
"""SessionStart's ``source`` → its kind (``startup``, or anything else: ``SESSION_START``). A fork
carries its parent's history, the earlier start context included, as a resume does."""

TOOLS: Mapping[str, tuple[str, ...]] = {
    "Bash": ("command",),  # exec_command / shell: the words of the command line that look like paths
    "apply_patch": ("command",),  # the patch text: its *** Add/Update/Delete File: lines
}
"""Codex's tools that touch files (as its hooks name them) → the arguments that name their paths.
There is no read, list or search tool: the model reads with the shell (``cat``, ``sed -n``, ``rg``).
``view_image`` (``path``) and MCP tools (``mcp__<server>__<tool>``) are read by the default extractor."""

CONTEXT_LIMIT = 9_600
"""UTF-8 bytes of one answer's context (``context_unit="utf8"``). Codex keeps ``additionalContext``
whole up to 2,500 approximate tokens, counted as UTF-8 bytes / 4 (``hooks/src/output_spill.rs``), i.e.
10,000 bytes; above that the model gets a preview and a file path (real run: a 12.9 KB context arrived as
10,106 bytes). Counted in bytes, text in any script stays whole; the margin is for the JSON escaping."""

NATIVE_FILES = frozenset({"AGENTS.override.md", "AGENTS.md"})
"""Instruction files Codex loads itself: ``AGENTS.override.md``, else ``AGENTS.md``, in each directory
from the project root down to its cwd (never below it), within ``project_doc_max_bytes`` (32 KiB)."""


def native_names(config: RuleweaveConfig) -> frozenset[str]:
    """The instruction file names Codex loads itself in this project: ``NATIVE_FILES`` and the
    ``project_doc_fallback_filenames`` of the config layers it honours (the user's, and the trusted
    project's ``.codex/config.toml`` from the root to the cwd; ``codex_docs``).

    Codex takes the first of ``AGENTS.override.md``, ``AGENTS.md`` and those names in each directory
    on its walk (``agents_md.rs``, ``candidate_filenames``); ruleweave chooses one file per directory
    the same way, then leaves the chosen one out when it is one of these.

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).

    Returns:
        The names, which the hook leaves out of the walk from the root to the cwd.
    """
    from ruleweave.instructions.agent_settings import codex_docs

    return NATIVE_FILES | frozenset(codex_docs(config).fallback)


def native_walk_budget(config: RuleweaveConfig) -> int:
    """The bytes of the walk's instruction files Codex reads itself: ``project_doc_max_bytes`` (32 KiB
    unless a layer it honours says otherwise). Past it Codex cuts the file that crosses it and drops the
    rest (``agents_md.rs``, a real run), so the hooks deliver those parts.

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).

    Returns:
        The budget; 0 when Codex loads no project docs.
    """
    from ruleweave.instructions.agent_settings import codex_docs

    return codex_docs(config).max_bytes


def distrusted(config: RuleweaveConfig) -> bool:
    """Whether the user marked this project ``untrusted`` for Codex: Codex then loads no project doc
    (a real run: the root ``AGENTS.md`` reached no request), and its hooks give nothing from the
    project either (``agent_settings.codex_distrusts``).

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).
    """
    from ruleweave.instructions.agent_settings import codex_distrusts

    return codex_distrusts(config)


def hooks_off(config: RuleweaveConfig) -> str | None:
    """Why Codex's own config runs no hook here (``agent_settings.codex_hooks_off``).

    Args:
        config: The configuration (project root, cwd and ``CODEX_HOME``).
    """
    from ruleweave.instructions.agent_settings import codex_hooks_off

    return codex_hooks_off(config)


def read_event(payload: Mapping[str, Any]) -> HookEvent:
    """A Codex hook input as a ``HookEvent`` (a key of the wrong type reads as absent).

    Args:
        payload: The hook input, as Codex sends it on stdin.

    Returns:
        The event; its ``kind`` is ``None`` for an event ruleweave does not answer.
    """
    return claude_style.read(payload, sources=_SOURCES, turn_key="turn_id")


def encode(event: HookEvent, reply: str, text: str) -> dict[str, Any] | None:
    """The JSON Codex reads for one answer to ``event`` (its schemas refuse any other field).

    Args:
        event: The event answered.
        reply: ``CONTEXT`` (``CONTEXT_EVENTS``), ``DENY`` (PreToolUse), ``BLOCK`` (Stop) or ``NOTE``
            (any event: the top-level ``systemMessage``, which Codex shows the user as a warning).
        text: The context, the reason, or the note.

    Returns:
        The object to print; ``None`` for a reply Codex cannot take at that event.
    """
    if reply == DENY and not text.strip():
        text = "ruleweave refused this call."  # Codex fails a deny without a reason, then runs the tool
    if reply == BLOCK and not text.strip():
        return None  # Codex refuses a block without a reason
    return claude_style.encode(event, reply, text, context_events=CONTEXT_EVENTS)


HOST = Host(
    name="codex",
    title="Codex",
    events=EVENTS,
    tools=TOOLS,
    native_provider=None,
    native_files=NATIVE_FILES,
    native_names=native_names,
    native_walk_only=True,  # root→cwd only: a nested AGENTS.md below the cwd is never loaded (FACTS, run 2)
    native_walk_budget=native_walk_budget,
    distrusted=distrusted,
    hooks_off=hooks_off,
    native_user=lambda config: (config.codex_dir / "AGENTS.override.md", config.codex_dir / "AGENTS.md"),
    context_limit=CONTEXT_LIMIT,
    context_unit="utf8",
    read_event=read_event,
    encode=encode,
    extractors="ruleweave.hosts.codex.paths",
    scopes={
        "project": "<root>/.codex/hooks.json",
        "user": "$CODEX_HOME/hooks.json (~/.codex)",
    },
    installer="ruleweave.hosts.codex.install",
    read_rule_templates=SHELL_READ_TEMPLATES,  # no rule:// reader, but a shell
)
"""Codex as ruleweave serves it (``ruleweave hook codex``, ``ruleweave install codex``)."""
