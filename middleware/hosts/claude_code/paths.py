"""The paths a Claude Code tool call touches, for the tools the default extractor does not read.

``Read``, ``Write``, ``Edit``, ``MultiEdit`` (``file_path``) and ``NotebookEdit``
(``notebook_path``) need nothing here: ``ruleweave.session.touch.default_extractor``
reads those keys. ``Glob`` and ``Grep`` search under ``path`` (the session cwd
when absent) with a pattern that stands for the files they list, so the
pattern joined to the directory counts as touched too (``src/**/*.py``
matches a ``**/*.py`` rule the way the files found would). ``Bash`` touches
the words of its command that look like paths: a word holding ``/`` or
ending in a file extension, never an option, a URL or a variable.

``claude_code_paths`` is the same answer as ``TouchExtractors.path_strings``
for Claude Code's own tools, for the hook's fast path: this module imports
neither ``typing`` nor ``pathlib`` (a test pins the two against each other).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ruleweave.session.touch import Extractor

_MAX_COMMAND = 100_000  # longer command lines are scripts, not a list of files
_MAX_WORDS = 2_000
_EXTENSION = r"\.[A-Za-z0-9_]{1,10}$"
_PATHLIKE = r"^[\w.@%+=,~/-]+$"
_MAX_PATH_CHARS = 4096  # as ruleweave.session.touch
_MAX_PATHS = 256


def _joined(directory: Any, pattern: Any) -> Iterable[str]:
    """The search directory, and the pattern under it when it stays there."""
    base = directory if isinstance(directory, str) and directory else ""
    if base:
        yield base
    if isinstance(pattern, str) and pattern and ".." not in pattern.split("/"):
        yield pattern if pattern.startswith("/") else (f"{base.rstrip('/')}/{pattern}" if base else pattern)


def glob_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``Glob``: its ``path`` and ``pattern`` under it."""
    return _joined(args.get("path"), args.get("pattern"))


def grep_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``Grep``: its ``path`` and its ``glob`` filter under it (the regex ``pattern`` is no path)."""
    return _joined(args.get("path"), args.get("glob"))


def command_words(command: str) -> list[str]:
    """A shell command line's words (quotes removed; operators and redirections split off)."""
    import shlex  # only Bash calls pay for it

    lexer = shlex.shlex(command.replace("\\\n", " "), posix=True, punctuation_chars=";&|<>()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return [word for _, word in zip(range(_MAX_WORDS), lexer, strict=False)]
    except ValueError:  # unbalanced quotes: plain words will do
        return command.split()[:_MAX_WORDS]


def bash_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``Bash``: the words of ``command`` that look like file paths."""
    command = args.get("command")
    if not isinstance(command, str) or len(command) > _MAX_COMMAND:
        return
    import re  # only Bash calls pay for it (re caches the two patterns)

    for word in command_words(command):
        if word.startswith("-") or "://" in word or not re.match(_PATHLIKE, word):
            continue
        if "/" in word or re.search(_EXTENSION, word):
            yield word


CLAUDE_CODE_EXTRACTORS: Mapping[str, Extractor] = {
    "Glob": glob_paths,
    "Grep": grep_paths,
    "Bash": bash_paths,
}
"""Extractors for Claude Code's tools whose arguments name paths in their own way."""

_FILE_KEY = {"Read": "file_path", "Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
             "NotebookEdit": "notebook_path"}
# Keys the default extractor reads, or whose text it reads as a patch, besides the file key.
_OTHER_PATH_KEYS = frozenset({"file_path", "path", "paths", "notebook_path", "target_file", "filename"})
_PATCH_KEYS = frozenset({"input", "patch", "diff", "command"})


def _plain(key: str, args: Mapping[str, Any]) -> bool:
    """Whether the default extractor would read nothing but ``args[key]``, a string."""
    if not isinstance(args.get(key), str):
        return False
    for name, value in args.items():
        if name == key:
            continue
        lowered = name.lower() if isinstance(name, str) else ""
        if lowered in _OTHER_PATH_KEYS or lowered in _PATCH_KEYS or lowered.endswith(("path", "paths")):
            return False
        if not isinstance(name, str) or isinstance(value, dict):
            return False
    return True


def claude_code_paths(tool: str, args: Mapping[str, Any], cwd: str) -> list[str] | None:
    """The absolute, normalised paths a call of one of Claude Code's tools touched.

    Args:
        tool: The tool's name.
        args: Its input.
        cwd: What relative paths resolve against.

    Returns:
        The paths, as ``TouchExtractors.path_strings`` with the Claude Code extractors
        gives them; ``None`` for a tool this does not know, or an input it cannot vouch
        for (another key the default extractor would read).
    """
    key = _FILE_KEY.get(tool)
    if key is not None:
        if not _plain(key, args):
            return None
        found: Iterable[str] = (args[key],)
    elif tool in CLAUDE_CODE_EXTRACTORS:
        found = CLAUDE_CODE_EXTRACTORS[tool](tool, args)
    else:
        return None
    out: dict[str, None] = {}
    for raw in found:
        if not isinstance(raw, str) or not (0 < len(raw) <= _MAX_PATH_CHARS) or "\x00" in raw or "\n" in raw:
            continue
        out[os.path.normpath(raw if raw.startswith("/") else os.path.join(cwd, raw))] = None
        if len(out) >= _MAX_PATHS:
            break
    return list(out)
