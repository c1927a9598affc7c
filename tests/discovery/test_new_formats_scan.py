"""``ruleweave scan`` on a repository with every new rule-folder format: each rule once, in its bucket."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.cli import main
from tests.conftest import WriteTree

# One fixture repository with the formats of Trae, Junie, Augment, Roo Code, OpenCode and
# JetBrains AI Assistant (each format's documentation is quoted in its own test module).
REPO: dict[str, str] = {
    ".trae/rules/project_rules.md": "Trae: run the linter.",
    ".trae/rules/tests.md": "---\nalwaysApply: false\nglobs: '*.test.ts'\n---\nTrae: vitest.",
    ".trae/rules/db.md": "---\nalwaysApply: false\ndescription: Trae database work\n---\nTrae: migrations.",
    ".junie/guidelines/java.md": "Junie: constructor injection.",
    ".augment/rules/always.md": "---\ntype: always_apply\n---\nAugment: pnpm.",
    ".augment/rules/schema.md": (
        "---\ntype: agent_requested\ndescription: Augment schema\n---\nAugment: schema."
    ),
    ".augment/rules/release.md": "---\ntype: manual\n---\nAugment: release.",
    ".roo/rules/general.md": "Roo: small commits.",
    ".roo/rules-architect/c4.md": "Roo: C4 diagrams.",
    ".aiassistant/rules/kotlin.md": "---\napply: by file patterns\npatterns: '*.kt'\n---\nAI: Kotlin.",
    ".aiassistant/rules/review.md": "AI: review checklist.",
    "opencode.jsonc": '{\n  // OpenCode\n  "instructions": ["docs/opencode/*.md", "AGENTS.md"],\n}\n',
    "docs/opencode/style.md": "OpenCode: style.",
    "AGENTS.md": "Shared agent instructions.",
}

EXPECTED: dict[tuple[str, str], str] = {
    ("trae", "project_rules"): "generic",
    ("trae", "tests"): "scoped",
    ("trae", "db"): "rulebook",
    ("junie", "java"): "generic",
    ("augment", "always"): "generic",
    ("augment", "schema"): "rulebook",
    ("augment", "release"): "manual",
    ("roo", "general"): "generic",
    ("roo", "rules-architect/c4"): "manual",
    ("aiassistant", "kotlin"): "scoped",
    ("aiassistant", "review"): "generic",
    ("opencode", "docs/opencode/style.md"): "generic",
}


def _scan(capsys: pytest.CaptureFixture[str], root: Path) -> dict[str, Any]:
    code = main(["scan", "--cwd", str(root), "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def test_scan_shows_each_rule_once_in_its_agents_bucket(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every rule of the six formats appears exactly once, with its provider and bucket, and no warning."""
    root = write_tree(REPO)
    data = _scan(capsys, root)
    got = {(r["provider"], r["name"]): r["bucket"] for r in data["rules"]}
    assert got == EXPECTED
    assert Counter(Path(r["path"]).resolve() for r in data["rules"]).most_common(1)[0][1] == 1
    assert data["warnings"] == []
    # AGENTS.md stays in the instruction blob, not a second time as an OpenCode rule.
    assert [Path(i["path"]).name for i in data["instructions"]] == ["AGENTS.md"]


def test_session_prompt_carries_the_always_on_rules_and_a_touch_fires_the_scoped_ones(
    write_tree: WriteTree,
) -> None:
    """Always-on rules are in the prompt; touching ``*.kt`` / ``*.test.ts`` fires the scoped ones."""
    root = write_tree(REPO)
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)).session("s")
    prompt = session.system_prompt()
    for text in ("Trae: run the linter.", "Junie: constructor injection.", "Augment: pnpm.",
                 "Roo: small commits.", "AI: review checklist.", "OpenCode: style."):
        assert text in prompt
    for text in ("Trae: vitest.", "AI: Kotlin.", "Augment: release.", "Roo: C4 diagrams."):
        assert text not in prompt
    injected = session.after_tool_call("Edit", {"file_path": str(root / "src" / "deep" / "App.kt")})
    assert injected is not None and "AI: Kotlin." in injected.text
    injected = session.after_tool_call("Edit", {"file_path": str(root / "web" / "a.test.ts")})
    assert injected is not None and "Trae: vitest." in injected.text


def test_configured_roo_mode_puts_its_rules_in_the_prompt(write_tree: WriteTree) -> None:
    """With ``mode="architect"`` the ``.roo/rules-architect`` rules are always on."""
    root = write_tree(REPO)
    prompt = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, mode="architect")).session(
        "s"
    ).system_prompt()
    assert "Roo: C4 diagrams." in prompt
