"""Duplicates and drift between agents' files, compared paragraph by paragraph.

Every project instruction file (``AGENTS.md``, ``CLAUDE.md``, ``GEMINI.md``,
``.github/copilot-instructions.md`` …) and every rule file's body is split
into paragraphs (blank-line separated, whitespace normalised):

* the same paragraphs in the same order in several files is ``duplicate``
  (info): one copy, kept in several places;
* files sharing most paragraphs (at least ``MIN_SHARED`` and at least
  ``MIN_RATIO`` of the longer one) but not all is ``drift`` (warning): one
  copy was edited and the others were not; the details name each paragraph
  that differs, with its file and line.

Candidate pairs come from an index of paragraph → files, so files sharing no
paragraph are never compared; a paragraph found in more than ``COMMON``
files (a licence line, boilerplate) does not make files candidates.
"""

from __future__ import annotations

import difflib
import os
import posixpath
import re
from dataclasses import dataclass
from itertools import combinations

from ruleweave.lint.findings import Finding
from ruleweave.lint.sources import LintSources

MIN_SHARED = 2
"""Paragraphs two files must share to be copies of one text."""

MIN_RATIO = 0.5
"""Share of the longer file's paragraphs that must be shared."""

COMMON = 50
"""A paragraph in more files than this is boilerplate, not a sign of copying."""

_SHOWN = 70
_IMPORT = re.compile(r"(?<![\w@])@([\w./-]+[\w/])")  # ``@path`` as Claude Code and Gemini CLI read it
_NAMED = 3  # files named in a duplicate's sentence
_DETAILS = 11  # detail lines of a duplicate (the rest counted)


@dataclass(frozen=True, slots=True)
class Document:
    """One file as paragraphs.

    Attributes:
        path: Relative to the project root.
        paragraphs: Normalised paragraphs, in order.
        lines: The 1-based line where each paragraph starts.
    """

    path: str
    paragraphs: tuple[str, ...]
    lines: tuple[int, ...]


def paragraphs(text: str, first_line: int = 1) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``text`` split on blank lines, each paragraph's whitespace collapsed to single spaces.

    Args:
        text: The text.
        first_line: The line number of the text's first line in its file.

    Returns:
        The paragraphs and the line where each starts.
    """
    found: list[str] = []
    starts: list[int] = []
    current: list[str] = []
    for number, line in enumerate(text.split("\n"), first_line):
        if line.strip():
            if not current:
                starts.append(number)
            current.append(line)
        elif current:
            found.append(" ".join(" ".join(current).split()))
            current = []
    if current:
        found.append(" ".join(" ".join(current).split()))
    return tuple(found), tuple(starts)


def documents(sources: LintSources) -> list[Document]:
    """Every instruction file and rule file body of the project, as paragraphs (sorted by path).

    One file reached by several names (``CLAUDE.md`` a symbolic link to ``AGENTS.md``) is one
    document, under its first name. An ``@path`` import is spelled as the file it resolves to from
    its own directory, so two stubs reading ``@AGENTS.md`` in two packages differ; a stub (nothing
    but imports and headings) is a pointer, not a copy, and is left out.
    """
    paths = set(sources.instruction_files)
    paths.update(sources.relative(r.path) for r in sources.rules if r.source.level == "project")
    out: list[Document] = []
    seen: set[str] = set()
    for path in sorted(paths):
        text = sources.text(path)
        if text is None:
            continue
        real = os.path.realpath(os.path.join(sources.root, *path.split("/")))
        if real in seen:
            continue  # the same file under another name: not a copy
        seen.add(real)
        lines = text.text.split("\n")
        body = "\n".join(lines[text.body_line - 1 :])
        found, starts = paragraphs(body, text.body_line)
        if "@" in body:
            found = tuple(_resolved(p, path, sources) for p in found)
        if found and not _stub(found):
            out.append(Document(path, found, starts))
    return out


def _stub(found: tuple[str, ...]) -> bool:
    """Imports only, perhaps under a short heading (``# CLAUDE.md`` then ``@AGENTS.md``)."""
    imports = [p for p in found if _import_only(p)]
    return bool(imports) and all(p in imports or (p.startswith("#") and len(p) <= 80) for p in found)


def _import_only(paragraph: str) -> bool:
    """A paragraph of ``@path`` imports only (``@AGENTS.md``) is a pointer, not a copy."""
    return all(token.startswith("@") for token in paragraph.split())


def _resolved(paragraph: str, path: str, sources: LintSources) -> str:
    """``paragraph`` with each ``@path`` naming a project file spelled as that file (from the root)."""
    directory = posixpath.dirname(path)

    def spelled(match: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(directory, match.group(1)))
        if target.startswith("../") or sources.text(target) is None:
            return match.group(0)  # not a project file: a mention, kept as written
        return "@" + target

    return _IMPORT.sub(spelled, paragraph)


def check_drift(sources: LintSources) -> list[Finding]:
    """``duplicate`` findings for identical copies and ``drift`` findings for near-identical ones.

    Args:
        sources: What lint looks at.

    Returns:
        The findings.
    """
    groups: dict[tuple[str, ...], list[Document]] = {}
    for doc in documents(sources):
        groups.setdefault(doc.paragraphs, []).append(doc)
    findings: list[Finding] = []
    for copies in groups.values():
        if len(copies) > 1:
            names = ", ".join(d.path for d in copies[:_NAMED])
            if len(copies) > _NAMED:
                names += f" and {len(copies) - _NAMED} more"
            shown = [f"same as {d.path}" for d in copies[1:_DETAILS]]
            if len(copies) > _DETAILS:
                shown.append(f"… and {len(copies) - _DETAILS} more")
            findings.append(Finding(
                "duplicate", "info", copies[0].path, copies[0].lines[0],
                f"the same text is kept in {len(copies)} files ({names}); an edit to one leaves the "
                "others stale, so keep one and import or link it from the others.",
                details=tuple(shown),
            ))
    firsts = [copies[0] for copies in groups.values()]
    counts = {doc.paragraphs: len(groups[doc.paragraphs]) for doc in firsts}
    holders: dict[str, list[int]] = {}
    for index, doc in enumerate(firsts):
        for paragraph in set(doc.paragraphs):
            holders.setdefault(paragraph, []).append(index)
    pairs: set[tuple[int, int]] = set()
    for held in holders.values():
        if 1 < len(held) <= COMMON:
            pairs.update(combinations(held, 2))
    for a, b in sorted(pairs):
        finding = _compare(firsts[a], firsts[b], counts)
        if finding is not None:
            findings.append(finding)
    return findings


def _compare(a: Document, b: Document, counts: dict[tuple[str, ...], int]) -> Finding | None:
    shared = len(set(a.paragraphs) & set(b.paragraphs))
    longest = max(len(set(a.paragraphs)), len(set(b.paragraphs)))
    if shared < MIN_SHARED or shared < MIN_RATIO * longest:
        return None
    details: list[str] = []
    first_b: int | None = None
    matcher = difflib.SequenceMatcher(a=a.paragraphs, b=b.paragraphs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        details.extend(f"- {a.path}:{a.lines[i]}: {_short(a.paragraphs[i])}" for i in range(i1, i2))
        details.extend(f"+ {b.path}:{b.lines[j]}: {_short(b.paragraphs[j])}" for j in range(j1, j2))
        if first_b is None:
            first_b = b.lines[j1] if j1 < j2 else (b.lines[j1 - 1] if j1 else 1)
    differ = sum(1 for line in details if line.startswith("+ "))
    more = counts[a.paragraphs] - 1
    also = f" (and {more} identical {'copy' if more == 1 else 'copies'})" if more else ""
    return Finding(
        "drift", "warning", b.path, first_b,
        f"{b.path} and {a.path}{also} share {shared} paragraphs but differ in others ({differ} here), "
        "so one copy was edited and the other was not.",
        details=tuple(details),
    )


def _short(paragraph: str) -> str:
    return paragraph if len(paragraph) <= _SHOWN else paragraph[: _SHOWN - 1] + "…"
