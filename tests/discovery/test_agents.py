"""agents provider: .agent/rules and .agents/rules on the walk, then the user tier."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import agents
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_both_directory_spellings_are_read(write_tree: WriteTree) -> None:
    """``.agent/rules`` and ``.agents/rules`` both give rules named by stem."""
    root = write_tree(
        {
            ".agent/rules/testing.md": "---\nglobs: 'tests/**'\ndescription: Tests\n---\nT.",
            ".agents/rules/style.mdc": "---\nalwaysApply: true\n---\nS.",
        }
    )
    found = run(root, only=agents.PROVIDER)
    assert buckets(found) == {"testing": Bucket.SCOPED, "style": Bucket.GENERIC}
    assert {r.source.priority for r in found.rules} == {70}


def test_walk_levels_each_speak_for_their_directory(write_tree: WriteTree) -> None:
    """Every directory from the root to cwd is read; a folder below the root owns its subtree."""
    root = write_tree(
        {
            ".agents/rules/shared.md": "Root version.",
            ".agents/rules/root-only.md": "Root only.",
            "a/b/.agent/rules/shared.md": "Nearest version.",
            "a/.agents/rules/middle.md": "Middle.",
            "z/.agents/rules/elsewhere.md": "Off the walk.",
        }
    )
    found = run(root, cwd="a/b", only=agents.PROVIDER)
    rules = named(found)
    assert [r.name for r in found.rules] == ["root-only", "shared", "a:middle", "a/b:shared"]
    assert rules["shared"].content == "Root version."
    assert rules["a/b:shared"].content == "Nearest version."
    assert rules["a/b:shared"].base == "a/b" and not rules["shared"].shadowed


def test_user_tier_reads_both_spellings(write_tree: WriteTree, isolated_home: Path) -> None:
    """``~/.agent/rules`` and ``~/.agents/rules`` load first, as the user tier."""
    for name in (".agent", ".agents"):
        (isolated_home / name / "rules").mkdir(parents=True)
        (isolated_home / name / "rules" / f"user{name}.md").write_text("U.", encoding="utf-8")
    root = write_tree({".agents/rules/p.md": "P."})
    found = run(root, only=agents.PROVIDER)
    assert [(r.name, r.source.level) for r in found.rules] == [
        ("user.agent", "user"),
        ("user.agents", "user"),
        ("p", "project"),
    ]
