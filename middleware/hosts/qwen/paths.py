"""The paths a Qwen Code tool call touches, for the tools the default extractor does not read.

``read_file``, ``write_file``, ``edit`` (``file_path``), ``notebook_edit``
(``notebook_path``) and ``list_directory`` (``path``) need nothing here:
``ruleweave._kernel.paths.default_paths`` reads those keys (one nesting level
too, so a deferred tool called through ``tool_call``'s ``arguments`` is read).
``glob`` and ``grep_search`` take Claude Code's ``Glob``/``Grep`` arguments
(``path`` with ``pattern``/``glob``), and ``run_shell_command`` Bash's
``command``, with a ``directory`` the relative words are under. The functions
are Claude Code's (``ruleweave.hosts.claude_code.paths``), not copies.

No ``typing`` or ``pathlib`` here: the warm path imports this module.
"""

from __future__ import annotations

from ruleweave.hosts.claude_code.paths import bash_paths, glob_paths, grep_paths

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ruleweave._kernel.paths import Extractor


def shell_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``run_shell_command``: the path-like words of ``command`` (``bash_paths``), a relative one under
    ``directory`` when the call names one, and the directory itself."""
    directory = args.get("directory")
    base = directory.rstrip("/") if isinstance(directory, str) and directory else ""
    if base:
        yield base
    for word in bash_paths(tool, args):
        yield f"{base}/{word}" if base and not word.startswith(("/", "~")) else word


QWEN_EXTRACTORS: Mapping[str, Extractor] = {
    "glob": glob_paths,
    "grep_search": grep_paths,
    "run_shell_command": shell_paths,
}
"""Extractors for Qwen Code's tools whose arguments name paths in their own way."""

EXTRACTORS = QWEN_EXTRACTORS
"""The host's extractors, by the name ``Host.extractors`` reads."""
