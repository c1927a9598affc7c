"""Nested rule folders: ``apps/web/.cursor/rules`` and the like, read on a tool call's first touch.

A monorepo keeps rules next to the code they govern. Every provider's
project folders found in a directory below the walk are read the first time
a tool call touches a path under that directory (as nested ``AGENTS.md``
files are), so loading still costs only the files on the root→cwd walk.
A folder's rules are placed in its directory (``discovery.placement``):
named ``<dir>:<name>``, globs rebased onto the directory. On a touch under
the directory:

* its scoped rules fire on their (rebased) globs, like the root's;
* its always-apply rules — and unscoped Claude rules, which Claude Code loads
  for the subtree — arrive as notices on the first touch;
* its description-only rules are named in one listing notice as ``rule://``
  addresses (``rule://apps/web:deploy``), which resolve through ``find``.

Streamed (TTSR) rules of nested folders are not watched: the watcher's index
is built at load; each is reported as a warning. Ignored directories and
links out of the project are never read (``tree.ProjectTree``).
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import os
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from ruleweave._files.tree import ProjectTree
from ruleweave._lru import LruCache
from ruleweave.buckets import assign
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery import discover_directory
from ruleweave.discovery.placement import SEPARATOR
from ruleweave.globs import GlobIndex
from ruleweave.rules import Bucket, DiscoveryWarning, Rule

FOLDER_MARKERS = frozenset(
    {
        ".agent", ".agents", ".claude", ".clinerules", ".continue", ".cursor", ".cursorrules",
        ".github", ".kiro", ".ruleweave", ".windsurf", ".windsurfrules",
        ".cline", ".devin", "rules.md",  # Cline's 2nd layout, Windsurf's new name, Continue's rules.md
    }
)
"""Entry names whose presence in a directory means it may hold rule folders."""

CACHED_FOLDERS = 4_096
"""Directories whose nested rules are remembered (least recently used forgotten)."""

_NO_GLOBS: GlobIndex[str] = GlobIndex(())


class NestedFolder(NamedTuple):
    """The rules of the rule folders in one directory below the walk.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        directory: The absolute directory.
        prefix: It relative to the project root (the rules' name prefix).
        notices: Always-apply (and unscoped Claude) rules: a notice on first touch.
        listed: Description-only rules: named as ``rule://`` in the listing notice.
        glob_index: The scoped rules' rebased globs.
        rules: Every rule, by name (what ``rule://`` resolves).
        buckets: Each rule's bucket.
        warnings: Problems met reading the folders.
    """

    directory: str
    prefix: str
    notices: tuple[Rule, ...] = ()
    listed: tuple[Rule, ...] = ()
    glob_index: GlobIndex[str] = _NO_GLOBS
    rules: Mapping[str, Rule] = MappingProxyType({})
    buckets: Mapping[str, Bucket] = MappingProxyType({})
    warnings: tuple[DiscoveryWarning, ...] = ()

    @property
    def empty(self) -> bool:
        """No rule at all."""
        return not self.rules

    @property
    def content_gated(self) -> bool:
        """Whether a rule here is gated on file content (then a path alone does not decide its notices)."""
        return any(rule.content_regex for rule in self.rules.values())


class NestedRules:
    """Nested rule folders of a rule set, read per touched directory and remembered.

    Args:
        config: The configuration.
        tree: The project's directory answers (shared with nested instruction files).
    """

    def __init__(self, config: RuleweaveConfig, tree: ProjectTree) -> None:
        self.config = config
        self.tree = tree
        self._folders: LruCache[str, NestedFolder] = LruCache(CACHED_FOLDERS)
        self._by_parent: LruCache[str, tuple[NestedFolder, ...]] = LruCache(CACHED_FOLDERS * 4)
        self._warnings: dict[DiscoveryWarning, None] = {}
        self._lock = _thread.allocate_lock()

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Problems met in the folders read so far."""
        with self._lock:
            return tuple(self._warnings)

    def for_directory(self, parent: str) -> tuple[NestedFolder, ...]:
        """The non-empty folders that speak for files in ``parent`` (outermost first).

        Args:
            parent: The absolute, normalised directory of a touched path.
        """
        cached = self._by_parent.get(parent)
        if cached is not None:
            return cached
        chain = self.tree.chain(parent)
        if not chain:
            return self._by_parent.setdefault(parent, ())
        if chain[-1] != parent:  # ignored or on the walk: the nearest directory that speaks
            return self._by_parent.setdefault(parent, self.for_directory(chain[-1]))
        # Built on the longest cached head of the chain (a first touch reads one new directory).
        known, found = self._by_parent.last_cached(chain[:-1], ())
        for directory in chain[known:]:
            if not self.tree.names(directory).isdisjoint(FOLDER_MARKERS):
                folder = self.folder(directory)
                if not folder.empty:
                    found = (*found, folder)
            found = self._by_parent.setdefault(directory, found)
        return found

    def folder(self, directory: str) -> NestedFolder:
        """The rules of the folders in ``directory`` (read once, then remembered)."""
        cached = self._folders.get(directory)
        if cached is not None:
            return cached
        prefix = self.tree.relative(directory)
        if self.tree.names(directory).isdisjoint(FOLDER_MARKERS):
            return self._folders.setdefault(directory, NestedFolder(directory, prefix))
        return self._folders.setdefault(directory, self._read(directory, prefix))

    def _read(self, directory: str, prefix: str) -> NestedFolder:
        found = discover_directory(self.config, Path(directory))
        buckets = assign(found.rules)
        warnings = [*found.warnings, *buckets.warnings]
        warnings.extend(
            DiscoveryWarning(
                path=rule.path, provider=rule.source.provider,
                message=f"rule {rule.name!r} is a streamed (TTSR) rule in a nested folder; "
                "those are not watched (move it to the root's rule folder)",
            )
            for rule in buckets.ttsr
        )
        folder = NestedFolder(
            directory=directory,
            prefix=prefix,
            notices=(*buckets.generic, *buckets.instructions),
            listed=buckets.rulebook,
            glob_index=GlobIndex((rule.name, glob) for rule in buckets.scoped for glob in rule.globs),
            rules={rule.name: rule for rule in found.rules},
            buckets=dict(buckets.by_rule),
            warnings=tuple(warnings),
        )
        with self._lock:
            self._warnings.update(dict.fromkeys(folder.warnings))
        return folder

    def find(self, name: str) -> tuple[Rule, Bucket] | None:
        """The nested rule called ``name`` (``<dir>:<rule>``) and its bucket, reading its folder if needed."""
        directory, sep, _ = name.partition(SEPARATOR)
        if not sep or not directory or directory.startswith("/") or "\x00" in directory:
            return None
        path = os.path.normpath(os.path.join(self.tree.root, directory))
        chain = self.tree.chain(path)
        if not chain or chain[-1] != path:  # outside, on the walk, or ignored
            return None
        folder = self.folder(path)
        rule = folder.rules.get(name)
        return None if rule is None else (rule, folder.buckets.get(name, Bucket.MANUAL))

    def loaded_names(self) -> tuple[str, ...]:
        """Names of the nested rules read so far, sorted."""
        return tuple(sorted(name for d in self._folders for name in self._folders_get(d)))

    def _folders_get(self, directory: str) -> Mapping[str, Rule]:
        folder = self._folders.get(directory)
        return folder.rules if folder is not None else {}

    def all_folders(self) -> list[NestedFolder]:
        """Every non-empty nested folder in the project, walking the whole tree (for ``scan --all``)."""
        out: list[NestedFolder] = []
        stack = [self.tree.root]
        while stack:
            directory = stack.pop()
            names = sorted(self.tree.names(directory), reverse=True)
            for name in names:
                child = os.path.join(directory, name)
                if name in FOLDER_MARKERS or not os.path.isdir(child) or os.path.islink(child):
                    continue
                if self.tree.ignored(child):
                    continue
                stack.append(child)
            chain = self.tree.chain(directory)
            if directory != self.tree.root and chain and chain[-1] == directory:
                folder = self.folder(directory)
                if not folder.empty:
                    out.append(folder)
        return sorted(out, key=lambda f: f.prefix)
