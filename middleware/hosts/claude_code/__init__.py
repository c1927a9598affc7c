"""Claude Code hooks: ``ClaudeCodeHooks`` answers hook events; the command hook's fast path and installer.

Names load on first access, so the command hook's fast path
(``ruleweave.hosts.claude_code.snapshot``) imports none of the rule machinery.
"""

from __future__ import annotations

from ruleweave._lazy import lazy_exports

TYPE_CHECKING = False  # not typing's: see ruleweave/__init__.py
if TYPE_CHECKING:
    from ruleweave.hosts.claude_code.handlers import ClaudeCodeHooks

__all__ = ["ClaudeCodeHooks"]

__getattr__ = lazy_exports(__name__, {"ClaudeCodeHooks": "ruleweave.hosts.claude_code.handlers"})
