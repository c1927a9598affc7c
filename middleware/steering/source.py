"""Positions in a parsed SkillSpec: lines of keys and items, readable names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ruleweave.steering.issue import SpecIssue

YamlPath = tuple[str | int, ...]
"""A position in the document: mapping keys and list indexes from the root."""


class SourceMap(NamedTuple):
    """Where each key and list item of a document starts.

    A NamedTuple, as :class:`~ruleweave.steering.issue.SpecIssue`: ``spec decide``'s
    first call reads a spec without importing ``dataclasses`` (and ``inspect``).

    Attributes:
        file: The document's path or label.
        lines: 1-based line per :data:`YamlPath`.
    """

    file: str
    lines: Mapping[YamlPath, int]

    def line(self, path: YamlPath) -> int:
        """The line of ``path``, or of its nearest ancestor that has one.

        Args:
            path: A position in the document.

        Returns:
            A 1-based line; 0 when nothing is known (an empty document).
        """
        for end in range(len(path), -1, -1):
            found = self.lines.get(path[:end])
            if found is not None:
                return found
        return 0

    def issue(self, path: YamlPath, reason: str) -> SpecIssue:
        """An issue located at ``path``.

        Args:
            path: The position the problem is about.
            reason: One sentence.

        Returns:
            The issue with this map's file and the line of ``path``.
        """
        return SpecIssue(self.file, self.line(path), reason)


def describe(path: YamlPath, data: Any) -> str:
    """A readable name for a position: ``rules[typo_rule].when``.

    List items are named by their ``id`` (or a test's ``name``) when they
    have one, else by 1-based position.

    Args:
        path: A position in the document.
        data: The parsed document.

    Returns:
        The name; ``the document`` for the root.
    """
    out = ""
    node: Any = data
    for part in path:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            label = _item_label(item)
            out += f"[{label}]" if label else f"[#{part + 1}]"
            node = item
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out or "the document"


def _item_label(item: Any) -> str | None:
    if isinstance(item, dict):
        for key in ("id", "name"):
            if isinstance(item.get(key), str) and item[key]:
                return str(item[key])
    return None


def describe_path(path: YamlPath) -> str:
    """A position without data: ``rules[#1].when`` (1-based indexes).

    Args:
        path: A position in the document.

    Returns:
        The name; ``the document`` for the root.
    """
    return describe(path, None)
