"""TTSR scope: which streams a condition watches, and the path gates of tool streams.

Scope tokens (case-insensitive, comma-separated outside brackets and quotes):

=====================  =====================================================
``text``               the model's prose
``thinking``           its reasoning
``tool``               the argument stream of every tool call
``tool:NAME``          calls of the tool ``NAME``
``tool:NAME(GLOB)``    calls of ``NAME`` whose arguments name a path matching
                       ``GLOB`` (several globs: ``tool:edit(*.ts, *.tsx)``)
``NAME(GLOB)``         the same as ``tool:NAME(GLOB)``; ``tool(GLOB)`` is any tool
=====================  =====================================================

No scope means ``text`` and every tool. A list that YAML could not parse,
``scope: "text","thinking"``, reaches here as one string with its quotes; it
is split and unquoted like any other. Tool names compare case-insensitively;
globs keep their case and use the product's one glob dialect
(``ruleweave.globs``) against the three spellings of each path.

A condition token that is plainly a file glob (no regex-only
metacharacters, some of ``*?[]{}``, and a ``/`` or the ``*.ext`` form)
is not a regex: it becomes ``tool:edit(g)`` and ``tool:write(g)`` with a
match-anything condition — for that condition only, not for the rule's
other conditions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ruleweave.frontmatter import split_globs
from ruleweave.globs import GlobIndex, PathSpellings

Source = Literal["text", "thinking", "tool"]
"""A stream of the model's output: prose, reasoning, or a tool call's arguments."""

SOURCES: tuple[Source, ...] = ("text", "thinking", "tool")

_QUOTES = "\"'"
_OPEN, _CLOSE = "([{", ")]}"
_NESTING = re.compile(r"[\"'(\[{]")
_TOKEN = re.compile(
    r"^(?:tool\s*:\s*(?P<name>[^()\s:]+)|(?P<bare>[^()\s:]+))\s*(?:\((?P<globs>.*)\))?$",
    re.DOTALL | re.IGNORECASE,
)
_REGEX_ONLY = re.compile(r"[\\^$+()|\s]")
_GLOB_MAGIC = re.compile(r"[*?\[\]{}]")
_EXT_GLOB = re.compile(r"^\*\.(?:[\w-][\w.-]*|\{[\w.,-]+\})$")


@dataclass(frozen=True, slots=True)
class ScopeEntry:
    """One parsed scope token.

    Attributes:
        source: The stream it watches.
        tool: The lower-cased tool name (``None``: any tool, or not a tool stream).
        glob: A path glob the tool call's arguments must name (``None``: no gate).
    """

    source: Source
    tool: str | None = None
    glob: str | None = None

    def __str__(self) -> str:
        if self.source != "tool":
            return self.source
        head = "tool" if self.tool is None else f"tool:{self.tool}"
        return head if self.glob is None else f"{head}({self.glob})"

    def admits(self, source: Source, tool: str, canonical: Callable[[str], str] | None = None) -> bool:
        """Whether a stream of ``source`` (tool name ``tool``, lower-cased) is in scope.

        With ``canonical`` (``tool_names.ToolNames.canonical``) ``tool`` is a tool kind and
        the entry's tool name is compared by its kind: ``tool:write_file`` admits ``Write``.
        """
        if self.source != source:
            return False
        if source != "tool" or self.tool is None:
            return True
        return (canonical(self.tool) if canonical is not None else self.tool) == tool


DEFAULT_SCOPE: tuple[ScopeEntry, ...] = (ScopeEntry("text"), ScopeEntry("tool"))
"""The scope of a rule that names none: prose and every tool call."""


def _unquote(text: str) -> str:
    text = text.strip()
    while len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES:
        text = text[1:-1].strip()
    return text


def split_tokens(value: str) -> list[str]:
    """Split a scope string on commas outside brackets and quotes, unquoting each token.

    Args:
        value: One scope value, e.g. ``'"text","thinking"'`` or ``tool:edit(*.{ts,tsx}), text``.

    Returns:
        The non-empty tokens.
    """
    if _NESTING.search(value) is None:  # nothing to balance (``text, tool:edit``): a plain split
        return [token for token in (_unquote(t) for t in value.split(",")) if token]
    tokens: list[str] = []
    current: list[str] = []
    depth = 0
    quote = ""
    for char in value:
        if quote:
            if char == quote:
                quote = ""
        elif char in _QUOTES:
            quote = char
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE and depth:
            depth -= 1
        elif char == "," and depth == 0:
            tokens.append("".join(current))
            current = []
            continue
        current.append(char)
    tokens.append("".join(current))
    return [token for token in (_unquote(t) for t in tokens) if token]


def parse_token(token: str) -> tuple[ScopeEntry, ...]:
    """The entries one token stands for (empty when it is not a scope token).

    Args:
        token: One unquoted token.

    Returns:
        One entry, one per glob for ``NAME(GLOB, GLOB)``, or none when unknown.
    """
    match = _TOKEN.match(token.strip())
    if match is None:
        return ()
    name = match.group("name")
    bare = match.group("bare")
    raw_globs = match.group("globs")
    globs = [_unquote(g) for g in split_globs(raw_globs)] if raw_globs is not None else []
    if raw_globs is not None and not globs:
        return ()
    if name is not None:
        tool: str | None = name.lower()
    else:
        word = bare.lower()
        if raw_globs is None:
            if word in ("text", "thinking"):
                return (ScopeEntry("text" if word == "text" else "thinking"),)
            return (ScopeEntry("tool"),) if word == "tool" else ()
        if word in ("text", "thinking"):
            return ()
        tool = None if word == "tool" else word
    if not globs:
        return (ScopeEntry("tool", tool),)
    return tuple(ScopeEntry("tool", tool, g) for g in globs)


def parse_scope(values: Iterable[str]) -> tuple[tuple[ScopeEntry, ...], list[str]]:
    """Parse a rule's scope values.

    Args:
        values: The rule's ``scope`` strings (a YAML list, or one comma-separated string).

    Returns:
        The de-duplicated entries in order, and one problem per unknown token.
    """
    entries: dict[ScopeEntry, None] = {}
    problems: list[str] = []
    for value in values:
        for token in split_tokens(value):
            parsed = parse_token(token)
            if not parsed:
                problems.append(f"scope token {token!r} is not one of text, thinking, tool, "
                                "tool:NAME, tool:NAME(GLOB), NAME(GLOB); it was ignored")
            entries.update(dict.fromkeys(parsed))
    return tuple(entries), problems


def is_glob_token(token: str) -> bool:
    """Whether a condition token is plainly a file glob rather than a regex.

    Args:
        token: One condition value.

    Returns:
        True for ``src/**/*.ts`` or ``*.py``; False for anything with ``\\ ^ $ + ( ) |``.
    """
    text = token.strip()
    if not text or _REGEX_ONLY.search(text) or not _GLOB_MAGIC.search(text):
        return False
    return "/" in text or _EXT_GLOB.match(text) is not None


def glob_tokens(token: str) -> list[str]:
    """The globs in a condition value when every comma-separated part is one, else ``[]``."""
    parts = split_globs(token)
    return parts if parts and all(is_glob_token(p) for p in parts) else []


def glob_scope(glob: str) -> tuple[ScopeEntry, ScopeEntry]:
    """The scope a glob condition token stands for: ``tool:edit(g)`` and ``tool:write(g)``."""
    return ScopeEntry("tool", "edit", glob), ScopeEntry("tool", "write", glob)


def spellings(path: Path, root: Path) -> PathSpellings:
    """The three spellings globs are tried against, for an absolute normalised path.

    Args:
        path: The path a tool call names, absolute and normalised.
        root: The project root.

    Returns:
        Relative (``None`` outside the project), absolute and bare-name spellings.
    """
    return PathSpellings.of(path.as_posix(), str(root).rstrip("/") + "/")


class PathGate:
    """Globs a path a tool call names must match, indexed on the first lookup.

    A load registers every streamed rule, and most never meet a tool call naming a
    path; building each rule's ``GlobIndex`` then was the larger part of compiling it.
    Two threads racing on the first lookup build equal indexes: either one may stay.

    Attributes:
        globs: The globs, in order.
        bare_anywhere: The ``GlobIndex`` reading of a glob without ``/``.
    """

    __slots__ = ("_index", "bare_anywhere", "globs")

    def __init__(self, globs: tuple[str, ...], *, bare_anywhere: bool) -> None:
        self.globs = globs
        self.bare_anywhere = bare_anywhere
        self._index: GlobIndex[int] | None = None

    @property
    def indexed(self) -> bool:
        """Whether a lookup has built the index yet."""
        return self._index is not None

    def lookup(self, path: PathSpellings) -> bool:
        """Whether a spelling of ``path`` matches one of the globs."""
        index = self._index
        if index is None:
            index = self._index = GlobIndex([(0, g) for g in self.globs], bare_anywhere=self.bare_anywhere)
        return bool(index.lookup(path))


def glob_gate(globs: Iterable[str], *, bare_anywhere: bool = True) -> PathGate | None:
    """A gate for ``globs`` (``None`` when there are none: no gate).

    ``bare_anywhere=False`` for a rule's own globs, which discovery wrote in the matcher's
    reading (``discovery.placement.dialect_glob``); scope tokens keep ruleweave's reading.
    """
    kept = tuple(g for g in globs if g)
    return PathGate(kept, bare_anywhere=bare_anywhere) if kept else None
