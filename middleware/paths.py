"""Path helpers used everywhere: the root→cwd walk, walking up, containment.

Containment comes in two strengths. ``is_within`` compares spellings (no
I/O). ``real_path``, ``real_inside`` and ``RealPaths`` compare what the disk
says, symbolic links resolved: a repository may hold ``rootfs -> /`` or
``.cursor -> ~/elsewhere``, and only the real path tells where a read lands.
"""

from __future__ import annotations

import os
from pathlib import Path


def is_within(path: Path, base: Path) -> bool:
    """Whether ``path`` is ``base`` or lies below it (lexically, no I/O).

    Args:
        path: An absolute, normalised path.
        base: An absolute, normalised directory.

    Returns:
        True when ``path`` is inside ``base``.
    """
    return path == base or base in path.parents


def normalise(path: Path) -> Path:
    """An absolute path with ``.``/``..`` folded, without touching the disk."""
    return Path(os.path.normpath(path))


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
    p = Path(path)
    bases = [(root, "")] + ([(home, "~/")] if home is not None else [])
    if p.is_absolute():
        for base, prefix in reversed(bases) if home_first else bases:
            if is_within(p, base) and p != base:
                return prefix + p.relative_to(base).as_posix()
    return p.as_posix()


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

    def resolve(self, path: Path, base: Path, real_base: str) -> tuple[str, str | None]:
        """``path``'s real path, and the first symbolic link on the way from ``base`` down to it.

        Args:
            path: A normalised path lexically below (or at) ``base``.
            base: Where the walk starts (itself not checked for links).
            real_base: ``real_path(base)``.

        Returns:
            ``(real path, first link or None)``.
        """
        memo = self._memo
        pending: list[Path] = []
        current = path
        while current != base and str(current) not in memo:
            pending.append(current)
            current = current.parent
        real, link = memo.get(str(current), (real_base, None))
        for component in reversed(pending):
            if os.path.islink(component):
                real = real_path(component) or str(component)
                link = link or str(component)
            else:
                real = os.path.join(real, component.name)
            memo[str(component)] = (real, link)
        return real, link

