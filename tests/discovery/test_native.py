"""native provider: .ruleweave/rules with every field, sticky RULES.md, the user tier."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.discovery import native
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, rel, run


def test_all_fields_are_mapped(write_tree: WriteTree) -> None:
    """Native frontmatter maps name, globs, description and every TTSR field."""
    root = write_tree(
        {
            ".ruleweave/rules/py/print.md": (
                "---\nname: no-print\ndescription: Use logging, not print\n"
                "globs: ['**/*.py']\ncondition: ['print\\(']\nast-condition: 'print($$$A)'\n"
                "scope: [text, 'tool:edit(*.py)']\ninterrupt_mode: tool-only\n"
                "repeat: after-gap 3\n---\nUse the logging module."
            ),
        }
    )
    found = run(root, only=native.PROVIDER)
    rule = named(found)["no-print"]
    assert rel(rule, root) == ".ruleweave/rules/py/print.md"
    assert rule.description == "Use logging, not print"
    assert rule.globs == ("**/*.py",)
    assert rule.condition == ("print\\(",)
    assert rule.ast_condition == ("print($$$A)",)
    assert rule.scope == ("text", "tool:edit(*.py)")
    assert rule.interrupt_mode == "tool-only"
    assert rule.repeat == "after-gap 3"
    assert rule.source.provider == "native"
    assert rule.source.priority == 100
    assert buckets(found)["no-print"] is Bucket.TTSR
    assert found.warnings == ()


def test_mdc_files_and_stem_names(write_tree: WriteTree) -> None:
    """``.mdc`` files are read too, and a rule without ``name`` is named by its stem."""
    root = write_tree({".ruleweave/rules/commits.mdc": "---\nalwaysApply: true\n---\nSign off."})
    rule = named(run(root, only=native.PROVIDER))["commits"]
    assert rule.always_apply is True


def test_sticky_rules_md_is_always_applied(write_tree: WriteTree) -> None:
    """``.ruleweave/RULES.md`` is one always rule named ``RULES``, loaded before the rules dir."""
    root = write_tree(
        {
            ".ruleweave/RULES.md": "---\ndescription: sticky\n---\nNever push to main.",
            ".ruleweave/rules/a.md": "---\ndescription: A\n---\nA.",
        }
    )
    found = run(root, only=native.PROVIDER)
    assert [r.name for r in found.rules] == ["RULES", "a"]
    assert found.rules[0].always_apply is True
    assert buckets(found)["RULES"] is Bucket.GENERIC


def test_user_tier_from_ruleweave_home(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``$RULEWEAVE_HOME/rules`` and its sticky ``RULES.md`` load first, as the user tier."""
    home = tmp_path / "rw-home"
    (home / "rules").mkdir(parents=True)
    (home / "RULES.md").write_text("User sticky.", encoding="utf-8")
    (home / "rules" / "mine.md").write_text("Mine.", encoding="utf-8")
    monkeypatch.setenv("RULEWEAVE_HOME", str(home))
    root = write_tree({".ruleweave/rules/ours.md": "Ours."})
    found = run(root, only=native.PROVIDER)
    assert [(r.name, r.source.level) for r in found.rules] == [
        ("RULES", "user"),
        ("mine", "user"),
        ("ours", "project"),
    ]


def test_default_user_tier_is_dot_ruleweave_in_home(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """Without ``RULEWEAVE_HOME`` the user tier is ``~/.ruleweave``."""
    (isolated_home / ".ruleweave" / "rules").mkdir(parents=True)
    (isolated_home / ".ruleweave" / "rules" / "home.md").write_text("Home.", encoding="utf-8")
    root = write_tree({"README.md": "x"})
    rule = named(run(root, only=native.PROVIDER))["home"]
    assert rule.source.level == "user"


def test_project_sticky_wins_over_user_sticky(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """Both tiers' ``RULES.md`` share a name; the project's wins and the user's is shadowed."""
    (isolated_home / ".ruleweave").mkdir()
    (isolated_home / ".ruleweave" / "RULES.md").write_text("User.", encoding="utf-8")
    root = write_tree({".ruleweave/RULES.md": "Project."})
    found = run(root, only=native.PROVIDER)
    assert [r.content for r in found.rules] == ["Project."]
    assert [s.level for s in found.rules[0].shadowed] == ["user"]


def test_bad_interrupt_mode_and_repeat_are_warnings(write_tree: WriteTree) -> None:
    """An unknown ``interruptMode`` or ``repeat`` is dropped with a warning naming the file."""
    root = write_tree(
        {
            ".ruleweave/rules/x.md": (
                "---\ncondition: 'TODO'\ninterruptMode: sometimes\nrepeat: twice\n---\nX."
            ),
        }
    )
    found = run(root, only=native.PROVIDER)
    rule = named(found)["x"]
    assert rule.interrupt_mode is None
    assert rule.repeat is None
    assert len(found.warnings) == 2
    assert all(w.path == str(root / ".ruleweave/rules/x.md") for w in found.warnings)
    assert "sometimes" in messages(found)[0]


def test_empty_body_is_skipped_with_a_warning(write_tree: WriteTree) -> None:
    """A rule file with frontmatter but no text is skipped and reported."""
    root = write_tree(
        {
            ".ruleweave/rules/empty.md": "---\ndescription: nothing here\n---\n   \n",
            ".ruleweave/rules/full.md": "Something.",
        }
    )
    found = run(root, only=native.PROVIDER)
    assert set(named(found)) == {"full"}
    [warning] = found.warnings
    assert warning.path.endswith("empty.md")
