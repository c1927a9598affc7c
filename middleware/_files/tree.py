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
  root down, ``.git/info/exclude`` and git's global excludes file
  (``gitrepo.GitRepo.excludes_file``), negations, deeper files winning (the
  matcher is ``pathspec`` on RE2); plus ``.git`` always,
  ``RuleweaveConfig.ignored_dirs``, and the dependency and build folders
  (``DEPENDENCY_DIRS``: ``node_modules``, ``.venv``, ``dist``, ``vendor`` …)
  that no ignore file re-includes and git does not track (read from the
  index once, on the first such folder met: ``gitrepo``).

An ignore file is bounded: at most ``MAX_IGNORE_PATTERNS`` patterns and
``MAX_IGNORE_CHARS`` characters of them, none longer than ``MAX_PATTERN_CHARS``,
are used, the rest dropped with a warning. They are compiled in RE2 sets of
``PATTERNS_PER_SET``; a set RE2 refuses, or whose match fails, is left out of
the check with a warning. The check degrades, never the notice.

A directory below the root is one cached record (chain, verdict, listing,
the ignore files that apply to its entries) built from its parent's record,
so the questions above cost one lookup each once it is known. Every cache
is an ``LruCache`` (``CACHED_DIRECTORIES`` entries).
"""

from __future__ import annotations

import _thread  # threading.Lock without importing threading (~1 ms of a hook's cold start)
import os
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

from ruleweave._files.gitrepo import GitRepo
from ruleweave._files.paths import real_inside, walk_down
from ruleweave._files.reading import read_text
from ruleweave._kernel.surrogates import escape_surrogates
from ruleweave._lru import LruCache
from ruleweave.config import RuleweaveConfig
from ruleweave.rules import DiscoveryWarning

if TYPE_CHECKING:
    import pathspec

CACHED_DIRECTORIES = 8_192
"""Directories whose listing and ignore verdict are remembered (least recently used forgotten)."""

DEPENDENCY_DIRS = (
    "node_modules", "bower_components", "jspm_packages", ".venv", "venv", "site-packages",
    "__pypackages__", "__pycache__", ".tox", ".nox", ".eggs", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", "dist", "build", "target", "vendor", ".next", ".nuxt", ".svelte-kit", ".gradle",
    ".terraform", "Pods", ".build",
)
"""Ignored unless an ignore file re-includes them (``!vendor/``) or git tracks a file in them: a
dependency or a build output is not the project's voice, with or without a ``.gitignore`` entry."""

MAX_IGNORE_PATTERNS = 2_000
"""Patterns used from one ignore file; the rest are dropped (with a warning)."""

MAX_PATTERN_CHARS = 1_024
"""A longer ignore pattern is dropped (with a warning)."""

MAX_IGNORE_CHARS = 64 * 1024
"""Characters of patterns used from one ignore file (compiling them takes RE2 at most about 0.3 s)."""

PATTERNS_PER_SET = 256
"""Patterns compiled into one RE2 set: a set RE2 refuses loses only these."""

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
        self._warned_lock = _thread.allocate_lock()
        self._root_names = self._list(self.root)
        self._ignored_names = frozenset(config.ignored_dirs) | _ALWAYS
        self._dependency_names = frozenset(DEPENDENCY_DIRS) - self._ignored_names

    @cached_property
    def _top(self) -> _Dir:
        """The root's record; its ignore files are read on the first touch, not at load."""
        return _Dir((), False, self._root_names, self._own_specs((), self.root, self._root_names))

    @cached_property
    def _git(self) -> GitRepo | None:
        """The git repository the project lies in (found on the first touch, not at load)."""
        config = self.config
        xdg = config.xdg_config_home or config.user_home / ".config"
        return GitRepo.find(self.root, str(config.user_home), str(xdg))

    @cached_property
    def _tracked(self) -> frozenset[str]:
        """Dependency-named directories holding a tracked file, as absolute paths (read once)."""
        git = self._git
        if git is None:
            return frozenset()
        found = git.tracked(self._dependency_names)
        if found is None:
            self._warn(os.path.join(git.git_dir, "index"), "could not be read (too large or damaged); "
                       "dependency folders such as node_modules are treated as untracked")
            return frozenset()
        return frozenset(os.path.normpath(os.path.join(git.top, *rel.split("/"))) for rel in found)

    @property
    def warnings(self) -> tuple[DiscoveryWarning, ...]:
        """Problems met on tool calls: links out of the project, ignore files cut or unusable."""
        with self._warned_lock:
            return tuple(self._warnings)

    def _warn(self, path: str, message: str) -> None:
        with self._warned_lock:
            self._warnings.setdefault(DiscoveryWarning(path=escape_surrogates(path), message=message))

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

    def ignored_file(self, path: str) -> bool:
        """Whether the file ``path`` (inside the project) is ignored: its directory is, or an ignore
        file that applies to it names it (``.env``, ``*.pem``). A path outside the project is not."""
        directory = os.path.dirname(path)
        if directory != self.root and not directory.startswith(self._root_prefix):
            return False
        if directory != self.root and self._dir(directory).ignored:
            return True
        specs = (self._top if directory == self.root else self._dir(directory)).specs
        verdict: bool | None = None
        for prefix, spec in specs:
            if not path.startswith(prefix):
                continue
            relative = escape_surrogates(path[len(prefix) :].replace(os.sep, "/"))
            try:
                result = spec.check_file(relative).include
            except Exception:  # a matcher failing degrades the check (its warning is _check's)
                result = None
            if result is not None:
                verdict = result
        return bool(verdict)

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
                self._warn(directory, f"is a symbolic link leading outside the project ({real}); not read")
                return True
        verdict: bool | None = None
        for prefix, spec in above.specs:
            result = self._check(spec, prefix, directory)
            if result is not None:
                verdict = result
        if verdict is None and name in self._dependency_names:
            # A missing directory holds nothing either way: no index read for an invented path.
            return above.missing or directory not in self._tracked
        return bool(verdict)

    def _check(self, spec: pathspec.GitIgnoreSpec, prefix: str, directory: str) -> bool | None:
        """One ignore file's verdict on ``directory`` (``None``: it says nothing, or cannot match)."""
        # RE2 matches UTF-8: a name's undecodable bytes (and a tool argument's lone surrogate) are
        # spelled as escapes, which a wildcard still matches.
        relative = escape_surrogates(directory[len(prefix) :].replace(os.sep, "/")) + "/"
        try:
            return spec.check_file(relative).include
        except Exception as exc:  # a matcher failing degrades the check, never the notice
            self._warn(prefix, f"ignore rules could not be matched ({type(exc).__name__}); ignored there")
            return None

    def _own_specs(self, above: _Specs, level: str, listed: frozenset[str]) -> _Specs:
        """``above`` and the ignore rules written for ``level`` itself: ``.gitignore``, and at the root
        git's global excludes file and ``.git/info/exclude`` (lowest precedence first)."""
        sources: list[str] = []
        if level == self.root and self._git is not None:
            excludes = self._git.excludes_file
            if excludes is not None and os.path.isfile(excludes):
                sources.append(excludes)  # the user's own file, outside the project by design
            info = os.path.join(self._git.git_dir, "info")
            if "exclude" in self._listing(info):
                sources.append(os.path.join(info, "exclude"))
        if ".gitignore" in listed:
            source = os.path.join(level, ".gitignore")
            if real_inside(source, self._real_root) is not None:  # one linking out of the project is not read
                sources.append(source)
        prefix = level.rstrip(os.sep) + os.sep
        specs = list(above)
        for source in sources:
            # One spec per file: a later file's match wins, as one list would, and a file RE2
            # cannot compile costs only its own rules.
            text = read_text(source, self.config.max_file_bytes).text
            lines = self._bounded(source, text) if text else []
            if not lines:
                continue
            import pathspec  # here: a project without ignore files never pays for it (a hook starts per call)

            refused = 0
            for start in range(0, len(lines), PATTERNS_PER_SET):
                # Consecutive sets keep git's order (a later match wins); one RE2 refuses (its memory
                # bound) costs its own patterns only. RE2 explicitly: the fallback is Python's re,
                # which a crafted pattern can stall.
                chunk = lines[start : start + PATTERNS_PER_SET]
                try:
                    specs.append((prefix, pathspec.GitIgnoreSpec.from_lines(chunk, backend="re2")))
                except Exception:  # RE2 refusing a set degrades the check, never the notice
                    refused += len(chunk)
            if refused:
                self._warn(source, f"has {refused:,} ignore pattern(s) RE2 could not compile; not applied")
        return tuple(specs)

    def _bounded(self, source: str, text: str) -> list[str]:
        """The pattern lines of one ignore file within ``MAX_IGNORE_PATTERNS`` and ``MAX_PATTERN_CHARS``."""
        kept: list[str] = []
        long = over = used = 0
        for line in text.splitlines():
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if len(line) > MAX_PATTERN_CHARS:
                long += 1
            elif len(kept) >= MAX_IGNORE_PATTERNS or used + len(line) > MAX_IGNORE_CHARS:
                over += 1
            else:
                kept.append(escape_surrogates(line))
                used += len(line)
        if over:
            self._warn(source, f"has more ignore patterns than ruleweave applies ({MAX_IGNORE_PATTERNS:,}, "
                       f"{MAX_IGNORE_CHARS // 1024} KiB); the last {over:,} are not applied")
        if long:
            self._warn(source, f"has {long:,} ignore pattern(s) longer than {MAX_PATTERN_CHARS:,} "
                       "characters; they are not applied")
        return kept
