"""The project's directories as tool calls reach them: listings, ignored trees, containment.

Nested instruction files and nested rule folders are looked up per touched
directory; both ask this module the same questions, on ``str`` paths:

* ``chain(directory)`` — the directories from just below the project root
  down to ``directory`` that may speak for it: not on the root→cwd walk
  (those were read at load), not ignored, not reached through a link that
  leaves the project. ``None`` when ``directory`` is outside the project.
* ``names(directory)`` — one cached listing per directory (a ``frozenset`` of
  entry names), so a first touch costs one ``listdir`` and one ``lstat`` per
  new directory, and a repeat costs dictionary lookups.
* ``ignored(directory)`` — git's semantics: every ``.gitignore`` from the
  root down, ``.git/info/exclude``, negations, deeper files winning (the
  matcher is ``pathspec``); plus ``.git`` always, ``RuleweaveConfig.ignored_dirs``,
  and, when the repository has no ``.gitignore`` at all, the usual
  dependency folders (``node_modules``, ``.venv``, ``venv``,
  ``site-packages``, ``__pypackages__``, ``.tox``).

A directory below the root is one cached record (chain, verdict, listing,
the ignore files that apply to its entries) built from its parent's record,
so the questions above cost one lookup each once it is known. Every cache
is an ``LruCache`` (``CACHED_DIRECTORIES`` entries).
"""

from __future__ import annotations

import os
import threading
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from ruleweave._files.paths import real_inside, walk_down
from ruleweave._files.reading import read_text
from ruleweave._lru import LruCache
from ruleweave.config import RuleweaveConfig
from ruleweave.rules import DiscoveryWarning

if TYPE_CHECKING:
    import pathspec

CACHED_DIRECTORIES = 8_192
"""Directories whose listing and ignore verdict are remembered (least recently used forgotten)."""

DEPENDENCY_DIRS = ("node_modules", ".venv", "venv", "site-packages", "__pypackages__", ".tox")
"""Ignored when the repository has no ``.gitignore`` (a vendored dependency is not the project's voice)."""

_ALWAYS = frozenset({".git"})
_NO_NAMES: frozenset[str] = frozenset()


_Specs = tuple[tuple[str, "pathspec.GitIgnoreSpec"], ...]
"""Ignore files as ``(their directory with a trailing separator, the spec)``, root first."""


class _Dir(NamedTuple):
    """One directory: its chain, its verdict, and (unless ignored) its listing and ignore files."""

    chain: tuple[str, ...]
    ignored: bool
    names: frozenset[str]
    specs: _Specs
    missing: bool = False
    """It does not exist: nothing below it does, so no directory below it joins a chain."""


class ProjectTree:
    """Directory questions for one rule set (shared by its sessions; thread-safe caches).

    A directory's record is built from its parent's: a first touch of a new
    directory below a known one costs one ``listdir``, one ``lstat`` and a few
    dictionary lookups, no ``Path`` objects.

    Args:
        config: Root, cwd, ``ignored_dirs`` and read limits.
    """

    def __init__(self, config: RuleweaveConfig) -> None:
        self.config = config
        self.root = os.path.normpath(str(config.root))
        self._root_prefix = self.root.rstrip(os.sep) + os.sep
        self._real_root = os.path.realpath(self.root)
        self._real_prefix = self._real_root.rstrip(os.sep) + os.sep
        self._walk = frozenset(str(d) for d in walk_down(config.root, config.cwd))
        self._names: LruCache[str, frozenset[str]] = LruCache(CACHED_DIRECTORIES)
        self._dirs: LruCache[str, _Dir] = LruCache(CACHED_DIRECTORIES)
        self._warnings: dict[DiscoveryWarning, None] = {}
        self._warned_lock = threading.Lock()
        self._root_names = self._list(self.root)
        extra = frozenset(config.ignored_dirs) | _ALWAYS
        self._ignored_names = extra if self._any_gitignore() else extra | frozenset(DEPENDENCY_DIRS)

    @cached_property
    def _top(self) -> _Dir:
        """The root's record; its ignore files are read on the first touch, not at load."""
        return _Dir((), False, self._root_names, self._own_specs((), self.root, self._root_names))

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Directories met on tool calls that could not be read (links out of the project)."""
        with self._warned_lock:
            return tuple(self._warnings)

    # -- listings ---------------------------------------------------------------

    def names(self, directory: str) -> frozenset[str]:
        """The entry names of ``directory`` (empty when it cannot be listed)."""
        if directory == self.root:
            return self._root_names
        if directory.startswith(self._root_prefix):
            record = self._dir(directory)
            if not record.ignored:
                return record.names
        return self._listing(directory)

    def _listing(self, directory: str) -> frozenset[str]:
        """A directory without a record (outside the project, or ignored like ``.git/info``)."""
        found = self._names.get(directory)
        if found is None:
            found = self._names.setdefault(directory, self._list(directory))
        return found

    @staticmethod
    def _list(directory: str) -> frozenset[str]:
        # listdir, not scandir: its entries cost no Python objects, and only the
        # directories a chain passes through need their type (one lstat each).
        try:
            return frozenset(os.listdir(directory))
        except (OSError, ValueError):
            return _NO_NAMES

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
        if directory == self.root:
            return ()
        if not directory.startswith(self._root_prefix):
            return None
        return self._dir(directory).chain

    def relative(self, directory: str) -> str:
        """``directory`` (inside the project) relative to the root, ``/``-separated."""
        if directory == self.root:
            return ""
        return directory[len(self._root_prefix) :].replace(os.sep, "/")

    # -- ignored trees -----------------------------------------------------------

    def ignored(self, directory: str) -> bool:
        """Whether ``directory`` (strictly below the root) is ignored or leaves the project via a link."""
        if directory == self.root or not directory.startswith(self._root_prefix):
            return False
        return self._dir(directory).ignored

    def _dir(self, directory: str) -> _Dir:
        """The record of ``directory`` (strictly below the root), built from its parent's."""
        known = self._dirs.get(directory)
        if known is not None:
            return known
        # Up to the nearest known ancestor, then down: no recursion, however deep the path.
        pending = [directory]
        parent = directory[: directory.rfind(os.sep)] or os.sep
        above = self._top
        while parent != self.root:
            cached = self._dirs.get(parent)
            if cached is not None:
                above = cached
                break
            pending.append(parent)
            parent = parent[: parent.rfind(os.sep)] or os.sep
        for current in reversed(pending):
            if above.ignored:
                entry = above  # everything below an ignored directory is ignored, with the same chain
            elif self._decide(current, parent, above):
                entry = _Dir(above.chain, True, _NO_NAMES, ())
            elif above.missing:
                # Below a missing directory: no I/O, and the chain is shared (an invented path
                # 2,000 directories deep costs string work, not 2,000 listings or chains).
                entry = _Dir(above.chain, False, _NO_NAMES, above.specs, True)
            else:
                try:
                    listed = frozenset(os.listdir(current))
                    missing = False
                except (FileNotFoundError, NotADirectoryError):
                    listed, missing = _NO_NAMES, True
                except (OSError, ValueError):
                    listed, missing = _NO_NAMES, False
                chain = above.chain if current in self._walk else (*above.chain, current)
                specs = above.specs if missing else self._own_specs(above.specs, current, listed)
                entry = _Dir(chain, False, listed, specs, missing)
            above = self._dirs.setdefault(current, entry)
            parent = current
        return above

    def _decide(self, directory: str, parent: str, above: _Dir) -> bool:
        name = directory[len(parent) + 1 :] if parent != os.sep else directory[1:]
        if name in self._ignored_names:
            return True
        if not above.missing and os.path.islink(directory):
            real = os.path.realpath(directory)
            if real != self._real_root and not real.startswith(self._real_prefix):
                # A link out of the project is never part of it; say which, once per directory.
                message = f"is a symbolic link leading outside the project ({real}); not read"
                with self._warned_lock:
                    self._warnings.setdefault(DiscoveryWarning(path=directory, message=message))
                return True
        verdict: bool | None = None
        for prefix, spec in above.specs:
            result = spec.check_file(directory[len(prefix) :].replace(os.sep, "/") + "/").include
            if result is not None:
                verdict = result
        return bool(verdict)

    def _own_specs(self, above: _Specs, level: str, listed: frozenset[str]) -> _Specs:
        """``above`` and the ignore rules written in ``level`` itself (``.gitignore``; the root's exclude)."""
        lines: list[str] = []
        sources: list[tuple[str, str]] = []
        if level == self.root and ".git" in listed:
            info = os.path.join(level, ".git", "info")
            if "exclude" in self._listing(info):
                sources.append((info, "exclude"))
        if ".gitignore" in listed:
            sources.append((level, ".gitignore"))
        for folder, name in sources:
            source = os.path.join(folder, name)
            if real_inside(source, self._real_root) is None:
                continue  # an ignore file linking out of the project is not read
            text = read_text(source, self.config.max_file_bytes).text
            if text:
                lines.extend(text.splitlines())
        if not lines:
            return above
        import pathspec  # here: a project without ignore files never pays for it (a hook starts per call)

        return (*above, (level.rstrip(os.sep) + os.sep, pathspec.GitIgnoreSpec.from_lines(lines)))

    def _any_gitignore(self) -> bool:
        if ".gitignore" in self._root_names:
            return True
        return os.path.isfile(os.path.join(self.root, ".git", "info", "exclude"))
