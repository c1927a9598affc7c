"""Where a rule speaks: a rule folder in a directory below the project root owns that subtree.

A project rule read from a folder in directory ``D`` (``apps/web/.cursor/rules``,
on the root→cwd walk or found below it on a tool call's first touch) is
*placed* there: its name becomes ``<D>:<name>`` (``apps/web:testing``), so
two packages' ``testing`` rules are two rules, not one shadowing the other,
and a rule's identity does not depend on where the agent's cwd is; its
globs are rebased onto ``D`` (``**/*.tsx`` → ``apps/web/**/*.tsx``; a bare
``*.tsx``, which matches a file name anywhere, → ``apps/web/**/*.tsx``), so
they match relative to their own folder. Rules of the root's folders and of
the user tier keep their names and globs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from wcmatch import glob as wcglob

from ruleweave.rules import Rule

SEPARATOR = ":"
"""Between a rule's directory and its name in the folder (``apps/web:testing``)."""


def rebase_glob(pattern: str, prefix: str) -> str:
    """``pattern``, written relative to the directory ``prefix``, relative to the project root.

    Args:
        pattern: The glob as the rule file wrote it.
        prefix: The directory, ``/``-separated and relative to the project root.

    Returns:
        The rebased glob (an absolute glob is returned unchanged).
    """
    if not prefix or pattern.startswith("/"):
        return pattern
    base = wcglob.escape(prefix)
    body = pattern[2:] if pattern.startswith("./") else pattern
    if "/" not in body:
        return f"{base}/**/{body}"
    return f"{base}/{body}"


def place(rule: Rule, prefix: str) -> Rule:
    """``rule`` as read from a folder in the directory ``prefix`` (unchanged for the root)."""
    if not prefix:
        return rule
    return rule.model_copy(
        update={
            "name": f"{prefix}{SEPARATOR}{rule.name}",
            "globs": tuple(rebase_glob(g, prefix) for g in rule.globs),
            "base": prefix,
        }
    )


def relative_dir(directory: str | os.PathLike[str], root: str | os.PathLike[str]) -> str:
    """``directory`` relative to ``root``, ``/``-separated ('' for the root itself)."""
    inner, outer = os.fspath(directory).rstrip(os.sep), os.fspath(root).rstrip(os.sep)
    if inner == outer:
        return ""
    if inner.startswith(outer + os.sep):  # the common case, without relpath's normalising
        return inner[len(outer) + 1 :].replace(os.sep, "/")
    rel = os.path.relpath(directory, root)
    return "" if rel == "." else rel.replace(os.sep, "/")


def base_of(path: str, directories: Sequence[str], root: str) -> str:
    """The directory (relative to ``root``) among ``directories`` that holds ``path`` most closely.

    Args:
        path: A rule file's absolute path.
        directories: Absolute directories, the root first (the root→cwd walk).
        root: The project root.

    Returns:
        The relative directory, ``/``-separated; '' for the root or when none holds it.
    """
    best = ""
    for directory in directories:
        prefix = directory.rstrip(os.sep) + os.sep
        if path.startswith(prefix) and len(directory) > len(best):
            best = directory
    return relative_dir(best, root) if best else ""
