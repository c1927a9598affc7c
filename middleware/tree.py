"""The project's directories as tool calls reach them: listings, ignored trees, containment.

Nested instruction files and nested rule folders are looked up per touched
directory; both ask this module the same questions, on ``str`` paths:

* ``chain(directory)`` — the directories from just below the project root
  down to ``directory`` that may speak for it: not on the root→cwd walk
  (those were read at load), not ignored, not reached through a link that
  leaves the project. ``None`` when ``directory`` is outside the project.
* ``names(directory)`` — one cached listing per directory (a ``frozenset`` of
  entry names), so a first touch costs one ``scandir`` per new directory
  and a repeat costs dictionary lookups.
* ``ignored(directory)`` — git's semantics: every ``.gitignore`` from the
  root down, ``.git/info/exclude``, negations, deeper files winning (the
  matcher is ``pathspec``); plus ``.git`` always, ``RuleweaveConfig.ignored_dirs``,
  and, when the repository has no ``.gitignore`` at all, the usual
  dependency folders (``node_modules``, ``.venv``, ``venv``,
  ``site-packages``, ``__pypackages__``, ``.tox``).

Every cache is an ``LruCache`` (``CACHED_DIRECTORIES`` entries).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path

import pathspec

from ruleweave.config import RuleweaveConfig
from ruleweave.lru import LruCache
from ruleweave.paths import real_inside, walk_down
from ruleweave.reading import read_text
from ruleweave.rules import DiscoveryWarning

CACHED_DIRECTORIES = 8_192
"""Directories whose listing and ignore verdict are remembered (least recently used forgotten)."""

DEPENDENCY_DIRS = ("node_modules", ".venv", "venv", "site-packages", "__pypackages__", ".tox")
"""Ignored when the repository has no ``.gitignore`` (a vendored dependency is not the project's voice)."""

_ALWAYS = frozenset({".git"})
_NO_NAMES: frozenset[str] = frozenset()


class ProjectTree:
    """Directory questions for one rule set (shared by its sessions; thread-safe caches).

    Args:
        config: Root, cwd, ``ignored_dirs`` and read limits.
    """

    def __init__(self, config: RuleweaveConfig) -> None:
        self.config = config
        self.root = os.path.normpath(str(config.root))
        self._root_prefix = self.root.rstrip(os.sep) + os.sep
        self._real_root = os.path.realpath(self.root)
        self._walk = frozenset(str(d) for d in walk_down(config.root, config.cwd))
        self._names: LruCache[str, frozenset[str]] = LruCache(CACHED_DIRECTORIES)
        self._ignored: LruCache[str, bool] = LruCache(CACHED_DIRECTORIES)
        self._chains: LruCache[str, tuple[str, ...]] = LruCache(CACHED_DIRECTORIES)
        self._warnings: dict[DiscoveryWarning, None] = {}
        self._warned_lock = threading.Lock()
        self._specs: LruCache[str, tuple[pathspec.GitIgnoreSpec | None]] = LruCache(CACHED_DIRECTORIES)
        extra = frozenset(config.ignored_dirs) | _ALWAYS
        self._ignored_names = extra if self._any_gitignore() else extra | frozenset(DEPENDENCY_DIRS)

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Directories met on tool calls that could not be read (links out of the project)."""
        with self._warned_lock:
            return tuple(self._warnings)

    # -- listings ---------------------------------------------------------------

    def names(self, directory: str) -> frozenset[str]:
        """The entry names of ``directory`` (empty when it cannot be listed)."""
        found = self._names.get(directory)
        if found is None:
            try:
                found = frozenset(os.listdir(directory))
            except (OSError, ValueError):
                found = _NO_NAMES
            found = self._names.setdefault(directory, found)
        return found

    def inside(self, path: str) -> bool:
        """Whether the absolute, normalised ``path`` lies strictly below the project root."""
        return path.startswith(self._root_prefix)

    # -- the chain of a touched directory ----------------------------------------

    def chain(self, directory: str) -> tuple[str, ...] | None:
        """Directories below the root down to ``directory`` that may hold nested rules or instructions.

        Args:
            directory: An absolute, normalised directory.

        Returns:
            The directories, outermost first, leaving out those on the walk; the
            chain stops before an ignored directory or one reached through a link
            out of the project. ``None`` when ``directory`` is not inside the project.
        """
        if directory != self.root and not self.inside(directory):
            return None
        cached = self._chains.get(directory)
        if cached is not None:
            return cached
        out: list[str] = []
        current = self.root
        for part in directory[len(self._root_prefix):].split(os.sep) if directory != self.root else ():
            if not part:
                continue
            current = current + os.sep + part if current != os.sep else os.sep + part
            if self.ignored(current):
                break
            if current not in self._walk:
                out.append(current)
        return self._chains.setdefault(directory, tuple(out))

    def relative(self, directory: str) -> str:
        """``directory`` (inside the project) relative to the root, ``/``-separated."""
        if directory == self.root:
            return ""
        return directory[len(self._root_prefix) :].replace(os.sep, "/")

    # -- ignored trees -----------------------------------------------------------

    def ignored(self, directory: str) -> bool:
        """Whether ``directory`` (strictly below the root) is ignored or leaves the project via a link."""
        known = self._ignored.get(directory)
        if known is not None:
            return known
        parent = os.path.dirname(directory)
        verdict = (parent != self.root and self.inside(parent) and self.ignored(parent)) or self._decide(
            directory
        )
        return self._ignored.setdefault(directory, verdict)

    def _decide(self, directory: str) -> bool:
        name = os.path.basename(directory)
        if name in self._ignored_names:
            return True
        if os.path.islink(directory):
            real = os.path.realpath(directory)
            if real != self._real_root and not real.startswith(self._real_root.rstrip(os.sep) + os.sep):
                # A link out of the project is never part of it; say which, once per directory.
                message = f"is a symbolic link leading outside the project ({real}); not read"
                with self._warned_lock:
                    self._warnings.setdefault(DiscoveryWarning(path=directory, message=message))
                return True
        verdict: bool | None = None
        for level in self._levels(os.path.dirname(directory)):
            spec = self._spec(level)
            if spec is None:
                continue
            rel = os.path.relpath(directory, level).replace(os.sep, "/") + "/"
            result = spec.check_file(rel).include
            if result is not None:
                verdict = result
        return bool(verdict)

    def _levels(self, parent: str) -> Iterable[str]:
        """The directories whose ignore files apply to entries of ``parent``: root first."""
        yield self.root
        if parent == self.root:
            return
        current = self.root
        for part in parent[len(self._root_prefix):].split(os.sep):
            current = current + os.sep + part
            yield current

    def _spec(self, level: str) -> pathspec.GitIgnoreSpec | None:
        held = self._specs.get(level)
        if held is not None:
            return held[0]
        lines: list[str] = []
        sources = [os.path.join(level, ".gitignore")]
        if level == self.root:
            sources.insert(0, os.path.join(level, ".git", "info", "exclude"))
        for source in sources:
            if os.path.basename(source) not in self.names(os.path.dirname(source)):
                continue
            if real_inside(source, self._real_root) is None:
                continue  # a .gitignore linking out of the project is not read
            text = read_text(Path(source), self.config.max_file_bytes).text
            if text:
                lines.extend(text.splitlines())
        spec = pathspec.GitIgnoreSpec.from_lines(lines) if lines else None
        return self._specs.setdefault(level, (spec,))[0]

    def _any_gitignore(self) -> bool:
        if ".gitignore" in self.names(self.root):
            return True
        return os.path.isfile(os.path.join(self.root, ".git", "info", "exclude"))
