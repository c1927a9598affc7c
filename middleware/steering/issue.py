"""``SpecIssue``: one problem in a SkillSpec document, with its file and line.

It lives here, not in ``ruleweave.errors``: a ``NamedTuple`` imports
``typing``, and the errors module is on the Claude Code hook's fast path,
which must not (``SpecValidationError`` carries these issues and imports this
module only to make its fallback issue).
"""

from __future__ import annotations

from typing import NamedTuple


class SpecIssue(NamedTuple):
    """One problem in a SkillSpec document.

    NamedTuple, not dataclass: the class is ~5× cheaper to create in a hook process (one per tool call).

    Attributes:
        file: The document's path (or a label such as ``<string>``).
        line: 1-based line of the offending key or item; 0 means the whole file.
        reason: One sentence saying what is wrong.
    """

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"

    def to_json(self) -> dict[str, object]:
        """The issue as ``{"file", "line", "reason"}``.

        Returns:
            A JSON-ready dict.
        """
        return {"file": self.file, "line": self.line, "reason": self.reason}
