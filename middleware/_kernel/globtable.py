"""The glob table: each glob alternative's key, place and test, and the one decision whether it matches.

``ruleweave.globs.GlobIndex`` reads each brace alternative of each glob as a
*key* (a literal the file name is, ends with or starts with), a *place* (where
its directory part lets a path be) and a *test* (what key and place leave
open). The index files alternatives by key and place, so that a lookup visits
only those that can match, and decides the rest here; the Claude Code hook's
warm path scans the same alternatives, exported into its snapshot as rows,
with ``lookup``. One decision, two doors.

A row (a JSON list in the snapshot, rows in the index's order) is
``[glob, keys, kind, key, place, directory, test, operand]``:

* ``kind`` / ``key``: ``name`` (the file name is ``key``), ``suffix``, ``prefix``,
  or ``rest`` (no key);
* ``place`` / ``directory``: ``anywhere``; ``root`` (a file in the project root);
  ``child`` / ``under`` (directly in / anywhere below the relative ``directory``);
  ``seg_child`` / ``seg_under`` (the absolute path's directory ends with / holds
  ``/`` + ``directory``);
* ``test`` / ``operand``: ``""`` (nothing is left); ``affix`` (the name starts
  and ends with the ``[prefix, suffix]`` operand); ``name`` (the operand, an RE2
  pattern, matches the file name); ``rel``, ``any``, ``bare`` (it matches the
  relative path; or the absolute one; or either or the file name). A pattern is
  ``None`` where RE2 cannot express the glob: only the library decides those.

Paths are normalised (no ``//``, ``.`` or ``..`` segment, trailing ``/``), on
which the patterns are exact. RE2 matches in time linear in the path — never
Python's ``re``, which backtracks for minutes on ``**/a/**/a/…/b`` against a
long path of ``a/`` segments — and ``re2`` (about 4 ms to import) is imported
the first time a row needs a pattern: key and place decide most rows alone.

Standard library only, and no ``typing``: the hook's warm path imports this module.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: see the module docstring
if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterable, Sequence
    from typing import Any

    Matcher = Callable[[str], bool]
    """A full-match test of one path spelling."""

GLOB, KEYS, KIND, KEY, PLACE, DIRECTORY, TEST, OPERAND = range(8)
"""The fields of a row."""

PATTERN_TESTS = frozenset({"name", "rel", "any", "bare"})
"""The tests whose operand is an RE2 pattern."""


def spell(path: str, root_prefix: str) -> tuple[str | None, str, str]:
    """The three spellings a glob is tried against: relative to the project root, absolute, the name.

    String work only (a hot path); a path that is not normalised (``//``, ``.``
    or ``..`` segments, a trailing ``/``) is normalised first.

    Args:
        path: An absolute path.
        root_prefix: The project root followed by one ``/``.

    Returns:
        ``(relative, absolute, name)``; ``relative`` is ``None`` outside the project.
    """
    if "//" in path or "/./" in path or "/../" in path or path.endswith(("/", "/.", "/..")):
        path = _normalised(path)
    inside = path.startswith(root_prefix) and len(path) > len(root_prefix)
    return (path[len(root_prefix) :] if inside else None), path, path[path.rfind("/") + 1 :]


def _normalised(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return ("/" if path.startswith("/") else "") + "/".join(parts)


def in_place(place: str, directory: str, relative: str | None, parent: str) -> bool:
    """Whether a path is where a row's directory part lets it be.

    Args:
        place: The row's place (see the module docstring).
        directory: Its literal directory, ending in ``/`` ('' for ``anywhere`` and ``root``).
        relative: The path relative to the project root, or ``None`` outside it.
        parent: The absolute path's directory, ending in ``/``.

    Returns:
        True when the place holds.
    """
    if place == "anywhere":
        return True
    if place == "seg_child":
        return parent.endswith("/" + directory)
    if place == "seg_under":
        return "/" + directory in parent
    if relative is None:
        return False
    if place == "root":
        return "/" not in relative
    if not relative.startswith(directory):
        return False
    return place == "under" or (place == "child" and relative.find("/", len(directory)) < 0)


def affixed(name: str, prefix: str, suffix: str) -> bool:
    """Whether ``name`` starts with ``prefix`` and, after it, ends with ``suffix`` (``test_*.py``)."""
    return len(name) >= len(prefix) + len(suffix) and name.startswith(prefix) and name.endswith(suffix)


def spelled(test: str, match: Matcher, relative: str | None, absolute: str, name: str) -> bool:
    """Whether a whole-glob pattern matches the spellings its ``test`` tries (``rel``, ``any``, ``bare``)."""
    if relative is not None and match(relative):
        return True
    if test == "rel":
        return False
    return match(absolute) or (test == "bare" and match(name))


STAND_IN = 0x10F800 - 0xD800
"""How far a lone surrogate (U+D800–U+DFFF: a file name that was not UTF-8, or a ``\\udcff`` escape in
JSON or YAML) is moved for RE2, which reads UTF-8 only: onto the 2,048 private-use code points from
U+10F800 (``stand_in``), the same for paths and globs."""


def stand_in(code: int) -> int:
    """The code point RE2 reads for ``code``: itself, or a lone surrogate's private-use stand-in."""
    return code + STAND_IN if 0xD800 <= code <= 0xDFFF else code


def utf8(text: str) -> bytes:
    """``text`` as RE2 reads it: UTF-8, each lone surrogate as its stand-in (``STAND_IN``)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(chr(stand_in(ord(c))) for c in text).encode("utf-8")


def full_match(pattern: str) -> Matcher | None:
    """A test of whether ``pattern`` (RE2 syntax) matches all of a string; ``None`` if RE2 rejects it.

    Args:
        pattern: The pattern.

    Returns:
        The test (it imports ``re2`` here, on first use), or ``None``.
    """
    import re2

    matcher = re2.Set.FullMatchSet()
    try:
        matcher.Add(pattern)
        matcher.Compile()
    except (re2.error, UnicodeEncodeError):
        return None
    found = matcher.Match

    def test(text: str) -> bool:
        return found(utf8(text)) is not None

    return test


def first_glob_per_key(matched: Iterable[tuple[Iterable[Hashable], str]]) -> list[tuple[Any, str]]:
    """``(key, glob)`` for each key of the matched alternatives, in order: each key once, with its first
    glob."""
    out: list[tuple[Any, str]] = []
    seen: set[Hashable] = set()
    for keys, glob in matched:
        for key in keys:
            if key not in seen:
                seen.add(key)
                out.append((key, glob))
    return out


def lookup(
    rows: Sequence[Sequence[Any]],
    relative: str | None,
    absolute: str,
    patterns: dict[str | None, Matcher | None],
) -> list[tuple[Any, str]] | None:
    """``GlobIndex.lookup`` over exported rows: each ``(key, glob)`` whose glob matches the path.

    Args:
        rows: The table (see the module docstring), in index order.
        relative: The path relative to the project root, or ``None`` outside it.
        absolute: The absolute, normalised path.
        patterns: The compiled patterns so far (filled in here; share it across paths).

    Returns:
        The pairs, in index order, each key once with its first matching glob; ``None``
        when a row that only the library can decide (no RE2 form) would have to be.
    """
    name = absolute[absolute.rfind("/") + 1 :]
    parent = absolute[: len(absolute) - len(name)]
    matched: list[tuple[Iterable[Hashable], str]] = []
    for glob, keys, kind, key, place, directory, test, operand in rows:
        # The literal the index files the row under, checked first: it rules out almost every row.
        if kind == "name":
            if name != key:
                continue
        elif kind == "suffix":
            if not name.endswith(key):
                continue
        elif kind == "prefix" and not name.startswith(key):
            continue
        if not in_place(place, directory, relative, parent):
            continue
        if test in PATTERN_TESTS:
            if operand not in patterns:
                patterns[operand] = None if operand is None else full_match(operand)
            match = patterns[operand]
            if match is None:
                return None
            if not (match(name) if test == "name" else spelled(test, match, relative, absolute, name)):
                continue
        elif test == "affix" and not affixed(name, operand[0], operand[1]):
            continue
        matched.append((keys, glob))
    return first_glob_per_key(matched)
