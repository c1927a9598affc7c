"""Problems found in a SkillSpec document, each with file, line and reason.

The errors::

    SpecError (ruleweave.errors)
    ├── SpecReadError         the file cannot be read (line 0: the whole file)
    └── SpecValidationError   the document is invalid; ``.issues`` lists every problem
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleweave.errors import SpecError


@dataclass(frozen=True, slots=True)
class SpecIssue:
    """One problem in a document.

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


class SpecReadError(SpecError):
    """A SkillSpec file cannot be read.

    Attributes:
        file: The path.
        line: Always 0 (the whole file).
        reason: One sentence.
    """

    def __init__(self, file: str, reason: str) -> None:
        self.file = file
        self.line = 0
        self.reason = reason
        super().__init__(f"{file}:0: {reason}")


class SpecValidationError(SpecError):
    """A SkillSpec document is invalid; every problem found is listed.

    Attributes:
        issues: All problems, in line order.
        file: The first issue's file.
        line: The first issue's line.
        reason: The first issue's reason.
    """

    def __init__(self, issues: tuple[SpecIssue, ...]) -> None:
        issues = issues or (SpecIssue("<unknown>", 0, "The SkillSpec is invalid."),)
        self.issues = issues
        first = issues[0]
        self.file = first.file
        self.line = first.line
        self.reason = first.reason
        count = len(issues)
        head = f"{first.file}: {count} problem{'s' if count != 1 else ''} in the SkillSpec"
        super().__init__("\n".join([head, *(f"  {issue}" for issue in issues)]))
