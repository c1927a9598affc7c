"""Path helpers used everywhere: the root→cwd walk, walking up, containment.

Containment comes in two strengths. ``is_within`` compares spellings (no
I/O). ``real_path``, ``real_inside`` and ``RealPaths`` compare what the disk
says, symbolic links resolved: a repository may hold ``rootfs -> /`` or
``.cursor -> ~/elsewhere``, and only the real path tells where a read lands.
"""

from __future__ import annotations

import os
from pathlib import Path


def is_within(path: Path | str, base: Path | str) -> bool:
    """Whether ``path`` is ``base`` or lies below it (lexically, no I/O).

    Args:
        path: An absolute, normalised path.
        base: An absolute, normalised directory.

    Returns:
        True when ``path`` is inside ``base``.
    """
    # Strings, not ``base in path.parents``: that builds a Path per ancestor, at every rule file.
    spelled, top = os.fspath(path), os.fspath(base)
    return spelled == top or spelled.startswith(top if top.endswith(os.sep) else top + os.sep)


def normalise(path: Path) -> Path:
    """An absolute path with ``.``/``..`` folded, without touching the disk."""
    spelled = os.fspath(path)
    folded = os.path.normpath(spelled)
    if folded == spelled and isinstance(path, Path):
        return path  # already folded: a new Path would cost more than the fold
    return Path(folded)


def walk_down(root: Path, cwd: Path) -> list[Path]:
    """Directories from ``root`` down to ``cwd``, root first.

    When ``cwd`` is not below ``root`` the walk is just ``[cwd]``.
    """
    if not is_within(cwd, root):
        return [cwd]
    rel = cwd.relative_to(root)
    dirs = [root]
    current = root
    for part in rel.parts:
        current = current / part
        dirs.append(current)
    return dirs


def walk_up(start: Path, stop: Path | None = None) -> list[Path]:
    """Directories from ``start`` up to ``stop`` (inclusive) or the filesystem root."""
    dirs = [start]
    for parent in start.parents:
        if stop is not None and not is_within(parent, stop):
            break
        dirs.append(parent)
    return dirs


def display(
    path: Path | str, root: Path, home: Path | None = None, *, home_first: bool = False
) -> str:
    """``path`` for people: relative to ``root``, ``~/…`` under ``home``, else as given.

    Args:
        path: The path.
        root: The project root.
        home: The user's home, for ``~/`` spellings (none when omitted).
        home_first: Prefer ``~/`` when the path is under both (user-tier files).

    Returns:
        The spelling, with posix slashes.
    """
    spelled = os.fspath(path)
    if os.sep != "/" or not _clean(spelled):
        spelled = str(Path(spelled))  # pathlib's folding of ``//``, ``/./`` and a trailing slash
    bases = [(root, "")] + ([(home, "~/")] if home is not None else [])
    if os.path.isabs(spelled):
        for base, prefix in reversed(bases) if home_first else bases:
            top = str(base)
            if spelled != top and is_within(spelled, top):
                return prefix + spelled[len(top.rstrip(os.sep)) + 1 :].replace(os.sep, "/")
    return spelled.replace(os.sep, "/")


def _clean(spelled: str) -> bool:
    """Whether ``spelled`` reads the same as a ``PurePosixPath`` would print it (the common case)."""
    if not spelled or spelled == "." or "//" in spelled or "/./" in spelled:
        return False
    return not spelled.startswith("./") and not spelled.endswith(("/", "/."))


def real_path(path: str | os.PathLike[str]) -> str | None:
    """``path`` with every symbolic link resolved, or ``None`` when it cannot be spelled (a NUL byte)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return None


def real_inside(path: str | os.PathLike[str], real_base: str) -> str | None:
    """The real path of ``path`` when it lies inside ``real_base``, else ``None``.

    Args:
        path: Any path (links anywhere along it are resolved).
        real_base: A directory, already resolved with ``real_path``.

    Returns:
        The resolved path, or ``None`` when it leaves ``real_base`` or cannot be resolved.
    """
    real = real_path(path)
    if real is None:
        return None
    prefix = real_base if real_base.endswith(os.sep) else real_base + os.sep
    return real if real == real_base or real.startswith(prefix) else None


class RealPaths:
    """Real paths below known bases, resolved one new component at a time and remembered.

    ``os.path.realpath`` walks every component of every path it is given;
    discovery asks about dozens of folders that share the walk's directories,
    so here each directory costs one ``lstat`` for the whole run. Not
    thread-safe: one instance per discovery run.
    """

    def __init__(self) -> None:
        self._memo: dict[str, tuple[str, str | None]] = {}

    def resolve(self, path: str, base: str, real_base: str) -> tuple[str, str | None]:
        """``path``'s real path, and the first symbolic link on the way from ``base`` down to it.

        Args:
            path: A normalised path lexically below (or at) ``base``.
            base: Where the walk starts (itself not checked for links).
            real_base: ``real_path(base)``.

        Returns:
            ``(real path, first link or None)``.
        """
        memo = self._memo
        pending: list[str] = []
        current = path
        while current != base and current not in memo:
            pending.append(current)
            parent = os.path.dirname(current)
            if parent == current:  # the filesystem root: ``base`` was not above ``path``
                break
            current = parent
        real, link = memo.get(current, (real_base, None))
        for component in reversed(pending):
            if os.path.islink(component):
                real = real_path(component) or component
                link = link or component
            else:
                real = os.path.join(real, os.path.basename(component))
            memo[component] = (real, link)
        return real, link

    def known(self, path: str) -> str | None:
        """The real path of ``path`` if ``resolve`` met it (no I/O), else ``None``."""
        found = self._memo.get(path)
        return None if found is None else found[0]

