"""Nested instruction files: those in directories below the walk, per touched path (DESIGN §6)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext
from ruleweave.instructions.budget import cut_to_share
from ruleweave.instructions.imports import Expander
from ruleweave.instructions.model import InstructionBlob, NestedFile
from ruleweave.lru import LruCache
from ruleweave.paths import is_within, normalise
from ruleweave.rules import DiscoveryWarning
from ruleweave.tree import ProjectTree

CACHED_PARENTS = 16_384
"""Touched files' directories whose answer is remembered (least recently used forgotten)."""

CACHED_DIRECTORIES = 4_096
"""Directories whose processed instruction files are remembered (least recently used forgotten)."""

_NONE: tuple[NestedFile, ...] = ()


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
        self._names = frozenset(name for name in config.instruction_files if "/" not in name)
        # ``.claude/CLAUDE.md`` and the like: the first component must be listed.
        self._nested_heads = frozenset(n.split("/", 1)[0] for n in config.instruction_files if "/" in n)
        self._cache: LruCache[str, tuple[NestedFile, ...]] = LruCache(CACHED_DIRECTORIES)
        self._by_parent: LruCache[str, tuple[NestedFile, ...]] = LruCache(CACHED_PARENTS)
        # Keyed by content: a directory looked up again after eviction warns once.
        self._warnings: dict[DiscoveryWarning, None] = {}
        self._lock = threading.Lock()

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
        itself need not exist.

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
        path = os.path.normpath(raw if os.path.isabs(raw) else os.path.join(self._cwd, raw))
        parent = os.path.dirname(path)
        cached = self._by_parent.get(parent)
        if cached is not None:
            return list(cached)
        found: list[NestedFile] = []
        for directory in self.tree.chain(parent) or ():
            found.extend(self._files_in(directory))
        self._by_parent.setdefault(parent, tuple(found))
        return found

    def _files_in(self, directory: str) -> tuple[NestedFile, ...]:
        cached = self._cache.get(directory)
        if cached is not None:
            return cached
        listed = self.tree.names(directory)
        if not (self._names & listed) and not (self._nested_heads & listed):
            return self._cache.setdefault(directory, _NONE)
        return self._read(Path(directory))

    def _read(self, directory: Path) -> tuple[NestedFile, ...]:
        ctx = DiscoveryContext(self._config, walk=[directory])
        expander = Expander(self._config, ctx, self._seen)
        limit = self._config.instructions_max_bytes
        files: list[NestedFile] = []
        for name in self._config.instruction_files:
            path = normalise(directory / name)
            if not is_within(path, directory) or path == directory:
                continue
            body = expander.file(path, "project")
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
        result = tuple(files)
        with self._lock:
            stored = self._cache.setdefault(str(directory), result)
            if stored is result:
                self._warnings.update(dict.fromkeys(ctx.warnings))
        return stored
