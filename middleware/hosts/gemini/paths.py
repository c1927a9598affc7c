"""The paths a Gemini CLI tool call touches, for the tools the default extractor does not read.

``read_file``, ``write_file``, ``replace`` (``file_path``) and ``list_directory``
(``dir_path``) need nothing here: ``ruleweave._kernel.paths.default_paths``
reads those keys. ``glob`` and ``grep_search`` take Claude Code's ``Glob``/``Grep``
arguments under other names (``dir_path`` with ``pattern``/``include_pattern``),
``run_shell_command`` Qwen Code's shell arguments (``command``, with a
``dir_path`` the relative words are under), and ``read_many_files`` lists
paths and globs under ``include``. The functions are Claude Code's and Qwen
Code's (``ruleweave.hosts.claude_code.paths``, ``ruleweave.hosts.qwen.paths``),
called with the arguments renamed, not copied.

No ``typing`` or ``pathlib`` here: the warm path imports this module.
"""

from __future__ import annotations

from ruleweave.hosts.claude_code.paths import glob_paths, grep_paths
from ruleweave.hosts.qwen.paths import shell_paths

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ruleweave._kernel.paths import Extractor

_MAX_INCLUDES = 256


def find_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``glob``: its ``dir_path`` and ``pattern`` under it (as Claude Code's ``Glob``)."""
    return glob_paths(tool, {"path": args.get("dir_path"), "pattern": args.get("pattern")})


def search_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``grep_search``: its ``dir_path`` and its ``include_pattern`` filter under it (as ``Grep``)."""
    return grep_paths(tool, {"path": args.get("dir_path"), "glob": args.get("include_pattern")})


def command_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``run_shell_command``: the path-like words of ``command``, relative ones under ``dir_path``."""
    return shell_paths(tool, {"command": args.get("command"), "directory": args.get("dir_path")})


def include_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``read_many_files``: each path or glob of ``include`` (a glob stands for the files it reads)."""
    include = args.get("include")
    if not isinstance(include, list):
        return
    for item in include[:_MAX_INCLUDES]:
        if isinstance(item, str) and item and not item.startswith("!") and ".." not in item.split("/"):
            yield item


GEMINI_EXTRACTORS: Mapping[str, Extractor] = {
    "glob": find_paths,
    "grep_search": search_paths,
    "search_file_content": search_paths,  # the tool's former name, still an alias in 0.61.0
    "run_shell_command": command_paths,
    "read_many_files": include_paths,
}
"""Extractors for Gemini CLI's tools whose arguments name paths in their own way."""

EXTRACTORS = GEMINI_EXTRACTORS
"""The host's extractors, by the name ``Host.extractors`` reads."""
