"""Small helpers shared by the instruction tests: build a blob, read its parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruleweave.config import RuleweaveConfig
from ruleweave.instructions import InstructionBlob, build_instructions
from ruleweave.rules import Level, Rule, SourceMeta


def config(root: Path, cwd: Path | str | None = None, **options: Any) -> RuleweaveConfig:
    """A config working in ``cwd`` (absolute or relative to ``root``; default ``root``)."""
    where = root if cwd is None else root / cwd
    return RuleweaveConfig(cwd=where, **options)


def build(
    root: Path, cwd: Path | str | None = None, rules: tuple[Rule, ...] = (), **options: Any
) -> InstructionBlob:
    """Build the blob for a fixture repository."""
    return build_instructions(config(root, cwd, **options), rules)


def claude_rule(root: Path, name: str, body: str, level: Level = "project") -> Rule:
    """An unscoped Claude rule as discovery would hand it over."""
    path = str(root / ".claude" / "rules" / f"{name}.md")
    source = SourceMeta(provider="claude", priority=60, level=level, path=path)
    return Rule(name=name, path=path, content=body, joins_instructions=True, source=source)


def headers(blob: InstructionBlob) -> list[str]:
    """The part headers of the blob, in order."""
    return [line for line in blob.text.split("\n") if line.startswith(("[file: ", "[rule: "))]


def messages(blob: InstructionBlob) -> list[str]:
    """Each warning rendered as ``path:line: message``."""
    return [str(warning) for warning in blob.warnings]
