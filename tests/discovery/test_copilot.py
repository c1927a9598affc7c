"""copilot provider: copilot-instructions.md and .github/instructions with applyTo."""

from __future__ import annotations

from ruleweave.discovery import copilot
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, named, run


def test_copilot_instructions_is_always_applied(write_tree: WriteTree) -> None:
    """``.github/copilot-instructions.md`` is one always rule named ``copilot-instructions``."""
    root = write_tree({".github/copilot-instructions.md": "Use pnpm, not npm."})
    found = run(root, only=copilot.PROVIDER)
    rule = named(found)["copilot-instructions"]
    assert rule.always_apply is True
    assert buckets(found)["copilot-instructions"] is Bucket.GENERIC


def test_apply_to_comma_list_becomes_globs(write_tree: WriteTree) -> None:
    """``applyTo`` is split on commas outside braces; the name drops ``.instructions``."""
    root = write_tree(
        {
            ".github/instructions/frontend.instructions.md": (
                '---\napplyTo: "src/**/*.{ts,tsx}, web/*.css"\n---\nFrontend.'
            ),
            ".github/instructions/backend/py.instructions.md": (
                "---\napplyTo: '**/*.py'\n---\nPython."
            ),
        }
    )
    found = run(root, only=copilot.PROVIDER)
    rules = named(found)
    assert set(rules) == {"frontend", "backend/py"}
    assert rules["frontend"].globs == ("src/**/*.{ts,tsx}", "web/*.css")
    assert rules["backend/py"].globs == ("**/*.py",)
    assert buckets(found) == {"frontend": Bucket.SCOPED, "backend/py": Bucket.SCOPED}


def test_apply_to_everything_means_always(write_tree: WriteTree) -> None:
    """``applyTo: '**'`` and ``'**/*'`` make the rule always applied, without globs (``'*'`` is
    files at the top only, as Copilot's docs read it: tests/discovery/test_formats_globs.py)."""
    root = write_tree(
        {
            ".github/instructions/a.instructions.md": "---\napplyTo: '**'\n---\nA.",
            ".github/instructions/c.instructions.md": "---\napplyTo: '**/*'\n---\nC.",
        }
    )
    found = run(root, only=copilot.PROVIDER)
    for rule in found.rules:
        assert rule.always_apply is True
        assert rule.globs == ()
    assert set(buckets(found).values()) == {Bucket.GENERIC}


def test_only_instructions_md_files_are_read(write_tree: WriteTree) -> None:
    """Plain ``.md`` files beside the instruction files are not rules."""
    root = write_tree(
        {
            ".github/instructions/README.md": "How to write instructions.",
            ".github/instructions/sql.instructions.md": "---\napplyTo: '*.sql'\n---\nSQL.",
            ".github/PULL_REQUEST_TEMPLATE.md": "Describe the change.",
        }
    )
    assert set(named(run(root, only=copilot.PROVIDER))) == {"sql"}


def test_nested_github_dirs_on_the_walk_are_read(write_tree: WriteTree) -> None:
    """A ``.github`` directory in a subproject on the walk is read after the root's."""
    root = write_tree(
        {
            ".github/copilot-instructions.md": "Root.",
            "apps/site/.github/instructions/site.instructions.md": (
                "---\napplyTo: '*.vue'\n---\nVue."
            ),
        }
    )
    found = run(root, cwd="apps/site", only=copilot.PROVIDER)
    assert [r.name for r in found.rules] == ["copilot-instructions", "apps/site:site"]
    # Copilot reads a bare applyTo glob against its own directory only (root dialect).
    assert named(found)["apps/site:site"].globs == ("apps/site/*.vue",)
