"""continue provider: globs, regex, description and alwaysApply (unset means always)."""

from __future__ import annotations

from pathlib import Path

from ruleweave.discovery import continue_
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_always_apply_unset_and_no_globs_means_always(write_tree: WriteTree) -> None:
    """A Continue rule with neither ``alwaysApply`` nor globs is always applied."""
    root = write_tree({".continue/rules/plain.md": "---\ndescription: House style\n---\nStyle."})
    found = run(root, only=continue_.PROVIDER)
    assert named(found)["plain"].always_apply is True
    assert buckets(found)["plain"] is Bucket.GENERIC


def test_always_apply_false_keeps_the_rule_in_the_rulebook(write_tree: WriteTree) -> None:
    """``alwaysApply: false`` with a description makes an agent-requested rule."""
    root = write_tree(
        {".continue/rules/opt.md": "---\nalwaysApply: false\ndescription: Perf tips\n---\nPerf."}
    )
    found = run(root, only=continue_.PROVIDER)
    assert named(found)["opt"].always_apply is False
    assert buckets(found)["opt"] is Bucket.RULEBOOK


def test_globs_and_regex_make_a_scoped_rule_with_a_content_gate(write_tree: WriteTree) -> None:
    """``globs`` become globs, ``regex`` the content gate, and ``name`` the rule's name."""
    root = write_tree(
        {
            ".continue/rules/01-react.md": (
                "---\nname: react-hooks\nglobs: ['**/*.tsx', '**/*.jsx']\n"
                "regex: 'useEffect\\('\ndescription: Hook rules\n---\nDeclare deps."
            ),
        }
    )
    found = run(root, only=continue_.PROVIDER)
    rule = named(found)["react-hooks"]
    assert rule.globs == ("**/*.tsx", "**/*.jsx")
    assert rule.content_regex == ("useEffect\\(",)
    assert rule.always_apply is False
    assert buckets(found)["react-hooks"] is Bucket.SCOPED


def test_user_tier_is_read_first(write_tree: WriteTree, isolated_home: Path) -> None:
    """``~/.continue/rules`` loads before the project's rules."""
    user = isolated_home / ".continue" / "rules"
    user.mkdir(parents=True)
    (user / "mine.md").write_text("Mine.", encoding="utf-8")
    root = write_tree({".continue/rules/ours.md": "Ours."})
    found = run(root, only=continue_.PROVIDER)
    assert [(r.name, r.source.level) for r in found.rules] == [
        ("mine", "user"),
        ("ours", "project"),
    ]


def test_a_rules_folder_committed_as_a_file_is_a_warning(write_tree: WriteTree) -> None:
    """A ``.continue/rules`` that is a file gives a warning saying so, and no rule."""
    root = write_tree({".git/HEAD": "x", ".continue/rules": "Always use tabs."})
    found = run(root, only=continue_.PROVIDER)
    assert found.rules == ()
    assert any(".continue/rules" in str(w) and "is a file, not a folder" in str(w) for w in found.warnings)
