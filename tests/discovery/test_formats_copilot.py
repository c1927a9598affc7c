"""Issue #12 point 3: Copilot's ``excludeAgent``.

https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions
(path-specific custom instructions): the frontmatter keyword ``excludeAgent``
keeps an instructions file from one agent — ``excludeAgent: "code-review"``
means Copilot code review does not use it, ``excludeAgent: "coding-agent"``
means the coding agent does not (its newer name is ``cloud-agent``). ruleweave
serves a coding agent: the second kind gives no rule (an info line in ``scan``),
the first kind is read as usual.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.cli import main
from tests.conftest import WriteTree

REPO = {
    ".github/instructions/review.instructions.md": (
        "---\napplyTo: '**/*.py'\nexcludeAgent: code-review\n---\nFor the coding agent."
    ),
    ".github/instructions/agent.instructions.md": (
        "---\napplyTo: '**/*.py'\nexcludeAgent: \"coding-agent\"\n---\nFor reviewers only."
    ),
    ".github/instructions/cloud.instructions.md": (
        "---\napplyTo: '**'\nexcludeAgent: cloud-agent\n---\nAlso for reviewers only."
    ),
}


def test_coding_agent_exclusion_drops_the_file(write_tree: WriteTree) -> None:
    """``coding-agent`` / ``cloud-agent`` → no rule and an info note; ``code-review`` → a rule."""
    root = write_tree(REPO)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, project_root=root, builtin_rules=False))
    assert [r.name for r in ruleset.rules] == ["review"]
    notes = [w for w in ruleset.warnings if w.severity == "info"]
    assert sorted(Path(w.path).name for w in notes) == ["agent.instructions.md", "cloud.instructions.md"]
    assert all("excludeAgent" in w.message for w in notes)
    assert not [w for w in ruleset.warnings if w.severity == "warning"]


def test_scan_prints_the_note_and_strict_passes(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scan`` shows the notes; they are not warnings, so ``--strict`` exits 0."""
    root = write_tree(REPO)
    assert main(["scan", "--cwd", str(root), "--strict"]) == 0
    out = capsys.readouterr().out
    assert "2 notes:" in out and "warnings:" not in out
    assert ".github/instructions/agent.instructions.md: has excludeAgent: coding-agent" in out
    assert main(["scan", "--cwd", str(root), "--json", "--strict"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["warnings"] == []
    assert len(data["info"]) == 2
