"""The blob's data: parts, the budget report, nested files (frozen, no I/O).

NamedTuples, not dataclasses: a hook process creates these classes whenever its snapshot is cold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

from ruleweave.instructions.formats import FileFormat
from ruleweave.rules import DiscoveryWarning

InstructionLevel = Literal["user", "parent", "project", "rule"]
"""Where a part of the blob came from: the user tier, a directory above the project root
(Claude Code's upward walk), the project walk, or a Claude rule."""


class Part(NamedTuple):
    """One part before the budget: header, processed body, where it came from.

    Attributes:
        header: The line above the body.
        body: The body, UTF-8.
        path: The display path (what a budget report names).
        abs_path: The absolute path of its file.
        level: Where it came from.
        where: Where the whole text is, for a cut's marker (default: ``path``).
        frame: Bytes the part takes besides its body (default: the header and its newline).
    """

    header: str
    body: bytes
    path: str
    abs_path: str
    level: InstructionLevel
    where: str = ""
    frame: int = -1

    @property
    def overhead(self) -> int:
        """Bytes of the part that are not its body."""
        return self.frame if self.frame >= 0 else len(self.header.encode("utf-8")) + 1


class InstructionFile(NamedTuple):
    """One part of the blob and what the budget did to it.

    Attributes:
        path: The display path (relative to the project root, ``~/…`` under home).
        abs_path: The absolute path of the file.
        level: ``user``, ``project`` or ``rule``.
        bytes: Body bytes kept in the blob (header and marker not counted).
        original_bytes: Body bytes after comment stripping and import expansion.
        truncated: The body was cut (or dropped) by the budget.
        bytes_dropped: ``original_bytes - bytes``.
    """

    path: str
    abs_path: str
    level: InstructionLevel
    bytes: int
    original_bytes: int
    truncated: bool
    bytes_dropped: int


class BudgetCut(NamedTuple):
    """A part the budget cut: its display path and the body bytes dropped."""

    path: str
    bytes_dropped: int


class InstructionBudget(NamedTuple):
    """The budget report.

    Attributes:
        limit: ``instructions_max_bytes``.
        used: UTF-8 bytes of the blob's text (never more than ``limit``).
        cut: Each cut part with the bytes dropped, in blob order.
    """

    limit: int
    used: int
    cut: tuple[BudgetCut, ...] = ()


class InstructionBlob(NamedTuple):
    """The assembled project instructions.

    Attributes:
        text: The blob, byte-identical for the same files.
        files: Every part in blob order.
        budget: Limit, bytes used and what was cut.
        warnings: Every problem met, naming the file (and line when known).
        seen: Real paths and content digests of every file included
            (imports too); ``NestedInstructions`` skips them.
        parts: Every part before the budget (``refit`` fits them again).
        merged: ``(path, kept)`` for each file left out because ``kept`` (a display path)
            carries the same text, whitespace and line endings aside (``scan`` says so).
        scoped: Files with ``globs:`` frontmatter (Amp): not in the blob, sent on a matching touch.
        formats: The instruction-file formats looked up in each directory (for nested lookups).
    """

    text: str
    files: tuple[InstructionFile, ...]
    budget: InstructionBudget
    warnings: tuple[DiscoveryWarning, ...]
    seen: frozenset[str] = frozenset()
    parts: tuple[Part, ...] = ()
    merged: tuple[tuple[str, str], ...] = ()
    scoped: tuple[ScopedFile, ...] = ()
    formats: tuple[FileFormat, ...] = ()

    def __repr__(self) -> str:
        # Without the parts, digests and formats: a rule set's repr would print every body twice.
        return (
            f"InstructionBlob(text={self.text!r}, files={self.files!r}, budget={self.budget!r}, "
            f"warnings={self.warnings!r}, merged={self.merged!r})"
        )


class ScopedFile(NamedTuple):
    """An instruction file (or imported file) with ``globs:`` frontmatter, as Amp reads it.

    It applies only when a touched path matches one of its globs: each glob is taken
    relative to the project root with an implicit ``**/`` ahead, except one starting
    with ``./`` or ``../``, which is relative to the file's own directory.

    Attributes:
        file: The file as a notice sends it.
        globs: The globs, relative to the project root.
        match: Whether a path relative to the project root matches any glob.
    """

    file: NestedFile
    globs: tuple[str, ...]
    match: Callable[[str], bool]


class NestedFile(NamedTuple):
    """An instruction file in a directory below the walk.

    Attributes:
        path: The absolute path (the session's at-most-once key).
        display: The path relative to the project root.
        body: The processed body (comments stripped, imports expanded), capped
            to ``instructions_max_bytes`` with a marker when cut.
        truncated: The body was cut to the cap (a marker says so).
        bytes_dropped: Body bytes dropped by the cap.
    """

    path: str
    display: str
    body: str
    truncated: bool = False
    bytes_dropped: int = 0

    def render(self) -> str:
        """The notice form, headed like a blob part: ``[file: <display>]\\n<body>``."""
        return f"[file: {self.display}]\n{self.body}"
