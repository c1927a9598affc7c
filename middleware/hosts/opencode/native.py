"""What OpenCode (1.18.33) loads itself, beyond its declaration's fixed files, applied to a configuration.

OpenCode's ``Instruction`` service reads, for the first name of ``AGENTS.md``,
``CLAUDE.md``, ``CONTEXT.md`` found anywhere on the walk from its cwd up to the
worktree root, every file of that name on the walk; so ``CLAUDE.md`` is its own
only in a project with no ``AGENTS.md`` on that walk (``claude_md_native``).
Below the cwd it appends the first of the three in each directory to a ``read``
of a file there; a nested ``CLAUDE.md`` is then treated like the root one (left
out with it). Its user tier is the first existing of
``$XDG_CONFIG_HOME/opencode/AGENTS.md`` and ``~/.claude/CLAUDE.md``
(``user_files``). ``OPENCODE_DISABLE_CLAUDE_CODE_PROMPT`` switches the
``CLAUDE.md`` reading off; ruleweave does not read OpenCode's environment, so with
it set ``CLAUDE.md`` stays left out (``--include-native`` delivers it).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from ruleweave.config import RuleweaveConfig


def claude_md_native(config: RuleweaveConfig) -> bool:
    """Whether OpenCode loads ``CLAUDE.md`` itself in this project (no ``AGENTS.md`` from the cwd up to
    the project root).

    Args:
        config: The configuration (cwd and root).

    Returns:
        ``True`` when OpenCode reads ``CLAUDE.md`` itself, so the hook leaves it out.
    """
    root = os.path.normpath(config.root)
    directory = os.path.normpath(config.cwd)
    while True:
        if os.path.isfile(os.path.join(directory, "AGENTS.md")):
            return False
        parent = os.path.dirname(directory)
        if directory == root or parent == directory:
            return True
        directory = parent


def user_files(config: RuleweaveConfig) -> tuple[Path, ...]:
    """The user-tier instruction file OpenCode reads itself: its own ``AGENTS.md`` when it exists, else
    ``~/.claude/CLAUDE.md``.

    Args:
        config: The configuration (home and ``XDG_CONFIG_HOME``).

    Returns:
        One path.
    """
    own = config.xdg_config_home / "opencode" / "AGENTS.md" if config.xdg_config_home else None
    if own is not None and own.is_file():
        return (own,)
    return (config.user_home / ".claude" / "CLAUDE.md",)
