"""Fixture repositories for lint: files written in a temp dir, in a real git repository when asked."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from ruleweave.config import RuleweaveConfig
from ruleweave.lint import Finding, LintReport, lint


def write(root: Path, files: dict[str, str]) -> Path:
    """Write ``{relative path: text}`` under ``root``; return ``root``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def git_repo(root: Path, files: dict[str, str]) -> Path:
    """A real git repository holding ``files`` (untracked: lint lists them as git does)."""
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return write(root, files)


def plain_tree(root: Path, files: dict[str, str]) -> Path:
    """A project marked by an empty ``.git`` folder that is no repository: lint walks it."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    return write(root, files)


def run(root: Path, *agents: str, **options: Any) -> LintReport:
    """Lint ``root`` (as cwd) with config ``options``."""
    return lint(RuleweaveConfig(cwd=root, **options), agents)


def of(report: LintReport, code: str) -> list[Finding]:
    """The findings with ``code``."""
    return [f for f in report.findings if f.code == code]
