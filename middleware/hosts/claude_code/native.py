"""What Claude Code loads itself, and the limits its hooks live under, applied to a configuration.

Claude Code reads ``CLAUDE.md``, ``CLAUDE.local.md``, ``.claude/CLAUDE.md``,
``AGENTS.md`` (root and nested) and ``.claude/rules``; a hook that injected
them again would double them. Hook context over 10,000 characters is not
cut by Claude Code but replaced by a file pointer, so the hook's budgets
stay below that, and ``fit_context`` is the last guard. The facts themselves
(``NATIVE_PROVIDER``, ``NATIVE_FILES``, ``CONTEXT_LIMIT``) are the host's
declaration, ``ruleweave.hosts.claude_code``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruleweave.hosts.claude_code import CONTEXT_LIMIT, NATIVE_FILES, NATIVE_PROVIDER

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig

HOOK_BUDGET_BYTES = 9_000
"""Byte budget of the prompt contribution and of one notice in a hook (bytes ≥ characters), leaving
room for a steering block or a streamed-rule reminder under ``CONTEXT_LIMIT``."""

_CUT_MARKER = "\n[ruleweave: the rest was cut to stay under Claude Code's 10,000-character hook limit]"


def hook_config(config: RuleweaveConfig, *, leave_out_native: bool = True) -> RuleweaveConfig:
    """``config`` for Claude Code hooks: within the hook budget, and without what Claude Code loads.

    Args:
        config: The caller's configuration.
        leave_out_native: Drop the ``claude`` provider and the instruction files Claude Code
            reads itself (``NATIVE_FILES``).

    Returns:
        The derived configuration (``config`` itself when nothing changes).
    """
    update: dict[str, Any] = {}
    if config.prompt_max_bytes > HOOK_BUDGET_BYTES:
        update["prompt_max_bytes"] = HOOK_BUDGET_BYTES
    if config.notice_max_bytes > HOOK_BUDGET_BYTES:
        update["notice_max_bytes"] = HOOK_BUDGET_BYTES
    if leave_out_native:
        if NATIVE_PROVIDER not in config.disabled_providers:
            update["disabled_providers"] = config.disabled_providers | {NATIVE_PROVIDER}
        kept = tuple(name for name in config.instruction_files if name not in NATIVE_FILES)
        if kept != config.instruction_files:
            update["instruction_files"] = kept
    return config.replace(**update) if update else config


def fit_context(text: str) -> tuple[str, bool]:
    """``text`` cut on a line boundary to stay under ``CONTEXT_LIMIT`` characters.

    Returns:
        The text and whether it was cut.
    """
    if len(text) <= CONTEXT_LIMIT:
        return text, False
    room = CONTEXT_LIMIT - len(_CUT_MARKER)
    head = text[:room]
    newline = head.rfind("\n")
    return (head[:newline] if newline > 0 else head) + _CUT_MARKER, True
