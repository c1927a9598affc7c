"""The one shape every provider's rule is normalised into (pure data)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

Level = Literal["user", "project", "builtin"]
"""Which tier a rule came from."""

Severity = Literal["warning", "info"]
"""A discovery message: ``warning`` (something was lost or refused; ``scan --strict`` fails) or
``info`` (read as the agent reads it, worth knowing: ``scan`` prints it, ``--strict`` ignores it)."""

InterruptMode = Literal["never", "prose-only", "tool-only", "always"]
"""When a streamed-rule (TTSR) match stops the model's stream."""


class Bucket(StrEnum):
    """Where a rule goes in a session (DESIGN §4)."""

    TTSR = "ttsr"
    GENERIC = "generic"
    SCOPED = "scoped"
    RULEBOOK = "rulebook"
    MANUAL = "manual"
    INSTRUCTIONS = "instructions"


class SourceMeta(BaseModel):
    """Where a rule came from.

    Attributes:
        provider: The provider id (``cursor``, ``claude``, ...).
        priority: The provider's priority; higher wins a name clash.
        level: ``user``, ``project`` or ``builtin``.
        path: The file the rule was read from.
    """

    model_config = ConfigDict(frozen=True)

    provider: str
    priority: int
    level: Level
    path: str


class Rule(BaseModel):
    """A rule, whatever agent format it was written in.

    Attributes:
        name: Identity for precedence and ``rule://`` (DESIGN §1).
        path: The file the rule was read from.
        content: The body after the frontmatter, trimmed (and capped).
        globs: File globs; a scoped rule fires when a touched path matches.
        always_apply: Put the body in every prompt.
        description: One line telling the model when to read the rule.
        condition: TTSR regexes watched in the model's stream.
        ast_condition: TTSR ast-grep patterns watched in code a tool writes.
        scope: TTSR scope tokens (``text``, ``tool:edit(*.ts)``, ...).
        interrupt_mode: TTSR interrupt mode; ``None`` takes the config default.
        repeat: TTSR repeat policy (``once`` or ``after-gap N``); ``None`` is once.
        content_regex: Continue's ``regex`` gate on the touched file's content.
        exclude_globs: Globs a touched path must not match (Continue's ``!``-negated globs).
        joins_instructions: Unscoped Claude rules join the instruction blob.
        truncated: The body was cut to the byte cap.
        base: The directory, relative to the project root, whose rule folder holds the
            rule ('' for the root and the user tier); its globs were rebased onto it.
        source: Provider, priority, tier and path.
        shadowed: Same-named rules this one won over, best first.
    """

    model_config = ConfigDict(frozen=True)

    name: str
    path: str
    content: str
    globs: tuple[str, ...] = ()
    always_apply: bool = False
    description: str | None = None
    condition: tuple[str, ...] = ()
    ast_condition: tuple[str, ...] = ()
    scope: tuple[str, ...] = ()
    interrupt_mode: InterruptMode | None = None
    repeat: str | None = None
    content_regex: tuple[str, ...] = ()
    exclude_globs: tuple[str, ...] = ()
    joins_instructions: bool = False
    truncated: bool = False
    base: str = ""
    source: SourceMeta
    shadowed: tuple[SourceMeta, ...] = ()


class DiscoveryWarning(BaseModel):
    """Something discovery skipped or repaired, naming the file.

    Attributes:
        path: The file or directory concerned ('' when none).
        message: One sentence saying what happened.
        provider: The provider that reported it, if any.
        line: The 1-based line in ``path``, when known.
        severity: ``warning``, or ``info`` for a note that loses nothing (``Severity``).
    """

    model_config = ConfigDict(frozen=True)

    path: str
    message: str
    provider: str | None = None
    line: int | None = None
    severity: Severity = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}" if where else self.message
