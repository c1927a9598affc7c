"""Path helpers used everywhere: the root→cwd walk, walking up, containment."""

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
