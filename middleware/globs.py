"""One glob dialect for the whole product, and an index that matches many globs fast.

The dialect is wcmatch's ``glob`` with globstar (``a/**/b`` also matches
``a/b``), braces (``*.{ts,tsx}``) and dotfiles matched by wildcards. A glob
with an unclosed ``[`` is malformed and matches nothing, and so does one
whose braces expand to more than wcmatch's limit of alternatives.

A glob is tried against three spellings of a path: relative to the project
root, absolute, and the bare file name (seed 001).

``GlobIndex`` files globs by the literal suffix or file name their last
segment demands and by their literal directory prefix, so one lookup tests
only the few globs that can match; each glob's regex is compiled the first
time a lookup needs it, so building the index costs no compilation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import bracex
from wcmatch import glob as wcglob

FLAGS = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.DOTGLOB
# A backslash escapes the next character; the index treats it as magic (no literal
# prefix, suffix or name is read past it) so that only the compiled glob decides.
_MAGIC = re.compile(r"[*?\[\\]")
_SUFFIX_ONLY = re.compile(r"^\*(\.[^*?\[\]/{}\\]+)$")
_SLASHES = re.compile(r"/{2,}")
_EXPANSION_LIMIT = 256

K = TypeVar("K")


def is_malformed(pattern: str) -> bool:
    """A glob with a ``[`` that is never closed."""
    depth_open = False
    escaped = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "[":
            depth_open = True
        elif char == "]":
            depth_open = False
    return depth_open


def _never(_: str) -> bool:
    return False


def compile_glob(pattern: str) -> Callable[[str], bool]:
    """A predicate testing one path spelling against ``pattern``."""
    if not pattern or is_malformed(pattern):
        return _never
    try:
        include, _exclude = wcglob.translate(pattern, flags=FLAGS)
    except Exception:
        return _never
    regex = re.compile("|".join(f"(?:{part})" for part in include))
    return lambda path: regex.match(path) is not None


@dataclass(frozen=True, slots=True)
class PathSpellings:
    """The three spellings a glob is tried against.

    Attributes:
        relative: Posix path relative to the project root, or ``None`` outside it.
        absolute: Posix absolute path.
        name: The bare file name.
    """

    relative: str | None
    absolute: str
    name: str

    @classmethod
    def of(cls, path: str, root_prefix: str) -> PathSpellings:
        """The spellings of an absolute, normalised path (string work only: a hot path).

        Args:
            path: The path.
            root_prefix: The project root followed by one ``/``.

        Returns:
            The spellings; ``relative`` is ``None`` outside the project.
        """
        inside = path.startswith(root_prefix) and len(path) > len(root_prefix)
        return cls(path[len(root_prefix) :] if inside else None, path, path.rsplit("/", 1)[-1])


def matches(pattern: str, path: PathSpellings) -> bool:
    """Whether ``pattern`` matches any spelling of ``path`` (uncached; for one-offs)."""
    test = compile_glob(pattern)
    return any(test(s) for s in (path.relative, path.absolute, path.name) if s is not None)


@dataclass(slots=True)
class _Entry(Generic[K]):
    pattern: str
    alternative: str
    prefix: str
    keys: list[K] = field(default_factory=list)
    test: Callable[[str], bool] | None = None

    def check(self, path: PathSpellings) -> bool:
        if self.test is None:
            self.test = compile_glob(self.alternative)
        test = self.test
        if self.prefix and not self.prefix.startswith("/"):
            # A literal relative directory prefix can only match the relative spelling.
            rel = path.relative
            return rel is not None and rel.startswith(self.prefix) and test(rel)
        if path.relative is not None and test(path.relative):
            return True
        name_ok = "\\" in self.alternative or "/" not in self.alternative.lstrip("*/")
        return test(path.absolute) or (name_ok and test(path.name))


@dataclass(slots=True)
class _Bucket(Generic[K]):
    """Entries sharing a last-segment key, split by literal relative directory prefix."""

    anchored: dict[str, list[_Entry[K]]] = field(default_factory=dict)
    floating: list[_Entry[K]] = field(default_factory=list)

    def add(self, entry: _Entry[K]) -> None:
        if entry.prefix and not entry.prefix.startswith("/"):
            self.anchored.setdefault(entry.prefix, []).append(entry)
        else:
            self.floating.append(entry)

    def candidates(self, ancestors: list[str]) -> list[_Entry[K]]:
        out = list(self.floating)
        if self.anchored:
            for prefix in ancestors:
                found = self.anchored.get(prefix)
                if found:
                    out.extend(found)
        return out


_ONE_GROUP = re.compile(r"^([^{}\\]*)\{([^{}\\]*,[^{}\\]*)\}([^{}\\]*)$")


def _alternatives(pattern: str) -> list[str]:
    if "{" not in pattern:
        return [pattern]
    simple = _ONE_GROUP.match(pattern)
    if simple is not None and ".." not in simple.group(2):
        # The common `*.{ts,tsx}`: one flat group, no escapes or ranges. bracex
        # gives the same list, at many times the cost on a 1,000-rule load.
        head, tail = simple.group(1), simple.group(3)
        return list(dict.fromkeys(head + alt + tail for alt in simple.group(2).split(",")))
    try:
        # keep_escapes: an escaped brace or comma must reach wcmatch still escaped.
        expanded = bracex.expand(pattern, keep_escapes=True, limit=_EXPANSION_LIMIT)
    except Exception:
        return [pattern]
    return list(dict.fromkeys(expanded)) or [pattern]


def _literal_prefix(pattern: str) -> str:
    magic = _MAGIC.search(pattern)
    head = pattern if magic is None else pattern[: magic.start()]
    slash = head.rfind("/")
    # wcmatch reads ``a//b`` as ``a/b``; the prefix must too, or it never matches.
    return _SLASHES.sub("/", head[: slash + 1]) if slash >= 0 else ""


def _ancestors(relative: str | None) -> list[str]:
    """``a/b/c.ts`` → ``["a/", "a/b/"]``: every literal prefix an anchored glob can have."""
    if not relative:
        return []
    out = []
    index = relative.find("/")
    while index >= 0:
        out.append(relative[: index + 1])
        index = relative.find("/", index + 1)
    return out


def _suffixes(name: str) -> list[str]:
    """``a.gen.ts`` → ``[".gen.ts", ".ts"]``: every literal suffix a ``*.x`` glob can demand."""
    out = []
    index = name.find(".")
    while index >= 0:
        out.append(name[index:])
        index = name.find(".", index + 1)
    return out


class GlobIndex(Generic[K]):
    """Many globs, each carrying keys (e.g. rule names), matched against a path.

    Each glob alternative (braces expanded) is filed by what its last
    segment demands — a literal suffix (``*.gen.ts`` → ``.gen.ts``), a
    literal file name (``Dockerfile``) or nothing — and then by its literal
    directory prefix (``services/api/``). A lookup visits only the buckets
    of the path's suffixes, name and ancestor directories, so its cost
    follows the globs that could match, not the number of globs.

    Args:
        items: ``(key, glob)`` pairs; a glob may carry several keys.
    """

    def __init__(self, items: Iterable[tuple[K, str]]) -> None:
        self._by_suffix: dict[str, _Bucket[K]] = {}
        self._by_name: dict[str, _Bucket[K]] = {}
        self._rest: _Bucket[K] = _Bucket()
        self._order: dict[int, int] = {}
        entries: dict[tuple[str, str], _Entry[K]] = {}
        for key, pattern in items:
            if not pattern or is_malformed(pattern):
                continue
            for alternative in _alternatives(pattern):
                entry = entries.get((pattern, alternative))
                if entry is None:
                    entry = _Entry(pattern, alternative, _literal_prefix(alternative))
                    entries[(pattern, alternative)] = entry
                    self._order[id(entry)] = len(self._order)
                    self._place(entry)
                if key not in entry.keys:
                    entry.keys.append(key)
        self.size = len(entries)

    def _place(self, entry: _Entry[K]) -> None:
        last = entry.alternative.rstrip("/").rsplit("/", 1)[-1]
        suffix = _SUFFIX_ONLY.match(last)
        if suffix is not None:
            self._by_suffix.setdefault(suffix.group(1), _Bucket()).add(entry)
        elif last and _MAGIC.search(last) is None and "{" not in last:
            self._by_name.setdefault(last, _Bucket()).add(entry)
        else:
            self._rest.add(entry)

    def lookup(self, path: PathSpellings) -> list[tuple[K, str]]:
        """Every ``(key, glob)`` whose glob matches a spelling of ``path``, in index order.

        Args:
            path: The path's three spellings.

        Returns:
            Matching pairs, each key at most once (with the first glob that matched).
        """
        ancestors = _ancestors(path.relative)
        candidates = self._rest.candidates(ancestors)
        by_name = self._by_name.get(path.name)
        if by_name is not None:
            candidates += by_name.candidates(ancestors)
        for suffix in _suffixes(path.name):
            bucket = self._by_suffix.get(suffix)
            if bucket is not None:
                candidates += bucket.candidates(ancestors)
        if len(candidates) > 1:
            order = self._order
            candidates.sort(key=lambda entry: order[id(entry)])
        out: list[tuple[K, str]] = []
        seen: set[K] = set()
        for entry in candidates:
            if entry.check(path):
                for key in entry.keys:
                    if key not in seen:
                        seen.add(key)
                        out.append((key, entry.pattern))
        return out
