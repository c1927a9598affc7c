"""Files a SkillSpec package names beside it: resources, code files, the ``deps.toml`` ledger.

As in the reference implementation, when a spec is loaded from a file:

- every ``resources`` path, every ``code`` ``source.file`` and the dependency
  ledger (dependency ``dependency_ledger``, or a ``file`` dependency whose
  path ends in ``deps.toml``) must be an existing file inside the skill
  folder (``..`` is refused; ``deps.toml`` must not be empty);
- a code file's ``from_resource`` must name the resource with the same path.

Paths that are URLs, absolute, or start with ``~/`` are left to the harness,
as the reference does. Nothing is opened: only ``stat`` is used, so a FIFO
never blocks. A symbolic link leading outside the folder counts as outside.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePath

from ruleweave._files.paths import is_within
from ruleweave.steering.issue import SpecIssue
from ruleweave.steering.model import SkillSpec
from ruleweave.steering.source import SourceMap, YamlPath

LEDGER_ID = "dependency_ledger"
"""The dependency id of the package's dependency ledger."""

LEDGER_FILE = "deps.toml"
"""The ledger's file name."""


def check_sidecars(spec: SkillSpec, folder: Path, source: SourceMap) -> list[SpecIssue]:
    """Every problem with the files the package names beside the spec.

    Args:
        spec: A validated document.
        folder: The folder holding the spec.
        source: Lines of the document.

    Returns:
        The problems, in document order.
    """
    issues: list[SpecIssue] = []

    def check(path: YamlPath, what: str, value: str, non_empty: bool = False) -> None:
        problem = _problem(folder, value, non_empty)
        if problem:
            issues.append(source.issue(path, f"{what}: {value} {problem}."))

    for key, dependency in spec.dependencies.items():
        if dependency.kind != "file":
            continue
        value = (dependency.check.path if dependency.check else None) or dependency.path
        if value is not None and (key == LEDGER_ID or value.endswith(LEDGER_FILE)):
            check(("dependencies", key), f"The dependency {key!r}", value, value.endswith(LEDGER_FILE))
    for key, resource in spec.resources.items():
        check(("resources", key, "path"), f"The resource {key!r}", resource.path)
    for key, block in spec.code.items():
        file = block.source.file
        if file is None:
            continue
        check(("code", key, "source", "file"), f"The code block {key!r}", file)
        named = block.source.from_resource
        origin = spec.resources.get(named) if named is not None else None
        if origin is not None and origin.path != file:
            issues.append(
                source.issue(
                    ("code", key, "source", "from_resource"),
                    f"The code block {key!r} reads {file} but its resource {named!r} is {origin.path}.",
                )
            )
    return issues


def _problem(folder: Path, value: str, non_empty: bool) -> str | None:
    """Why ``value`` is not a usable package file (None when it is, or is not checked)."""
    text = value.strip()
    if not text or "://" in text or text.startswith("~/") or PurePath(text).is_absolute():
        return None
    if ".." in PurePath(text).parts:
        return "must stay within the skill folder"
    target = folder / text
    real = Path(os.path.realpath(target))
    if not is_within(real, Path(os.path.realpath(folder))):
        return "leads outside the skill folder through a symbolic link"
    try:
        info = os.stat(real)
    except OSError as exc:
        return f"is missing ({exc.strerror})"
    if not stat.S_ISREG(info.st_mode):
        return "is not a file"
    if non_empty and info.st_size == 0:
        return "exists but is empty"
    return None
