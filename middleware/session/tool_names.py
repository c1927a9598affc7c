"""Tool names across agents: one canonical name per kind of tool, and paths in patch text.

A rule scoped to ``tool:write(**/*.py)`` means "writing a Python file"
whatever the agent calls its tool: ``write_file`` (LangChain examples),
``Write`` (Claude Code), ``create_file`` (Copilot), ``str_replace_based_edit_tool``
(Anthropic's text editor), ``apply_patch`` (Codex). TTSR scopes and steering's
tool patterns compare canonical names, so every alias of a kind matches. The
table is ``DEFAULT_TOOL_ALIASES``; ``RuleweaveConfig.tool_aliases`` adds names
per kind (or new kinds). A name in no kind is its own canonical name
(lower-cased).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from ruleweave._kernel.paths import PATCH_KEYS
from ruleweave._text.lazy_regex import LazyRegex

DEFAULT_TOOL_ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "read": (
            "read", "read_file", "read_files", "read_many_files", "view", "view_file", "open_file", "cat",
            "notebookread",
        ),
        "write": ("write", "write_file", "create_file", "create", "write_to_file", "save_file"),
        "edit": (
            "edit", "edit_file", "multiedit", "str_replace", "str_replace_editor",
            "str_replace_based_edit_tool", "apply_patch", "apply_diff", "replace_in_file",
            "replace", "notebookedit", "notebook_edit", "search_replace", "editor",
        ),
        "bash": (
            "bash", "shell", "sh", "terminal", "run_shell_command", "run_terminal_cmd",
            "execute_command", "exec_command", "local_shell", "run_commands",
        ),
        "delete": ("delete", "delete_file", "remove_file", "rm"),
        "search": (
            "search", "grep", "glob", "find_files", "codebase_search", "grep_search", "file_search",
            "list_directory", "search_codebase",
        ),
        "fetch": ("fetch", "web_fetch", "webfetch", "fetch_url", "browse", "fetch_web_content"),
    }
)
"""Each kind of tool and the names agents give it (lower-case; matching ignores case)."""


class ToolNames:
    """Canonical tool names for one configuration.

    Args:
        extra: More names per kind (``RuleweaveConfig.tool_aliases``); a new kind is allowed.
    """

    def __init__(self, extra: Mapping[str, Iterable[str]] | None = None) -> None:
        table: dict[str, str] = {}
        for kind, names in (*DEFAULT_TOOL_ALIASES.items(), *(extra or {}).items()):
            kind = kind.lower()
            table[kind] = kind
            for name in names:
                table[name.lower()] = kind
        self._table = table

    @property
    def names(self) -> frozenset[str]:
        """Every name the table knows (lower-cased), each kind's own included."""
        return frozenset(self._table)

    def canonical(self, name: str) -> str:
        """The kind a tool name belongs to (``Write`` → ``write``), else the name lower-cased."""
        lowered = name.lower()
        return self._table.get(lowered, lowered)


_PATCH_FILE = LazyRegex(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$", re.M)
_DIFF_FILE = LazyRegex(r"^(?:\+\+\+|---) (?:[ab]/)?(.+?)(?:\t.*)?\s*$", re.M)


def patch_paths(tool: str, args: Mapping[str, Any]) -> Iterable[str]:
    """Paths named by patch text in a call's arguments (Codex ``apply_patch``, unified diffs).

    Args:
        tool: The tool's name (unused; the extractor signature).
        args: The call's arguments.

    Returns:
        The paths, in patch order (``/dev/null`` left out).
    """
    for key in PATCH_KEYS:
        text = args.get(key)
        if isinstance(text, list):  # Codex shell form: ["apply_patch", "<patch>"]
            text = "\n".join(t for t in text if isinstance(t, str))
        if not isinstance(text, str) or len(text) > 4_000_000:
            continue
        for match in _PATCH_FILE.finditer(text):
            yield match.group(1) or match.group(2)
        for match in _DIFF_FILE.finditer(text):
            path = match.group(1)
            if path != "/dev/null":
                yield path
