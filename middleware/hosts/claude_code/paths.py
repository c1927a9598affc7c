"""The paths a Claude Code tool call touches, for the tools the default extractor does not read.

``Read``, ``Write``, ``Edit``, ``MultiEdit`` (``file_path``) and ``NotebookEdit``
(``notebook_path``) need nothing here: ``ruleweave._kernel.paths.default_paths``
reads those keys. ``Glob`` and ``Grep`` search under ``path`` (the session cwd
when absent) with a pattern that stands for the files they list, so the
pattern joined to the directory counts as touched too (``src/**/*.py``
matches a ``**/*.py`` rule the way the files found would). ``Bash`` touches
the words of its command that look like paths: a word holding ``/`` or
ending in a file extension, never an option, a URL or a variable.

``ClaudeCodeHooks`` registers these on its rule set's ``TouchExtractors``;
the hook's warm path (``snapshot``) picks them the same way
(``Host.extractor_for``), and both turn what they read into paths with
``ruleweave._kernel.paths.call_paths``. No ``typing`` or ``pathlib`` here:
the warm path imports this module.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ruleweave._kernel.paths import Extractor

_MAX_COMMAND = 100_000  # longer command lines are scripts, not a list of files
_MAX_WORDS = 2_000
_EXTENSION = r"\.[A-Za-z0-9_]{1,10}$"
_PATHLIKE = r"^[\w.@%+=,~/-]+$"


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


_WRAPPERS = "\"'`*()[]{}<>"
_TRAILING = ".,;:!?"


def task_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """``Agent``/``Task``: the words of the delegated task (``description``, ``prompt``) that look like
    file paths, as ``bash_paths`` decides, once quotes, brackets and a sentence's punctuation are off.

    Not registered for the tool's own calls: the paths a delegation names are the subagent's
    (SubagentStart), not the parent's.
    """
    import re  # only delegations pay for it

    for key in ("description", "prompt"):
        text = args.get(key)
        if not isinstance(text, str) or len(text) > _MAX_COMMAND:
            continue
        for raw in text.split()[:_MAX_WORDS]:
            word = raw.strip(_WRAPPERS).rstrip(_TRAILING).strip(_WRAPPERS)
            if not word or word.startswith("-") or "://" in word or not re.match(_PATHLIKE, word):
                continue
            if "/" in word or re.search(_EXTENSION, word):
                yield word


CLAUDE_CODE_EXTRACTORS: Mapping[str, Extractor] = {
    "Glob": glob_paths,
    "Grep": grep_paths,
    "Bash": bash_paths,
}
"""Extractors for Claude Code's tools whose arguments name paths in their own way."""

EXTRACTORS = CLAUDE_CODE_EXTRACTORS
"""The host's extractors, by the name ``Host.extractors`` reads."""
