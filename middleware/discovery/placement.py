"""Where a rule speaks: a rule folder in a directory below the project root owns that subtree.

A project rule read from a folder in directory ``D`` (``apps/web/.cursor/rules``,
on the root→cwd walk or found below it on a tool call's first touch) is
*placed* there: its name becomes ``<D>:<name>`` (``apps/web:testing``), so
two packages' ``testing`` rules are two rules, not one shadowing the other,
and a rule's identity does not depend on where the agent's cwd is; its
globs are rebased onto ``D`` (``**/*.tsx`` → ``apps/web/**/*.tsx``), so
they match relative to their own folder. Rules of the root's folders and of
the user tier keep their names.

Before that, every glob is written in the matcher's one reading (a glob
without ``/`` matches files at the top only) from its agent's *dialect*,
which each provider declares: ``anywhere`` agents (Cursor, Windsurf, Kiro,
Continue, Antigravity, ruleweave's own) read a bare ``*.tsx`` as any ``.tsx``
at any depth, so it becomes ``**/*.tsx``; ``root`` agents (Claude Code
``paths``, Copilot ``applyTo``, Cline ``paths``) read it against the path
relative to the project (or the folder's directory), so it stays. A leading
``./`` says "relative to here" in both and is dropped.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

from ruleweave.rules import Rule

SEPARATOR = ":"
"""Between a rule's directory and its name in the folder (``apps/web:testing``)."""

GlobDialect = Literal["root", "anywhere"]
"""How an agent reads a glob without ``/``: files at the top only, or a file name at any depth."""


def dialect_glob(pattern: str, dialect: GlobDialect) -> str:
    """``pattern`` as its agent reads it, written for the matcher (bare globs match the top only).

    Args:
        pattern: The glob as the rule file wrote it.
        dialect: The agent's dialect.

    Returns:
        ``**/<pattern>`` for a bare glob of an ``anywhere`` agent; the pattern without a
        leading ``./``; otherwise the pattern unchanged.
    """
    if pattern.startswith("./"):
        return pattern[2:]
    if dialect == "anywhere" and pattern and pattern != "**" and "/" not in pattern:
        return f"**/{pattern}"
    return pattern


def in_dialect(rules: list[Rule], dialect: GlobDialect) -> list[Rule]:
    """``rules`` with their globs written for the matcher (``dialect_glob``); unchanged rules kept."""
    out: list[Rule] = []
    for rule in rules:
        globs = tuple(dialect_glob(g, dialect) for g in rule.globs)
        exclude = tuple(dialect_glob(g, dialect) for g in rule.exclude_globs)
        if globs == rule.globs and exclude == rule.exclude_globs:
            out.append(rule)
        else:
            out.append(rule._replace(globs=globs, exclude_globs=exclude))
    return out


def rebase_glob(pattern: str, prefix: str) -> str:
    """``pattern``, written relative to the directory ``prefix``, relative to the project root.

    Args:
        pattern: The glob in the matcher's reading (``dialect_glob``): a bare glob means
            files directly in ``prefix``.
        prefix: The directory, ``/``-separated and relative to the project root.

    Returns:
        The rebased glob (an absolute glob is returned unchanged).
    """
    if not prefix or pattern.startswith("/"):
        return pattern
    body = pattern[2:] if pattern.startswith("./") else pattern
    return f"{_escaped(prefix)}/{body}"


@lru_cache(maxsize=256)
def _escaped(prefix: str) -> str:
    # A bounded per-process cache: a folder's rules (and every load) share one prefix.
    from wcmatch import glob as wcglob  # here: only rules of folders below the root need it

    return wcglob.escape(prefix)


def written(globs: Sequence[str], dialect: GlobDialect, prefix: str) -> tuple[str, ...]:
    """``globs`` as the matcher reads them (``dialect_glob``), rebased onto ``prefix`` (``rebase_glob``).

    Args:
        globs: The globs as the rule file wrote them.
        dialect: The agent's dialect.
        prefix: The rule folder's directory relative to the project root ('' for none).

    Returns:
        The globs a placed rule carries.
    """
    if not globs:
        return ()
    if not prefix:
        return tuple(dialect_glob(g, dialect) for g in globs)
    return tuple(rebase_glob(dialect_glob(g, dialect), prefix) for g in globs)


def placed_name(name: str, prefix: str) -> str:
    """A rule's name once placed in the directory ``prefix`` (``apps/web:testing``; unchanged at the root)."""
    return f"{prefix}{SEPARATOR}{name}" if prefix else name


def place(rule: Rule, prefix: str) -> Rule:
    """``rule`` as read from a folder in the directory ``prefix`` (unchanged for the root)."""
    if not prefix:
        return rule
    return rule._replace(
        name=placed_name(rule.name, prefix),
        globs=tuple(rebase_glob(g, prefix) for g in rule.globs),
        exclude_globs=tuple(rebase_glob(g, prefix) for g in rule.exclude_globs),
        base=prefix,
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
