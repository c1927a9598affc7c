"""``ClaudeCodeHooks``: the shared hook engine (``HostHooks``) bound to Claude Code.

Used by the ``ruleweave hook claude-code`` command and the Claude Agent SDK
adapter (callbacks in process); what each event answers is the engine's
(``ruleweave.hosts._core.hooks``), how Claude Code's input and output read is
the host's (``ruleweave.hosts.claude_code``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleweave.hosts._core.hooks import HostHooks
from ruleweave.hosts.claude_code import HOST

if TYPE_CHECKING:
    from ruleweave.config import RuleweaveConfig
    from ruleweave.hosts._hook_log import HookLog
    from ruleweave.ruleset import RuleSet
    from ruleweave.store import SessionStore


class ClaudeCodeHooks(HostHooks):
    """One object answering Claude Code hook events (stdin JSON dict → stdout JSON dict or None).

    Args:
        ruleset: The loaded rules, or the configuration to load them from (see ``HostHooks``);
            Claude Code's ``Glob``, ``Grep`` and ``Bash`` path extractors are registered on it.
        store: Where sessions keep their state (default: the rule set's store).
        leave_out_native: Leave out the ``claude`` provider and the instruction files Claude
            Code loads itself.
        log: Where internal errors and cut context are written.
        queue_marks: A directory where a session whose queue holds pieces is marked.
    """

    def __init__(
        self,
        ruleset: RuleSet | RuleweaveConfig,
        *,
        store: SessionStore | None = None,
        leave_out_native: bool = True,
        log: HookLog | None = None,
        queue_marks: str | None = None,
    ) -> None:
        super().__init__(
            ruleset, host=HOST, store=store, leave_out_native=leave_out_native, log=log,
            queue_marks=queue_marks,
        )
