"""The instruction blob: AGENTS.md / CLAUDE.md files, ``@imports`` and the byte budget.

docs/instructions.md and docs/notices.md. ``build_instructions`` assembles, in this order:

1. the user tier: ``$CLAUDE_CONFIG_DIR/CLAUDE.md`` (default ``~/.claude/CLAUDE.md``),
   Codex's, Gemini CLI's, Amp's and Goose's user files (``formats.user_files``);
2. Claude Code's ``CLAUDE.md`` / ``CLAUDE.local.md`` in each directory above the
   project root, outermost first (``parent_instructions``);
3. the instruction files in each directory from the project root down to cwd,
   in priority order within a directory (``formats``: which names, which agent,
   where, whether ``@path`` expands, which replace which);
4. the unscoped Claude rules it is given.

Each part is headed ``[file: <path>]`` (the path relative to the project
root, ``~/…`` for files under the home directory) or ``[rule: <name>]``, and
parts are separated by a blank line. In every body, HTML comments are removed
(not inside code fences or code spans) and ``@path`` imports are expanded
after the line naming them, as ``[import: <path>]`` … ``[end import: <path>]``
(in Claude Code's and Gemini CLI's files only). A file reached twice (a symlink
to the same file, a second import) or the same text in several agents' files
(whitespace and line ends aside) is included once; ``shared.drop_shared`` does
the same for always-on rules. A file with ``globs:`` frontmatter (Amp) is not
in the blob: ``NestedInstructions`` sends it when a touched path matches.

Budget accounting (``instructions_max_bytes``): the headers, the newline after
each header and the blank lines between parts are fixed overhead, taken off
the limit first. What is left is shared max-min fairly over the bodies: a
body no bigger than its fair share stays whole, the others are cut to equal
shares. A cut body's share pays for its truncation marker too
(``\\n[ruleweave: N bytes left out; whole text at <path>]``, ``rule://<name>`` for a
Claude rule; cut on a line boundary, see ``ruleweave.prompt._cuts``), so the whole blob,
headers and markers included, never exceeds the limit. Should the overhead
and the markers alone not fit, parts are dropped whole, farthest from cwd
first, and reported. ``NestedInstructions`` finds the instruction files of
directories below the walk for a touched path (docs/notices.md).
"""

from __future__ import annotations

from ruleweave.instructions.blob import build_instructions, refit
from ruleweave.instructions.model import (
    BudgetCut,
    InstructionBlob,
    InstructionBudget,
    InstructionFile,
    InstructionLevel,
    NestedFile,
    ScopedFile,
)
from ruleweave.instructions.nested import NestedInstructions

__all__ = [
    "BudgetCut",
    "InstructionBlob",
    "InstructionBudget",
    "InstructionFile",
    "InstructionLevel",
    "NestedFile",
    "NestedInstructions",
    "ScopedFile",
    "build_instructions",
    "refit",
]
