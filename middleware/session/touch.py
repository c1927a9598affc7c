"""Which files a tool call touched, read from its arguments.

A registry maps tool names to extractors; the default,
``ruleweave._kernel.paths.default_paths``, reads the argument keys
``file_path``, ``path``, ``paths``, ``notebook_path``, ``target_file``,
``filename`` and any key ending in ``path``/``paths`` (one level of nesting
too, for tools whose arguments wrap a payload). Arguments may be a mapping
or a JSON string (the OpenAI wire format). Anything odd — numbers, huge
strings, NUL bytes, non-string list items — is skipped, never raised on.
Turning what an extractor reads into absolute paths is the kernel's
``call_paths``, which the Claude Code hook's warm path calls too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ruleweave._kernel.paths import call_paths, default_paths
from ruleweave.session.tool_names import ToolNames, patch_paths

Extractor = Callable[[str, Mapping[str, Any]], Iterable[str]]
"""``(tool_name, args) -> path strings`` for one kind of tool."""


_PLANNED_TOOLS = 1024
"""Tool names whose extractors a registry remembers (names come from the model: bounded)."""


def parse_args(args: Any) -> Mapping[str, Any]:
    """Tool arguments as a mapping: a mapping as is, a JSON object string decoded, else empty."""
    if type(args) is dict or isinstance(args, Mapping):
        return args
    if isinstance(args, (str, bytes)) and len(args) <= 1_000_000:
        try:
            decoded = json.loads(args)
        except (ValueError, RecursionError):
            return MappingProxyType({})
        if isinstance(decoded, dict):
            return decoded
    return MappingProxyType({})


class TouchExtractors:
    """The extractor registry: per tool name (case-insensitive), else the default.

    Args:
        extractors: Initial ``{tool_name: extractor}`` entries.
        default: The extractor for tools without an entry.
    """

    def __init__(
        self,
        extractors: Mapping[str, Extractor] | None = None,
        default: Extractor = default_paths,
        names: ToolNames | None = None,
    ) -> None:
        self._by_tool = {name.lower(): fn for name, fn in (extractors or {}).items()}
        self._default = default
        # Edit and write tools may carry patch text (``apply_patch``): its paths count too.
        self._names = names if names is not None else ToolNames()
        self._plans: dict[str, tuple[Extractor, Extractor | None]] = {}  # by tool name as called

    def register(self, tool: str, extractor: Extractor) -> None:
        """Use ``extractor`` for calls of ``tool``."""
        self._by_tool[tool.lower()] = extractor
        self._plans.clear()

    @property
    def registered(self) -> frozenset[str]:
        """The tool names (lower-cased) that have an extractor of their own."""
        return frozenset(self._by_tool)

    def paths(self, tool: str, args: Any, cwd: Path) -> list[Path]:
        """Absolute, normalised paths the call touched (deduplicated, in argument order).

        Args:
            tool: The tool's name.
            args: Its arguments (mapping or JSON string).
            cwd: What relative paths resolve against.

        Returns:
            The touched paths; empty when the arguments name none.
        """
        return [Path(p) for p in self.path_strings(tool, args, str(cwd))]

    def path_strings(self, tool: str, args: Any, cwd: str) -> list[str]:
        """``paths`` as plain strings: the hot path after every tool call avoids pathlib."""
        plan = self._plans.get(tool) if type(tool) is str else None
        if plan is None:
            plan = self._plan(tool)
        return call_paths(tool, args if type(args) is dict else parse_args(args), cwd, *plan)

    def _plan(self, tool: str) -> tuple[Extractor, Extractor | None]:
        """The extractors of a tool's calls: its own or the default, then patch text for edits and writes."""
        lowered = tool.lower() if isinstance(tool, str) else ""
        extractor = self._by_tool.get(lowered, self._default)
        patches = extractor is self._default and self._names.canonical(lowered) in ("edit", "write")
        plan = (extractor, patch_paths if patches else None)
        if type(tool) is str and len(self._plans) < _PLANNED_TOOLS:
            self._plans[tool] = plan
        return plan


WRITE_KEYS = frozenset(
    {"content", "new_string", "new_source", "new_text", "text", "code", "contents", "patch"}
)
"""Argument keys whose string value is text a tool writes into a file."""


def written_text(args: Any) -> list[str]:
    """The text a call writes, from the ``WRITE_KEYS`` arguments (each capped at 1 MB).

    A mapping that raises while it is read gives no text, never an exception.
    """
    mapping = parse_args(args)
    try:
        return [
            value[:1_000_000]
            for key, value in mapping.items()
            if isinstance(key, str) and key.lower() in WRITE_KEYS and isinstance(value, str)
        ]
    except Exception:
        return []
