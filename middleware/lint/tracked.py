"""The project's files, listed once: ``git ls-files`` in a repository, else a walk honouring ignore rules.

Git lists tracked files and untracked ones that are not ignored (a rule for a
file not yet committed is not dead); an untracked file under a folder
``tree.ProjectTree`` ignores (``node_modules`` with no ``.gitignore`` entry) is
not the project's either. It runs with a timeout and with
``core.fsmonitor`` off, so a repository's own configuration cannot make
listing run a program. Without git, or outside a repository, the walk skips
what ``tree.ProjectTree`` ignores (``.gitignore`` files, ``.git``, the
dependency folders) and never follows a link to a directory.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ruleweave._files.tree import ProjectTree
from ruleweave.rules import DiscoveryWarning

GIT_TIMEOUT = 20.0
"""Seconds ``git ls-files`` may take before lint falls back to walking the tree."""

MAX_FILES = 1_000_000
"""Files listed at most; past it the rest are left out with a warning."""


@dataclass(frozen=True, slots=True)
class Listing:
    """The project's files.

    Attributes:
        paths: ``/``-separated paths relative to the project root, sorted.
        source: ``git`` or ``walk``.
        warnings: Problems met (the cap reached, git failing).
    """

    paths: tuple[str, ...]
    source: Literal["git", "walk"]
    warnings: tuple[DiscoveryWarning, ...] = ()


def list_files(tree: ProjectTree) -> Listing:
    """Every file of the project, by git when it is a repository, else by a walk.

    Args:
        tree: The project's directory answers (root, ignore rules).

    Returns:
        The listing; never raises.
    """
    root = Path(tree.root)
    if any((directory / ".git").exists() for directory in (root, *root.parents)):
        listed = _git(tree)
        if listed is not None:
            paths = listed[:MAX_FILES]
            return Listing(tuple(sorted(paths)), "git", _capped(tree.root, len(listed)))
    return _walk(tree)


def _git(tree: ProjectTree) -> list[str] | None:
    """Tracked files, and untracked ones that neither git nor ``tree`` ignores (a dependency folder
    with no ``.gitignore`` entry: ``tree.DEPENDENCY_DIRS``)."""
    command = [
        "git", "-c", "core.fsmonitor=false", "-C", tree.root,
        "ls-files", "-z", "-t", "--cached", "--others", "--exclude-standard",
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, timeout=GIT_TIMEOUT, check=False, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    out: list[str] = []
    for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
        tag, _, name = entry.partition(" ")  # -t: "H path" for a tracked file, "? path" for another
        if not name:
            continue
        if tag == "?" and "/" in name:
            directory = os.path.join(tree.root, *name.split("/")[:-1])
            if tree.ignored(directory):
                continue
        out.append(name)
    return list(dict.fromkeys(out))


def _walk(tree: ProjectTree) -> Listing:
    out: list[str] = []
    prefix = len(tree.root.rstrip(os.sep)) + 1
    stack = [tree.root]
    while stack and len(out) <= MAX_FILES:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except (OSError, ValueError):
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not tree.ignored(entry.path):
                        stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    out.append(entry.path[prefix:].replace(os.sep, "/"))
            except OSError:
                continue
    return Listing(tuple(sorted(out[:MAX_FILES])), "walk", _capped(tree.root, len(out)))


def _capped(root: str, count: int) -> tuple[DiscoveryWarning, ...]:
    if count <= MAX_FILES:
        return ()
    message = f"the project has more than {MAX_FILES} files; lint looked at the first {MAX_FILES}"
    return (DiscoveryWarning(path=root, message=message),)
