"""The paths an OpenCode tool call touches, for the tools the default extractor does not read.

``read``, ``write`` and ``edit`` name their file under ``filePath``, a key the
default extractor reads (any key ending in ``path``). ``glob`` takes Claude
Code's ``Glob`` arguments (``path``, ``pattern``); ``grep`` names its file filter
``include`` where ``Grep`` says ``glob``; ``bash`` is Claude Code's ``Bash`` with a
``workdir`` its relative words are under; ``apply_patch`` names files in its
``patchText``. The functions are Claude Code's (``ruleweave.hosts.claude_code.paths``)
and the patch reader's (``ruleweave.session.tool_names.patch_paths``), not copies.

No ``typing`` or ``pathlib`` here: the warm path imports this module.
"""

from __future__ import annotations

from ruleweave.hosts.claude_code.paths import bash_paths, glob_paths, grep_paths

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ruleweave._kernel.paths import Extractor


def grep_include_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``grep``: its ``path`` and its ``include`` filter under it (``grep_paths``)."""
    return grep_paths(tool, {"path": args.get("path"), "glob": args.get("include")})


def shell_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``bash``: the path-like words of ``command`` (``bash_paths``), a relative one under ``workdir`` when
    the call names one, and the directory itself."""
    workdir = args.get("workdir")
    base = workdir.rstrip("/") if isinstance(workdir, str) and workdir else ""
    if base:
        yield base
    for word in bash_paths(tool, args):
        yield f"{base}/{word}" if base and not word.startswith(("/", "~")) else word


def patch_text_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``apply_patch``: the files its ``patchText`` adds, updates, moves or deletes."""
    text = args.get("patchText")
    if not isinstance(text, str):
        return ()
    from ruleweave.session.tool_names import patch_paths  # only patch calls pay for it

    return patch_paths(tool, {"patch": text})


EXTRACTORS: Mapping[str, Extractor] = {
    "glob": glob_paths,
    "grep": grep_include_paths,
    "bash": shell_paths,
    "apply_patch": patch_text_paths,
}
"""Extractors for OpenCode's tools whose arguments name paths in their own way."""
