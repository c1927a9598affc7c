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
from ruleweave.paths import is_within, normalise, walk_down
from ruleweave.rules import DiscoveryWarning

CACHED_PARENTS = 16_384
"""Touched files' directories whose answer is remembered (least recently used forgotten)."""

CACHED_DIRECTORIES = 4_096
"""Directories whose processed instruction files are remembered (least recently used forgotten)."""


class NestedInstructions:
    """Instruction files in directories below the walk, found per touched path.

    Created once per ``RuleSet`` and shared by its sessions: each directory is
    looked up once and its processed files cached, so a repeated touch costs
    no I/O. Both caches are bounded (``CACHED_PARENTS``,
    ``CACHED_DIRECTORIES``), so invented paths cannot grow memory without
    limit. Concurrent lookups of one directory may both compute it; the first
    stored result wins, so every caller sees the same files.
    """

    def __init__(self, config: RuleweaveConfig, blob: InstructionBlob | None = None) -> None:
        """Prepare the lookup.

        Args:
            config: The configuration (root, cwd, file list, limits).
            blob: The session-start blob; files it already includes are skipped.
        """
        self._config = config
        self._root = normalise(config.root)
        self._walk = frozenset(walk_down(self._root, normalise(config.cwd)))
        self._seen = blob.seen if blob is not None else frozenset()
        self._cwd = str(normalise(config.cwd))
        root = str(self._root)
        self._root_prefix = root if root.endswith(os.sep) else root + os.sep
        self._cache: LruCache[Path, tuple[NestedFile, ...]] = LruCache(CACHED_DIRECTORIES)
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
        the blob) are skipped. The path itself need not exist.

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
        if not parent.startswith(self._root_prefix) and parent != str(self._root):
            return []
        found: list[NestedFile] = []
        for directory in walk_down(self._root, Path(parent)):
            if directory != self._root and directory not in self._walk:
                found.extend(self._files_in(directory))
        self._by_parent.setdefault(parent, tuple(found))
        return found

    def _files_in(self, directory: Path) -> tuple[NestedFile, ...]:
        cached = self._cache.get(directory)
        if cached is not None:
            return cached
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
            stored = self._cache.setdefault(directory, result)
            if stored is result:
                self._warnings.update(dict.fromkeys(ctx.warnings))
        return stored
