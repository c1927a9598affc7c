"""cline provider: a .clinerules file or directory, the nearest one walking up from cwd."""

from __future__ import annotations

from ruleweave.discovery import cline
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_clinerules_file_is_one_always_rule(write_tree: WriteTree) -> None:
    """A ``.clinerules`` file is one always-applied rule named ``clinerules``."""
    root = write_tree({".clinerules": "# Project rules\nRun the linter before committing.\n"})
    found = run(root, only=cline.PROVIDER)
    rule = named(found)["clinerules"]
    assert rule.always_apply is True
    assert rule.content.startswith("# Project rules")
    assert buckets(found) == {"clinerules": Bucket.GENERIC}


def test_clinerules_directory_maps_paths_to_globs(write_tree: WriteTree) -> None:
    """A ``.clinerules/`` directory gives one rule per file (``.txt`` too); ``paths:`` become globs."""
    root = write_tree(
        {
            ".clinerules/general.md": "Be concise.",
            ".clinerules/api.md": "---\npaths:\n  - 'api/**/*.py'\n  - 'api/*.toml'\n---\nAPI.",
            ".clinerules/described.md": "---\ndescription: Release process\n---\nRelease.",
            ".clinerules/notes.txt": "Plain-text notes are rules too.",
        }
    )
    found = run(root, only=cline.PROVIDER)
    rules = named(found)
    assert [r.name for r in found.rules] == ["api", "described", "general", "notes"]
    assert rules["api"].globs == ("api/**/*.py", "api/*.toml")
    assert buckets(found) == {
        "api": Bucket.SCOPED,
        # Cline: `paths` is the only condition, so a description-only file is always on.
        "described": Bucket.GENERIC,
        "general": Bucket.GENERIC,
        "notes": Bucket.GENERIC,  # docs/customization/cline-rules.mdx: "all .md and .txt files"
    }


def test_only_the_nearest_clinerules_is_used(write_tree: WriteTree) -> None:
    """Walking up from cwd, the first ``.clinerules`` found wins and the others are not read."""
    root = write_tree(
        {
            ".clinerules/root.md": "Root rule.",
            "services/.clinerules": "Services file rule.",
            "services/billing/src/main.py": "print()\n",
        }
    )
    found = run(root, cwd="services/billing/src", only=cline.PROVIDER)
    assert [r.name for r in found.rules] == ["services:clinerules"]
    assert found.rules[0].content == "Services file rule."
    at_root = run(root, only=cline.PROVIDER)
    assert [r.name for r in at_root.rules] == ["root"]


def test_clinerules_above_the_project_root_is_ignored(write_tree: WriteTree) -> None:
    """The upward walk stops at the project root."""
    root = write_tree({"README.md": "hi"})
    (root.parent / ".clinerules").write_text("Outside the project.", encoding="utf-8")
    assert run(root, only=cline.PROVIDER).rules == ()
