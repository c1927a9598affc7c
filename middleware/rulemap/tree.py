"""The repository's directories as the map shows them: files per directory and the rules they attach.

Built from lint's file listing and its one glob pass (``lint.dead_globs.match_globs``):
each directory keeps, per ``(rule, glob)``, how many of its own files the
glob attaches the rule to. A large repository would make a page too big
to open, so past ``MAX_DIRECTORIES`` directories (or ``MAX_COVERAGE``
directory-rule entries) the deepest level is folded into its parents, level
by level: a folded directory counts its descendants' files and rules as its
own and says how many directories it stands for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

MAX_DIRECTORIES = 4_000
"""Directories the map shows at most; past it the deepest levels are folded."""

MAX_COVERAGE = 60_000
"""``(directory, rule, glob)`` entries the map holds at most; past it the deepest levels are folded."""

Coverage = dict[tuple[int, int], int]
"""Files of one directory each ``(rule index, glob index)`` attaches its rule to."""


def parent_of(directory: str) -> str:
    """The parent of a ``/``-separated directory relative to the root ('' is the root's own parent)."""
    return directory.rpartition("/")[0]


class DirectoryTree:
    """Directories in pre-order (the root first, each directory before its children, names sorted).

    Args:
        files: Files listed directly in each directory ('' for the root).
        coverage: Per directory, what its files attach (see ``Coverage``).
        max_directories: Fold past this many directories.
        max_coverage: Fold past this many coverage entries.
    """

    def __init__(
        self,
        files: Mapping[str, int],
        coverage: Mapping[str, Coverage],
        *,
        max_directories: int = MAX_DIRECTORIES,
        max_coverage: int = MAX_COVERAGE,
    ) -> None:
        counts: dict[str, int] = {"": 0}
        for directory, count in files.items():
            counts[directory] = counts.get(directory, 0) + count
            parent = directory
            while parent:
                parent = parent_of(parent)
                if parent in counts:
                    break
                counts[parent] = 0
        self.total = len(counts)
        cover: dict[str, Coverage] = {d: dict(c) for d, c in coverage.items() if d in counts}
        folded: dict[str, int] = {}
        depth = max((d.count("/") + 1 for d in counts if d), default=0)
        while depth > 1 and (
            len(counts) > max_directories or sum(map(len, cover.values())) > max_coverage
        ):
            for directory in [d for d in counts if d and d.count("/") + 1 == depth]:
                parent = parent_of(directory)
                counts[parent] += counts.pop(directory)
                folded[parent] = folded.get(parent, 0) + 1 + folded.pop(directory, 0)
                below = cover.pop(directory, None)
                if below:
                    into = cover.setdefault(parent, {})
                    for key, count in below.items():
                        into[key] = into.get(key, 0) + count
            depth -= 1
        self.folded_below: int | None = depth if folded else None
        self.paths: list[str] = sorted(counts, key=lambda d: d.split("/") if d else [])
        self.index: dict[str, int] = {path: i for i, path in enumerate(self.paths)}
        self.files = [counts[path] for path in self.paths]
        self.folded = [folded.get(path, 0) for path in self.paths]
        self.coverage: dict[int, Coverage] = {self.index[d]: c for d, c in cover.items() if c}

    def node_of(self, directory: str) -> int:
        """The node showing ``directory``: its own, or its nearest shown (folded) ancestor's; 0 when
        the directory is outside the project (``../x``, absolute) or unknown altogether."""
        if directory.startswith(("/", "../", "~")) or directory == "..":
            return 0
        while directory not in self.index:
            directory = parent_of(directory)
        return self.index[directory]

    def node_of_file(self, path: str) -> int:
        """The node of the directory holding ``path`` (a directory's own node when ``path`` is one)."""
        return self.index[path] if path in self.index else self.node_of(parent_of(path))

    def covers(self, rules: int) -> list[list[list[int]]]:
        """Per rule index, ``[node, glob index, files]`` for each node its globs attach it to, by node."""
        out: list[list[list[int]]] = [[] for _ in range(rules)]
        for node in sorted(self.coverage):
            for (rule, glob), count in sorted(self.coverage[node].items()):
                out[rule].append([node, glob, count])
        return out

    def as_json(self) -> list[dict[str, Any]]:
        """The nodes: ``path``, ``parent`` (a node index; ``None`` for the root), ``files`` listed
        directly in it, and ``folded`` (directories folded into it) when any."""
        out: list[dict[str, Any]] = []
        for i, path in enumerate(self.paths):
            node: dict[str, Any] = {
                "path": path,
                "parent": None if i == 0 else self.index[parent_of(path)],
                "files": self.files[i],
            }
            if self.folded[i]:
                node["folded"] = self.folded[i]
            out.append(node)
        return out


def directory_counts(paths: Iterable[str]) -> dict[str, int]:
    """Files per directory of ``/``-separated relative ``paths`` ('' for the root)."""
    counts: dict[str, int] = {}
    for path in paths:
        directory = parent_of(path)
        counts[directory] = counts.get(directory, 0) + 1
    return counts
