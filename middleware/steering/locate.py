"""Where a rule set's SkillSpec is: ``config.skillspec``, else the nearest ``.ruleweave/skill.spec.yml``.

Apart from the loader so that a process can tell there is no SkillSpec
(every Claude Code hook in a repository without one) without importing the
steering machinery.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.config import RuleweaveConfig

SPEC_NAME = ".ruleweave/skill.spec.yml"
"""Where discovery looks for a SkillSpec in each directory of the walk (nearest cwd wins)."""


def find_spec(config: RuleweaveConfig, walk: list[Path]) -> Path | None:
    """``config.skillspec``, else the nearest ``.ruleweave/skill.spec.yml`` on the walk.

    Args:
        config: The configuration (``skillspec``, ``cwd``).
        walk: Directories from the project root down to cwd.

    Returns:
        The SkillSpec's path, or ``None`` when there is none.
    """
    if config.skillspec is not None:
        path = config.skillspec
        return path if path.is_absolute() else config.cwd / path
    for directory in reversed(walk):
        candidate = directory / SPEC_NAME
        if candidate.is_file():
            return candidate
    return None
