"""Resolve a SkillSpec's ``imports:``: files, sections, and the dependency-first load order.

An import is Markdown (or text) a harness loads deliberately; it never merges
another SkillSpec into the document. Each ``path`` resolves relative to the
folder holding the ``skill.spec.yml``, nested imports included (they are links
between import ids through ``requires.imports``, not nested path scopes).
Imports may read anywhere in the project the spec belongs to (the reference's
own ``conformance/valid/imports.skill.spec.yml`` imports ``../../README.md``),
and nowhere outside it.

Checks, each becoming a :class:`~ruleweave.steering.issue.SpecIssue` with the file
and the line of the import:

- the path is local and relative (no absolute path, no URL) — as the reference;
- it stays inside the import root, also after symbolic links are followed.
  The default root is the project root: the nearest folder at or above the
  spec holding a root marker (``.git``), else the spec's own folder; pass
  ``root=`` to choose another (a plugin's folder, for ``../INDEX.md``);
- it names a regular file (a FIFO, device or directory is never opened), at
  most ``max_bytes`` long, UTF-8 text;
- its ``section``, when given, is a Markdown heading of the file;
- the ``requires.imports`` chain is at most :data:`MAX_IMPORT_DEPTH` deep
  (cycles and unknown ids are reported by the validator). Every walk of the
  graph looks at each import and edge once, without recursion.

The load order is the reference's: import ids in sorted order, each preceded
by what it requires (depth first, in listed order), each id once.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ruleweave._files.paths import is_within
from ruleweave._files.reading import read_text
from ruleweave.config import find_project_root
from ruleweave.steering.issue import SpecIssue
from ruleweave.steering.model import SkillSpec
from ruleweave.steering.source import SourceMap

MAX_IMPORT_DEPTH = 32
"""The longest ``requires.imports`` chain accepted."""

MAX_IMPORT_BYTES = 256 * 1024
"""The default cap on one imported file."""

ImportStatus = Literal["ok", "invalid_path", "missing_file", "missing_section"]
"""An import's state, in the reference's vocabulary."""


@dataclass(frozen=True, slots=True)
class ResolvedImport:
    """One declared import, resolved.

    Attributes:
        id: The import id.
        path: The path as written.
        resolved_path: The file it resolves to (None for an invalid path).
        role: ``policy``, ``reference``, ``procedure``, ``example`` or ``skill``.
        load: ``always`` or ``on_demand``.
        section: The heading narrowing the file, if any.
        section_found: Whether the heading exists (None without a section).
        requires: Import ids loaded first.
        status: ``ok`` or what is wrong.
        error: One sentence when the status is not ``ok``.
        line: Where the import is declared.
        body: The text loaded (the section only, when one is named); None unless ok.
        digest: SHA-256 (hex) of the whole file, when it was read.
    """

    id: str
    path: str
    resolved_path: str | None
    role: str
    load: str
    section: str | None
    section_found: bool | None
    requires: tuple[str, ...]
    status: ImportStatus
    error: str | None
    line: int
    body: str | None = field(default=None, repr=False)
    digest: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as ``spec imports --json`` prints it (the reference's keys plus ``line``).

        Returns:
            A JSON-ready dict.
        """
        return {
            "id": self.id,
            "path": self.path,
            "resolved_path": self.resolved_path,
            "role": self.role,
            "load": self.load,
            "section": self.section,
            "section_found": self.section_found,
            "requires": list(self.requires),
            "status": self.status,
            "error": self.error,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class ImportGraph:
    """Every import of a spec, resolved, and the order to load them in.

    Attributes:
        spec: The spec's path as given.
        root: The folder imports must stay inside.
        imports: One entry per declared import, in declaration order.
        load_order: Import ids, dependencies first.
        issues: Every problem found, with file and line.
    """

    spec: str
    root: str
    imports: tuple[ResolvedImport, ...]
    load_order: tuple[str, ...]
    issues: tuple[SpecIssue, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether every import resolved and no problem was found."""
        return not self.issues and all(item.status == "ok" for item in self.imports)

    def get(self, import_id: str) -> ResolvedImport | None:
        """The entry of one import id.

        Args:
            import_id: An import id.

        Returns:
            The entry, or None when no import has that id.
        """
        return next((item for item in self.imports if item.id == import_id), None)

    def loading(self, import_id: str) -> tuple[ResolvedImport, ...]:
        """What loading one import loads: its requirements first, then itself, each once.

        Args:
            import_id: An import id.

        Returns:
            The entries in load order (empty for an unknown id).
        """
        return self._entries(_dependencies_first([import_id], self._requires()))

    def always(self) -> tuple[ResolvedImport, ...]:
        """The ``load: always`` imports and what they require, in load order.

        Returns:
            The entries to load before any task action.
        """
        # One walk from every always import: linear in imports + edges, however they share requirements.
        roots = [item.id for item in self.imports if item.load == "always"]
        needed = set(_dependencies_first(roots, self._requires()))
        return self._entries(name for name in self.load_order if name in needed)

    def _requires(self) -> dict[str, tuple[str, ...]]:
        return {item.id: item.requires for item in self.imports}

    def _entries(self, names: Iterable[str]) -> tuple[ResolvedImport, ...]:
        by_id = {item.id: item for item in self.imports}
        return tuple(by_id[name] for name in names if name in by_id)

    def to_json(self) -> dict[str, Any]:
        """The graph as ``ruleweave spec imports --json`` prints it.

        Returns:
            ``{"ok", "spec", "root", "imports": [...], "load_order": [...], "errors": [...]}``.
        """
        return {
            "ok": self.ok,
            "spec": self.spec,
            "root": self.root,
            "imports": [item.to_json() for item in self.imports],
            "load_order": list(self.load_order),
            "errors": [issue.to_json() for issue in self.issues],
        }


def load_order(requires: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The reference's load order: sorted ids, each after what it requires, each once.

    A cycle does not loop: an id already being visited is skipped.

    Args:
        requires: Each import id and the ids it requires, in listed order.

    Returns:
        Every id reachable, dependencies first.
    """
    return tuple(_dependencies_first(sorted(requires), requires))


def _dependencies_first(roots: Iterable[str], requires: Mapping[str, tuple[str, ...]]) -> list[str]:
    """Post-order of a depth-first walk from each root in turn (listed order), each id once.

    Without recursion: a chain of thousands of imports needs no Python stack, and
    each id and edge is looked at once.
    """
    visited: set[str] = set()
    order: list[str] = []
    for root in roots:
        if root in visited:
            continue
        visited.add(root)
        path = [root]
        pending = [iter(requires.get(root, ()))]
        while pending:
            child = next(pending[-1], None)
            if child is None:
                pending.pop()
                order.append(path.pop())
            elif child not in visited:
                visited.add(child)
                path.append(child)
                pending.append(iter(requires.get(child, ())))
    return order


def default_import_root(spec_path: str | Path, markers: tuple[str, ...] = (".git",)) -> Path:
    """The folder a spec's imports may read from unless told otherwise: its project's root.

    Args:
        spec_path: The ``skill.spec.yml``.
        markers: Names whose presence marks the project root.

    Returns:
        The nearest folder at or above the spec holding a marker, else the spec's folder.
    """
    folder = Path(os.path.abspath(Path(spec_path).parent))
    return find_project_root(folder, markers)


def resolve_imports(
    spec: SkillSpec,
    spec_path: str | Path,
    *,
    root: str | Path | None = None,
    max_bytes: int = MAX_IMPORT_BYTES,
    source: SourceMap | None = None,
) -> ImportGraph:
    """Resolve every import of ``spec``, read from the folder of ``spec_path``.

    Args:
        spec: A validated document.
        spec_path: Where the document was read from.
        root: The folder imports may read from (default: the project root,
            see :func:`default_import_root`); a path outside it, or a link
            leading outside it, is refused.
        max_bytes: The most bytes read from one imported file.
        source: Lines of the document, to locate problems (else line 0).

    Returns:
        The graph; its ``issues`` list every problem.
    """
    shown = str(spec_path)
    folder = Path(spec_path).parent
    base = Path(root) if root is not None else default_import_root(spec_path)
    base_real = Path(os.path.realpath(base))
    where = source or SourceMap(shown, {})
    requires = {key: tuple(item.requires.imports) for key, item in spec.imports.items()}
    entries: list[ResolvedImport] = []
    issues: list[SpecIssue] = []
    depths = _depths(requires)
    for key, item in spec.imports.items():
        line = where.line(("imports", key))
        found = _resolve(item.path, item.section, folder, base, base_real, max_bytes)
        entry = ResolvedImport(
            id=key,
            path=item.path,
            resolved_path=found.resolved_path,
            role=item.role,
            load=item.load,
            section=item.section,
            section_found=found.section_found,
            requires=requires[key],
            status=found.status,
            error=found.error,
            line=line,
            body=found.body,
            digest=found.digest,
        )
        entries.append(entry)
        if entry.status != "ok":
            issues.append(SpecIssue(shown, line, f"Import {key!r} ({item.path}): {entry.error}"))
        if depths.get(key, 1) > MAX_IMPORT_DEPTH:
            issues.append(
                SpecIssue(
                    shown,
                    line,
                    f"Import {key!r} requires a chain of more than {MAX_IMPORT_DEPTH} imports.",
                )
            )
    return ImportGraph(shown, str(base), tuple(entries), load_order(requires), tuple(issues))


def _depths(requires: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    """The longest ``requires`` chain from each import, in imports counted (a cycle stops the count).

    Memoised and without recursion: every import and every edge is looked at
    once, so a spec of layers that each require the whole next layer costs
    linear time, not one walk per path (2^layers). Chains are counted only up
    to ``MAX_IMPORT_DEPTH + 1``: deeper is refused anyway.
    """
    cap = MAX_IMPORT_DEPTH + 1
    depth: dict[str, int] = {}
    for root in requires:
        if root in depth:
            continue
        on_path = {root}
        path = [root]
        best = [1]
        pending = [iter(requires[root])]
        while pending:
            child = next(pending[-1], None)
            if child is None:
                pending.pop()
                name = path.pop()
                on_path.discard(name)
                found = best.pop()
                depth[name] = found
                if best:
                    best[-1] = max(best[-1], min(found + 1, cap))
            elif child not in requires or child in on_path:
                continue  # unknown ids and cycles are the validator's to report
            elif child in depth:
                best[-1] = max(best[-1], min(depth[child] + 1, cap))
            else:
                on_path.add(child)
                path.append(child)
                best.append(1)
                pending.append(iter(requires[child]))
    return depth


@dataclass(frozen=True, slots=True)
class _Found:
    status: ImportStatus
    error: str | None = None
    resolved_path: str | None = None
    section_found: bool | None = None
    body: str | None = None
    digest: str | None = None


def _resolve(
    path: str,
    section: str | None,
    folder: Path,
    base: Path,
    base_real: Path,
    max_bytes: int,
) -> _Found:
    """Check one import path and read it."""
    if not path.strip():
        return _Found("invalid_path", "the import path is empty.")
    if Path(path).is_absolute() or "://" in path:
        return _Found("invalid_path", "an import path must be local and relative (no absolute path, no URL).")
    lexical = Path(os.path.normpath(folder / path))
    shown = str(folder / path)
    if not is_within(Path(os.path.abspath(lexical)), Path(os.path.abspath(base))):
        return _Found(
            "invalid_path",
            f"the path leaves the import root {base}; allow a wider root to read it.",
            shown,
        )
    real = Path(os.path.realpath(lexical))
    if not is_within(real, base_real):
        return _Found("invalid_path", f"a symbolic link leads outside the import root {base}.", shown)
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        return _Found("missing_file", f"the file cannot be found ({exc.strerror}).", shown)
    if not stat.S_ISREG(mode):
        return _Found("missing_file", "it is not a regular file.", shown)
    read = read_text(real, max_bytes)
    if read.text is None:
        return _Found("missing_file", f"the file {read.problem}.", shown)
    if read.oversized:
        return _Found("missing_file", f"the file is larger than {max_bytes:,} bytes.", shown)
    digest = hashlib.sha256(read.text.encode("utf-8")).hexdigest()
    if section is None:
        return _Found("ok", None, shown, None, read.text, digest)
    body = markdown_section(read.text, section)
    if body is None:
        message = f"the section {section!r} is not a heading of the file."
        return _Found("missing_section", message, shown, False, None, digest)
    return _Found("ok", None, shown, True, body, digest)


def markdown_section(text: str, section: str) -> str | None:
    """The named heading of a Markdown text and everything under it.

    Headings compare trimmed, without their ``#`` marks, ASCII case-insensitively
    (as the reference does). The section ends at the next heading of the same
    or a higher level.

    Args:
        text: The Markdown.
        section: The heading's text.

    Returns:
        The section (heading included), or None when no heading matches.
    """
    wanted = _heading_key(section)
    lines = text.split("\n")
    start: int | None = None
    level = 0
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if not stripped.startswith("#"):
            continue
        marks = len(stripped) - len(stripped.lstrip("#"))
        if start is None:
            if _heading_key(stripped.lstrip("#")) == wanted:
                start, level = index, marks
        elif marks <= level:
            return "\n".join(lines[start:index]).rstrip() + "\n"
    if start is None:
        return None
    return "\n".join(lines[start:]).rstrip() + "\n"


def _heading_key(heading: str) -> str:
    text = heading.strip().strip("#").strip()
    return "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in text)
