"""What a provider gets: the config, the walk, and safe listing and reading.

Listing follows the configured symlink policy, never loops on a symlink
cycle, caps the files taken from one root, and turns every unreadable
directory or refused link into a warning; reading is bounded (``reading``).
The policy holds for every component of a path, not only the last: a rule
folder or instruction file reached through a linked directory (``.cursor``,
``.github`` or ``vendor`` linking out of the project) is judged by its real
path, and refused with a warning naming the link when it leaves its tier.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path

from ruleweave._files.paths import RealPaths, is_within, normalise, real_path, walk_down
from ruleweave._files.reading import LINK_TEXT_MAX, link_stand_in, read_text
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.placement import GlobDialect, base_of, relative_dir
from ruleweave.rules import DiscoveryWarning, Level

_MAX_DEPTH = 12
_ABSENT = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP})
"""``lstat`` errors that mean "no such file here" (as ``pathlib``'s ``is_file`` reads them)."""


class DiscoveryContext:
    """Shared inputs and helpers for one discovery run.

    A plain class, not a dataclass: a hook process with a cold snapshot must not import
    ``dataclasses``. Mutable (providers append warnings; discovery sets the current
    provider), and one context is equal only to itself.

    Args:
        config: The configuration.
        walk: Directories from the project root down to cwd, root first (default: the
            walk from ``config.root`` to ``config.cwd``).
        warnings: Warnings collected so far (providers append through ``warn``).
        provider: The id of the provider currently loading (for warnings).
        nested: Loading the rule folders of one directory below the walk (on a tool
            call's first touch): providers skip the user tier, plugins and built-ins.
        dialect: The current provider's glob dialect (``placement.dialect_glob``).
        places: ``rule_file`` writes globs in the matcher's reading and places project rules
            as it builds them (the current provider's ``Provider.places``).
    """

    def __init__(
        self,
        config: RuleweaveConfig,
        walk: list[Path] | None = None,
        warnings: list[DiscoveryWarning] | None = None,
        provider: str | None = None,
        nested: bool = False,
        dialect: GlobDialect = "anywhere",
        places: bool = False,
        *,
        _listed: dict[str, str] | None = None,
        _bases: dict[Level, tuple[tuple[str, str], ...]] | None = None,
        _real: RealPaths | None = None,
    ) -> None:
        self.config = config
        self.walk = walk if walk else walk_down(config.root, config.cwd)
        self.warnings = warnings if warnings is not None else []
        self.provider = provider
        self.nested = nested
        self.dialect = dialect
        self.places = places
        self._prefixes: dict[str, str] = {}
        self._taken: set[tuple[str | None, str]] = set()
        self._listed = _listed if _listed is not None else {}  # listed file -> its real path
        self._verdicts: dict[tuple[str, Level], bool] = {}
        self._bases = _bases if _bases is not None else {}
        self._refused_links: set[str] = set()
        self._real = _real if _real is not None else RealPaths()
        self._regular: str | None = None

    def __repr__(self) -> str:
        return (
            f"DiscoveryContext(config={self.config!r}, walk={self.walk!r}, warnings={self.warnings!r}, "
            f"provider={self.provider!r}, nested={self.nested!r}, dialect={self.dialect!r}, "
            f"places={self.places!r})"
        )

    def sharing_paths(self) -> DiscoveryContext:
        """A new context over the same walk that keeps the real paths resolved so far.

        The instruction blob reads the walk's directories and the Claude rules again after
        discovery. Real paths are facts about the disk, so they carry over (the listed files'
        too); warnings, symlink verdicts (a refusal warns in the run that meets it) and
        visited files start empty.
        """
        return DiscoveryContext(
            self.config, walk=list(self.walk), _bases=dict(self._bases), _real=self._real,
            _listed=self._listed,
        )

    def first_visit(self, path: Path | str) -> bool:
        """Whether the current provider meets this file (by its real path) for the first time.

        One file reached twice by a provider — the home directory on the walk, or
        ``.agent`` linked to ``.agents`` — must give one rule, not one shadowing itself;
        the first visit (the user tier, read first) keeps it. A file that ``rule_files``
        listed costs no system call: the listing knew its real path and that it is a
        regular file (a ``stat`` per rule file was about a twentieth of discovery).
        """
        spelled = os.fspath(path)
        real = self._listed.get(spelled)
        if real is None:
            try:
                regular = stat.S_ISREG(os.stat(spelled).st_mode)
            except (OSError, ValueError):
                return True  # the read that follows reports the problem
            real = self.real(spelled)
        else:
            regular = True
        # The read that follows need not stat the file again (``read``).
        self._regular = spelled if regular else None
        key = (self.provider, real)
        if key in self._taken:
            return False
        self._taken.add(key)
        return True

    @cached_property
    def walk_spelled(self) -> list[str]:
        """The walk's directories as strings, root first (providers join folder names onto them)."""
        return [os.fspath(directory) for directory in self.walk]

    def folders(self, relative: str) -> list[str]:
        """``<dir>/<relative>`` for each directory of the walk, root first, as strings.

        Strings, not ``Path``: providers look up some twenty folders in every walk directory at
        every load, and a ``Path`` per lookup was about a twentieth of a load.
        """
        return [under(directory, relative) for directory in self.walk_spelled]

    def prefix_of(self, path: str) -> str:
        """Where the project rule file ``path`` is placed: the directory of the walk (relative to
        the project root, '' for the root) whose rule folder holds it (``placement``)."""
        folder = path.rpartition(os.sep)[0]
        prefix = self._prefixes.get(folder)  # a folder's files share their directory's prefix
        if prefix is None:
            root = os.fspath(self.config.root)
            if self.nested:
                prefix = relative_dir(self.walk[0], root)
            else:
                prefix = base_of(path, self.walk_spelled, root)
            self._prefixes[folder] = prefix
        return prefix

    def warn(self, path: Path | str, message: str, line: int | None = None) -> None:
        """Record a warning naming ``path``."""
        self.warnings.append(
            DiscoveryWarning(path=str(path), message=message, provider=self.provider, line=line)
        )

    def bases(self, level: Level) -> tuple[Path, ...]:
        """Where a symlink met at ``level`` may lead under the ``within`` policy."""
        if level == "user":
            config = self.config
            return (
                normalise(config.user_home),
                normalise(config.claude_dir),
                normalise(config.codex_dir),
                normalise(config.qwen_dir),
                normalise(config.gemini_dir),
                normalise(config.cline_folder),
                normalise(config.native_home),
                normalise(config.claude_managed),  # the organisation's CLAUDE.md
                normalise(config.xdg_config_home or config.user_home / ".config"),  # OpenCode, Crush
            )
        return (normalise(self.config.root),)

    def _real_bases(self, level: Level) -> tuple[tuple[str, str], ...]:
        """``(base, its real path)`` for each base of ``level``; the project tier also holds a
        cwd outside the project root (its walk is that one directory)."""
        known = self._bases.get(level)
        if known is not None:
            return known
        bases = tuple(str(base) for base in self.bases(level))
        if level != "user":
            cwd = str(normalise(self.config.cwd))
            if not any(is_within(cwd, base) for base in bases):
                bases = (*bases, cwd)
        pairs = tuple((base, real_path(base) or base) for base in bases)
        self._bases[level] = pairs
        return pairs

    def _refuse(self, link: Path, message: str) -> bool:
        """Warn once per link (several rule folders may sit behind one); always False."""
        if str(link) not in self._refused_links:
            self._refused_links.add(str(link))
            self.warn(link, message)
        return False

    def contained(self, path: Path | str, level: Level) -> bool:
        """Whether ``path``, every symbolic link along it resolved, obeys the symlink policy.

        ``within``: its real path lies inside a real base of its tier. ``ignore``: no
        component below the base is a link. ``follow``: always. A refusal is a
        warning naming the link that leaves (or, under ``ignore``, the first link), once per
        link. Verdicts are remembered for the run: providers share the walk's directories.
        """
        policy = self.config.symlinks
        if policy == "follow" or level == "builtin":
            return True
        key = (str(path), level)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = self._contained(path, level, policy)
        return verdict

    def _contained(self, path: Path | str, level: Level, policy: str) -> bool:
        lexical = os.path.normpath(path)
        pairs = self._real_bases(level)
        under = next(((base, real) for base, real in pairs if is_within(lexical, base)), None)
        if under is None:  # not below the tier's bases at all: only the real path can tell
            real = real_path(lexical)
            if policy == "ignore" or (real is not None and any(is_within(real, b) for _, b in pairs)):
                return True
            return self._refuse(Path(lexical), f"leads outside the {level} tier ({real}); refused")
        real, link = self._real.resolve(lexical, under[0], under[1])
        if link is None:
            return True
        if policy == "ignore":
            return self._refuse(Path(link), "is a symbolic link and symlinks are ignored by configuration")
        if any(is_within(real, base) for _, base in pairs):
            return True
        target = real_path(link) or real
        return self._refuse(
            Path(link), f"is a symbolic link leading outside the {level} tier ({target}); refused"
        )

    def real(self, path: Path | str) -> str:
        """``path`` with every symbolic link resolved, one ``lstat`` per new component for the run.

        ``os.path.realpath`` checks every component of every path; instruction files and
        rules share the walk's directories, so those are resolved once (``RealPaths``), and a
        file ``rule_files`` listed costs nothing.
        """
        lexical = os.path.normpath(path)
        listed = self._listed.get(lexical)
        if listed is not None:
            return listed
        for base, real_base in (*self._real_bases("project"), *self._real_bases("user")):
            if is_within(lexical, base):
                return self._real.resolve(lexical, base, real_base)[0]
        return os.path.realpath(lexical)

    def link_ok(self, path: Path | str, level: Level) -> bool:
        """Whether a symlink at ``path`` may be followed; warns when it may not."""
        policy = self.config.symlinks
        if policy == "ignore":
            self.warn(path, "is a symbolic link and symlinks are ignored by configuration")
            return False
        try:
            target = Path(os.path.realpath(path, strict=True))
        except (OSError, RuntimeError):
            self.warn(path, "is a broken or looping symbolic link and was skipped")
            return False
        if policy == "follow":
            return True
        real_bases = [Path(os.path.realpath(b)) for b in self.bases(level)]
        if any(is_within(target, base) for base in real_bases):
            return True
        self.warn(path, f"is a symbolic link leading outside the {level} tier ({target}); refused")
        return False

    def read(self, path: Path | str) -> str | None:
        """Read a rule file within the byte cap; problems become warnings.

        A symbolic link checked out as a plain file (its text only the target's path,
        ``reading.link_stand_in``) is not read: its text is not the rule it stands for.
        """
        regular, self._regular = self._regular == os.fspath(path), None
        result = read_text(path, self.config.max_file_bytes, regular=regular)
        if result.problem:
            self.warn(path, result.problem)
        text = result.text
        if text is not None and len(text) <= LINK_TEXT_MAX and (target := link_stand_in(path, text)):
            self.warn(path, f"holds only the path {target!r}: a symbolic link git checked out as a plain "
                      "file (core.symlinks off); not read")
            return None
        return text

    def is_file(self, path: Path | str, level: Level) -> bool:
        """``path`` is a regular file that may be read under the symlink policy."""
        try:
            mode = os.lstat(path).st_mode
        except ValueError:
            return False
        except OSError as exc:
            if exc.errno not in _ABSENT:
                self.warn(path, f"cannot be inspected ({exc.strerror or exc.__class__.__name__})")
            return False
        if stat.S_ISLNK(mode):
            # link_ok resolved the whole path, parents included, against the tier.
            return self.link_ok(path, level) and os.path.isfile(path)
        return stat.S_ISREG(mode) and self.contained(os.path.dirname(path), level)

    def list_files(
        self,
        root: Path | str,
        suffixes: tuple[str, ...],
        *,
        level: Level,
        recursive: bool = True,
    ) -> list[Path]:
        """Rule files below ``root`` whose names end in one of ``suffixes``, sorted by path.

        Args:
            root: The rule directory (absent is fine: no files, no warning).
            suffixes: Accepted name endings, e.g. ``(".md", ".mdc")``.
            level: The tier, for the symlink policy.
            recursive: Descend into subdirectories.

        Returns:
            At most ``max_rule_files`` paths; more is a warning.
        """
        return [Path(path) for path in self.rule_files(root, suffixes, level=level, recursive=recursive)]

    def rule_files(
        self,
        root: Path | str,
        suffixes: tuple[str, ...],
        *,
        level: Level,
        recursive: bool = True,
    ) -> list[str]:
        """``list_files`` as plain strings (a ``Path`` per rule file costs more than its read)."""
        # Strings and DirEntry types: this runs for every provider folder of every walk directory.
        top = os.fspath(root)
        try:
            mode = os.lstat(top).st_mode
            if stat.S_ISLNK(mode):
                if not self.link_ok(root, level):
                    return []
                mode = os.stat(top).st_mode
        except OSError as exc:
            if exc.errno not in _ABSENT:  # absent is normal; unreadable (EACCES) is worth saying
                self.warn(root, f"cannot be inspected ({exc.strerror or exc.__class__.__name__})")
            return []
        except ValueError:
            return []
        if not stat.S_ISDIR(mode) or not self.contained(top, level):
            return []
        found: list[str] = []
        real = self._real.known(os.path.normpath(top)) or os.path.realpath(top)
        self._scan(top, real, suffixes, level, recursive, found, set(), 0)
        found.sort(key=_posix_key if os.sep != "/" else None)  # as relative paths: one shared prefix
        cap = self.config.max_rule_files
        if len(found) > cap:
            self.warn(
                root,
                f"holds {len(found)} rule files, more than the limit of {cap}; "
                f"only the first {cap} by path were loaded",
            )
            found = found[:cap]
        return found

    def _scan(
        self,
        directory: str,
        real: str,
        suffixes: tuple[str, ...],
        level: Level,
        recursive: bool,
        found: list[str],
        visited: set[str],
        depth: int,
    ) -> None:
        """Collect rule files below ``directory`` (whose real path is ``real``) into ``found``."""
        if real in visited:
            self.warn(directory, "is reached again through a symbolic link loop; skipped")
            return
        visited.add(real)
        try:
            with os.scandir(directory) as entries:
                items = sorted(entries, key=_entry_name)
        except OSError as exc:
            self.warn(directory, f"cannot be listed ({exc.strerror or exc.__class__.__name__})")
            return
        real_dir = real if real.endswith(os.sep) else real + os.sep  # joined per entry: no os.path.join
        for entry in items:
            path = entry.path
            try:
                link = entry.is_symlink()
                if link and not self.link_ok(path, level):
                    continue
                if entry.is_dir():
                    if not recursive:
                        continue
                    if depth >= _MAX_DEPTH:
                        self.warn(path, f"is nested deeper than {_MAX_DEPTH} levels; skipped")
                        continue
                    # Only a link changes where a directory really is: the rest is a join, no I/O.
                    inner = os.path.realpath(path) if link else real_dir + entry.name
                    self._scan(path, inner, suffixes, level, recursive, found, visited, depth + 1)
                elif entry.name.endswith(suffixes) and entry.is_file():
                    found.append(path)
                    if not link:  # a plain entry: its real path is its folder's, joined
                        self._listed[path] = real_dir + entry.name
            except OSError as exc:
                self.warn(path, f"cannot be inspected ({exc.strerror or exc.__class__.__name__})")

    def project_dirs(self, relative: str) -> Iterable[tuple[Path, Level]]:
        """``<dir>/<relative>`` for each directory of the root→cwd walk."""
        for directory in self.walk:
            yield directory / relative, "project"


def under(directory: str | os.PathLike[str], relative: str) -> str:
    """``directory`` joined with the ``/``-separated ``relative``, as a string (no ``Path`` built)."""
    return f"{os.fspath(directory).rstrip(os.sep)}{os.sep}{relative.replace('/', os.sep)}"


def _entry_name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _posix_key(path: str) -> str:
    return path.replace(os.sep, "/") if os.sep != "/" else path
