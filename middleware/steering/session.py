"""Finding and loading a session's SkillSpec; problems become warnings, never errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ruleweave.config import RuleweaveConfig
from ruleweave.reading import read_text
from ruleweave.rules import DiscoveryWarning

if TYPE_CHECKING:
    from ruleweave.steering.enforce import ToolPattern
    from ruleweave.steering.model import SkillSpec

SPEC_NAME = ".ruleweave/skill.spec.yml"
"""Where discovery looks for a SkillSpec in each directory of the walk (nearest cwd wins)."""


@dataclass(frozen=True)
class Steering:
    """A rule set's SkillSpec, ready for sessions.

    Attributes:
        spec: The validated document, or ``None`` when there is none or it is invalid.
        path: The file it was read from.
        tool_map: Forbid id → tool patterns, from ``config.steering_tools``.
        warnings: Why the spec could not be used, each naming the file and line.
    """

    spec: SkillSpec | None = None
    path: Path | None = None
    tool_map: dict[str, ToolPattern] = field(default_factory=dict)
    warnings: tuple[DiscoveryWarning, ...] = ()


def find_spec(config: RuleweaveConfig, walk: list[Path]) -> Path | None:
    """``config.skillspec``, else the nearest ``.ruleweave/skill.spec.yml`` on the walk."""
    if config.skillspec is not None:
        path = config.skillspec
        return path if path.is_absolute() else config.cwd / path
    for directory in reversed(walk):
        candidate = directory / SPEC_NAME
        if candidate.is_file():
            return candidate
    return None


def load_steering(config: RuleweaveConfig, walk: list[Path]) -> Steering:
    """Load the session SkillSpec; an unreadable or invalid one is a warning and no steering.

    Args:
        config: The configuration (``skillspec``, ``steering_tools``).
        walk: Directories from the project root down to cwd.

    Returns:
        The ``Steering`` (its ``spec`` is ``None`` when nothing usable was found).
    """
    path = find_spec(config, walk)
    if path is None:
        return Steering()
    # The SkillSpec machinery loads only when a spec exists (hook start-up stays cheap).
    from ruleweave.steering.enforce import ToolPattern
    from ruleweave.steering.loader import check_spec

    tool_map = {key: ToolPattern.parse(items) for key, items in config.steering_tools.items()}
    read = read_text(path, config.max_file_bytes)
    if read.text is None or read.oversized:
        problem = read.problem or "cannot be read"
        message = f"SkillSpec {problem}; steering is off"
        return Steering(None, path, tool_map, (DiscoveryWarning(path=str(path), message=message),))
    spec, issues = check_spec(read.text, file=str(path))
    warnings = tuple(
        DiscoveryWarning(
            path=str(path), line=issue.line or None, provider="skillspec",
            message=f"{issue.reason} (steering is off until the SkillSpec is valid)",
        )
        for issue in issues
    )
    return Steering(spec, path, tool_map, warnings)
