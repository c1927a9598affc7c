"""claude provider: paths → scoped, no paths → the instruction blob; CLAUDE_CONFIG_DIR."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.discovery import claude
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_paths_make_a_scoped_rule(write_tree: WriteTree) -> None:
    """``paths:`` (list or comma string) become the rule's globs."""
    root = write_tree(
        {
            ".claude/rules/api.md": "---\npaths:\n  - 'src/api/**/*.ts'\n---\nValidate input.",
            ".claude/rules/tests.md": (
                "---\npaths: 'tests/**/*.py, conftest.py'\n---\nUse fixtures."
            ),
        }
    )
    found = run(root, only=claude.PROVIDER)
    rules = named(found)
    assert rules["api"].globs == ("src/api/**/*.ts",)
    assert rules["tests"].globs == ("tests/**/*.py", "conftest.py")
    assert buckets(found) == {"api": Bucket.SCOPED, "tests": Bucket.SCOPED}
    assert not any(r.joins_instructions for r in found.rules)


def test_no_paths_joins_the_instruction_blob(write_tree: WriteTree) -> None:
    """A Claude rule without ``paths`` goes to the instructions bucket."""
    root = write_tree({".claude/rules/general.md": "# General\nKeep functions short."})
    found = run(root, only=claude.PROVIDER)
    rule = named(found)["general"]
    assert rule.joins_instructions is True
    assert buckets(found)["general"] is Bucket.INSTRUCTIONS


def test_name_from_frontmatter_and_recursive(write_tree: WriteTree) -> None:
    """``.claude/rules/**/*.md`` is recursive and a frontmatter ``name`` replaces the stem."""
    root = write_tree(
        {".claude/rules/backend/db.md": "---\nname: database\npaths: ['db/**']\n---\nMigrate."}
    )
    assert set(named(run(root, only=claude.PROVIDER))) == {"database"}


def test_user_tier_from_claude_config_dir(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$CLAUDE_CONFIG_DIR/rules`` is the user tier, read before the project."""
    config_dir = tmp_path / "claude-config"
    (config_dir / "rules").mkdir(parents=True)
    (config_dir / "rules" / "me.md").write_text("Personal.", encoding="utf-8")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config_dir))
    root = write_tree({".claude/rules/team.md": "Team."})
    found = run(root, only=claude.PROVIDER)
    assert [(r.name, r.source.level) for r in found.rules] == [("me", "user"), ("team", "project")]


def test_default_user_tier_is_dot_claude(write_tree: WriteTree, isolated_home: Path) -> None:
    """Without ``CLAUDE_CONFIG_DIR`` the user tier is ``~/.claude/rules``."""
    (isolated_home / ".claude" / "rules").mkdir(parents=True)
    (isolated_home / ".claude" / "rules" / "me.md").write_text("Personal.", encoding="utf-8")
    root = write_tree({"README.md": "x"})
    assert named(run(root, only=claude.PROVIDER))["me"].source.level == "user"


def test_walk_reads_root_to_cwd(write_tree: WriteTree) -> None:
    """``.claude/rules`` in each directory of the walk loads root first; a package's rules are its own."""
    root = write_tree(
        {
            ".claude/rules/a.md": "---\npaths: ['*.md']\n---\nRoot a.",
            "pkg/.claude/rules/a.md": "---\npaths: ['*.md']\n---\nPkg a.",
            "pkg/.claude/rules/b.md": "Pkg b.",
        }
    )
    found = run(root, cwd="pkg", only=claude.PROVIDER)
    assert [r.name for r in found.rules] == ["a", "pkg:a", "pkg:b"]
    assert named(found)["pkg:a"].content == "Pkg a."
    # Claude Code reads a bare `paths` glob against the folder's own directory (root dialect).
    assert named(found)["pkg:a"].globs == ("pkg/*.md",)
