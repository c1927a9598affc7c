"""trae provider: ``.trae/rules/*.md`` read the Cursor way, ``project_rules.md`` always on."""

from __future__ import annotations

from ruleweave.discovery import trae
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run

# Trae docs, "Rules" (docs.trae.ai, mirrored at w3cschool.cn/traedocs/trae-rules-for-ai.html):
# "系统自动在项目目录中创建 .trae/rules 文件夹，并在该文件夹内创建 project_rules.md 文件 …
# 规则将被应用于当前项目的 AI 行为中" — project_rules.md applies to every request in the project.
# Rule files carry Cursor-style frontmatter (agentconfig.ing/files/trae-rules): "Always
# (alwaysApply: true), Auto (glob-pattern matching), Manual (explicit user reference), and
# Agent-requested (AI pulls in rules based on description relevance)".


def test_cursor_style_frontmatter_maps_to_buckets(write_tree: WriteTree) -> None:
    """``alwaysApply``/``globs``/``description``/none → generic/scoped/rulebook/manual."""
    root = write_tree(
        {
            ".trae/rules/always.md": "---\nalwaysApply: true\ndescription: Style\n---\nTabs.",
            ".trae/rules/tests.md": (
                "---\nalwaysApply: false\nglobs: '**/*.test.ts, *.spec.ts'\n---\nVitest."
            ),
            ".trae/rules/migrations.md": (
                "---\nalwaysApply: false\ndescription: Database migration guidelines\n---\nReversible."
            ),
            ".trae/rules/manual.md": "---\nalwaysApply: false\n---\nOnly by #manual.",
        }
    )
    found = run(root, only=trae.PROVIDER)
    assert buckets(found) == {
        "always": Bucket.GENERIC,
        "tests": Bucket.SCOPED,
        "migrations": Bucket.RULEBOOK,
        "manual": Bucket.MANUAL,
    }
    assert named(found)["tests"].globs == ("**/*.test.ts", "**/*.spec.ts")  # Cursor-style: anywhere
    assert all(rule.source.provider == "trae" for rule in found.rules)


def test_project_rules_md_is_always_on_whatever_its_frontmatter(write_tree: WriteTree) -> None:
    """``project_rules.md`` is applied to every request, even when it says otherwise."""
    root = write_tree(
        {
            ".trae/rules/project_rules.md": "---\nalwaysApply: false\nglobs: '*.py'\n---\nLint first.",
            ".trae/rules/plain.md": "Every file of the folder used to be a project rule.",
        }
    )
    found = run(root, only=trae.PROVIDER)
    assert buckets(found) == {"project_rules": Bucket.GENERIC, "plain": Bucket.GENERIC}
    assert named(found)["project_rules"].content == "Lint first."


def test_only_markdown_directly_in_the_folder_is_read(write_tree: WriteTree) -> None:
    """Subfolders and other file types of ``.trae/rules`` are not rules."""
    root = write_tree(
        {
            ".trae/rules/top.md": "---\nalwaysApply: true\n---\nTop.",
            ".trae/rules/old/archived.md": "---\nalwaysApply: true\n---\nOld.",
            ".trae/rules/notes.txt": "Not a rule.",
        }
    )
    assert set(named(run(root, only=trae.PROVIDER))) == {"top"}


def test_nested_trae_folder_below_cwd_is_not_read_on_touch(write_tree: WriteTree) -> None:
    """Trae reads the project's own ``.trae/rules``; a package's folder below cwd is not a source."""
    from ruleweave.config import RuleweaveConfig
    from ruleweave.discovery import discover_directory

    root = write_tree({"apps/web/.trae/rules/web.md": "---\nalwaysApply: true\n---\nWeb."})
    config = RuleweaveConfig(cwd=root, builtin_rules=False)
    assert discover_directory(config, root / "apps" / "web", (trae.PROVIDER,)).rules == ()
