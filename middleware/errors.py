"""Every exception ruleweave raises, in one place.

The tree::

    RuleweaveError
    ├── ConfigError              a configuration value or argument is unusable (also ValueError)
    ├── ArgumentTypeError        an argument has the wrong type (also TypeError)
    ├── MissingDependencyError   an optional extra is not installed (also ImportError)
    ├── RuleNotFound             rule://name names no rule of the session (also LookupError)
    ├── SpecError                a SkillSpec document cannot be used
    │   ├── SpecReadError        the file cannot be read
    │   └── SpecValidationError  the document is invalid; ``.issues`` lists every problem
    ├── StoreError               a session store failed (unreachable, unknown URL, disk full)
    └── ReplayError              an event log cannot be replayed

Foreign errors are translated where they enter (``raise ... from exc``), so a
caller that catches ``RuleweaveError`` catches everything ruleweave raises.
"""

from __future__ import annotations

from typing import NamedTuple


class RuleweaveError(Exception):
    """Base class of every error ruleweave raises."""


class ConfigError(RuleweaveError, ValueError):
    """A configuration value or an argument's value cannot be used."""


class ArgumentTypeError(RuleweaveError, TypeError):
    """An argument to a public call has the wrong type."""


class MissingDependencyError(RuleweaveError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        self.package = package
        self.extra = extra
        super().__init__(
            f"{package} is not installed; install it with `pip install ruleweave[{extra}]`."
        )


class RuleNotFound(RuleweaveError, LookupError):
    """A ``rule://`` address names no rule known to the session."""

    def __init__(self, message: str, *, name: str, available: tuple[str, ...]) -> None:
        self.name = name
        self.available = available
        super().__init__(message)


class SpecError(RuleweaveError):
    """A SkillSpec document cannot be loaded or is invalid."""


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


class StoreError(RuleweaveError):
    """A session store could not read or write state, or cannot be opened."""


class ReplayError(RuleweaveError):
    """An event log cannot be read or holds no ruleweave session."""
