"""Nested instruction files: those in directories below the walk, per touched path (docs/notices.md)."""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import os
from pathlib import Path

from ruleweave._files.paths import normalise
from ruleweave._files.tree import ProjectTree
from ruleweave._kernel.paths import absolute
from ruleweave._lru import LruCache
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.instructions.budget import cut_to_share
from ruleweave.instructions.formats import plan, present
from ruleweave.instructions.imports import Expander
from ruleweave.instructions.model import InstructionBlob, NestedFile, ScopedFile
from ruleweave.rules import DiscoveryWarning

CACHED_PARENTS = 16_384
"""Touched files' directories whose answer is remembered (least recently used forgotten)."""

CACHED_DIRECTORIES = 4_096
"""Directories whose processed instruction files are remembered (least recently used forgotten)."""

_Found = tuple[tuple[NestedFile, ...], tuple[ScopedFile, ...]]
"""A directory's files: those that always apply below it, and Amp's ``globs:`` files."""

_NONE: _Found = ((), ())


class NestedInstructions:
    """Instruction files in directories below the walk, found per touched path.

    Created once per ``RuleSet`` and shared by its sessions. The directories
    between the root and a touched path come from ``ProjectTree`` (one cached
    listing per directory, ignored trees and links out of the project left
    out), so a first touch costs a ``scandir`` per new directory and a repeat
    a dictionary lookup; a directory's files are processed once. Both caches
    are bounded (``CACHED_PARENTS``, ``CACHED_DIRECTORIES``). Concurrent
    lookups of one directory may both compute it; the first stored result
    wins, so every caller sees the same files.
    """

    def __init__(
        self, config: RuleweaveConfig, blob: InstructionBlob | None = None, tree: ProjectTree | None = None
    ) -> None:
        """Prepare the lookup.

        Args:
            config: The configuration (root, cwd, file list, limits).
            blob: The session-start blob; files it already includes are skipped.
            tree: The project's directory answers (default: a new one).
        """
        self._config = config
        self.tree = tree if tree is not None else ProjectTree(config)
        self._seen = blob.seen if blob is not None else frozenset()
        self._cwd = str(normalise(config.cwd))
        known = blob.formats if blob is not None and blob.formats else plan(config)
        # Zed's ``.rules`` and the like are read in the project root only, never below it.
        self._formats = tuple(f for f in known if not f.root_only)
        names = [f.name for f in self._formats]
        self._names = frozenset(name for name in names if "/" not in name)
        # ``.claude/CLAUDE.md`` and the like: the first component must be listed.
        self._nested_heads = frozenset(n.split("/", 1)[0] for n in names if "/" in n)
        self._root = str(normalise(config.root))
        self._walk_scoped = blob.scoped if blob is not None else ()
        self._cache: LruCache[str, _Found] = LruCache(CACHED_DIRECTORIES)
        self._by_parent: LruCache[str, _Found] = LruCache(CACHED_PARENTS)
        # Keyed by content: a directory looked up again after eviction warns once.
        self._warnings: dict[DiscoveryWarning, None] = {}
        self._lock = _thread.allocate_lock()

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Problems met in the directories looked up so far."""
        with self._lock:
            return tuple(self._warnings)

    def for_path(self, abs_path: str | os.PathLike[str]) -> list[NestedFile]:
        """The nested instruction files whose directory contains ``abs_path``.

        Only the directories between the project root and the path's parent
        are checked, outermost first; those on the root→cwd walk (already in
        the blob), ignored ones and those below them are skipped. The path
        itself need not exist. A file with ``globs:`` frontmatter (Amp), on the
        walk or below it, comes only when the path matches one of its globs.

        Args:
            abs_path: The touched path (a relative one is taken against cwd).

        Returns:
            The files, outermost directory first, in the configured order
            within a directory; empty for a path outside the project.
        """
        try:
            raw = os.fspath(abs_path)
        except TypeError:
            return []
        if not isinstance(raw, str) or not raw or "\x00" in raw:
            return []
        path = absolute(raw, self._cwd)  # after every tool call: normpath only when the path needs it
        slash = path.rfind("/")  # a normalised path's parent, without dirname's Python code
        parent = (path[:slash] or "/") if os.sep == "/" else os.path.dirname(path)
        files, candidates = self.for_directory(parent)
        found = list(files)
        if candidates and path.startswith(self._root + os.sep):
            relative = path[len(self._root) + 1 :].replace(os.sep, "/")
            found.extend(s.file for s in candidates if s.match(relative))
        return found

    def for_directory(self, parent: str) -> _Found:
        """What ``for_path`` reads for the files of one directory: the files that apply to each of
        them, and the ``globs:`` files (Amp's, the walk's first) that apply to those they match.

        Args:
            parent: The absolute, normalised directory of a touched path.
        """
        files, scoped = self._for_parent(parent)
        return files, ((*self._walk_scoped, *scoped) if self._walk_scoped else scoped)

    def _for_parent(self, parent: str) -> _Found:
        """The files for a touched path in ``parent``: its chain's, each directory's read once."""
        cached = self._by_parent.get(parent)
        if cached is not None:
            return cached
        chain = self.tree.chain(parent)
        if not chain:
            return self._by_parent.setdefault(parent, _NONE)
        if chain[-1] != parent:  # ignored or on the walk: the nearest directory that speaks
            return self._by_parent.setdefault(parent, self._for_parent(chain[-1]))
        # Built on the longest cached head of the chain (a first touch reads one new directory).
        known, found = self._by_parent.last_cached(chain[:-1], _NONE)
        for directory in chain[known:]:
            files, scoped = self._files_in(directory)
            if files or scoped:
                found = (*found[0], *files), (*found[1], *scoped)
            found = self._by_parent.setdefault(directory, found)
        return found

    def _files_in(self, directory: str) -> _Found:
        listed = self.tree.names(directory)  # cached: most directories hold no instruction file
        if self._names.isdisjoint(listed) and self._nested_heads.isdisjoint(listed):
            return _NONE
        cached = self._cache.get(directory)
        if cached is not None:
            return cached
        return self._read(Path(directory), listed)

    def _read(self, directory: Path, listed: frozenset[str]) -> _Found:
        ctx = DiscoveryContext(self._config, walk=[directory])
        expander = Expander(self._config, ctx, self._seen)
        limit = self._config.instructions_max_bytes
        files: list[NestedFile] = []
        for path, fmt in present(ctx, directory, self._formats, root_dir=False, listed=listed):
            body = expander.file(path, "project", imports=fmt.imports, checked=True, depth=fmt.import_depth)
            if not body:
                continue
            shown = expander.display(path, "project")
            data = body.encode("utf-8")
            if len(data) <= limit:
                files.append(NestedFile(str(path), shown, body))
                continue
            cut = cut_to_share(data, limit, shown)
            text, dropped = cut if cut is not None else (b"", len(data))
            ctx.warn(path, f"over the {limit}-byte instruction cap; {dropped} bytes dropped")
            files.append(NestedFile(str(path), shown, text.decode("utf-8"), True, dropped))
        result = (tuple(files), tuple(expander.scoped))
        with self._lock:
            stored = self._cache.setdefault(str(directory), result)
            if stored is result:
                self._warnings.update(dict.fromkeys(ctx.warnings))
        return stored

