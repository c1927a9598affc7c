"""Points 10 and 11: globs that can never match are reported; ``@import`` in indented code stays text."""

from __future__ import annotations

import pytest

from tests.conftest import WriteTree
from tests.security.helpers import load


@pytest.mark.parametrize(
    ("glob", "problem"),
    [
        ("{a,b}" * 30, "expands to more than"),
        ("{1..100000}.ts", "expands to more than"),
        ("src/[abc*.ts", "never closed"),
    ],
)
def test_a_glob_that_can_never_match_is_a_warning_naming_file_and_glob(
    write_tree: WriteTree, glob: str, problem: str
) -> None:
    """The rule still loads as scoped, and a warning names its file, the glob and why it never fires."""
    root = write_tree({".cursor/rules/dead.mdc": f"---\nglobs: ['{glob}']\n---\nNever fires."})
    ruleset = load(root)
    [warning] = [w for w in ruleset.warnings if problem in w.message]
    assert warning.path == str(root / ".cursor/rules/dead.mdc")
    assert glob[:40] in warning.message and "never matches" in warning.message
    assert ruleset.session("s").after_tool_call("read", {"path": "src/a.ts"}) is None


def test_usable_globs_make_no_warning(write_tree: WriteTree) -> None:
    """Ordinary globs, braces and classes included, are not reported."""
    root = write_tree(
        {".cursor/rules/ok.mdc": "---\nglobs: ['src/**/*.{ts,tsx}', '[abc]*.py', 'a/{1..9}.md']\n---\nOK."}
    )
    assert not [w for w in load(root).warnings if "never matches" in w.message]


def test_an_import_inside_an_indented_code_block_is_not_expanded(write_tree: WriteTree) -> None:
    """``@secret.md`` indented four spaces after a blank line is code, like fences and spans."""
    agents = (
        "Read these:\n\n"
        "    @secret.md\n"
        "\tcat @secret.md\n\n"
        "```\n@secret.md\n```\n\n"
        "Inline `@secret.md` too.\n\n"
        "- a list item\n\n"
        "    continued in the item, @listed.md\n\n"
        "And @prose.md.\n"
    )
    root = write_tree(
        {"CLAUDE.md": agents, "secret.md": "SECRET", "listed.md": "LISTED", "prose.md": "PROSE"}
    )
    blob = load(root).blob.text
    assert "SECRET" not in blob
    assert "[import: listed.md]" in blob and "[import: prose.md]" in blob
    assert "    @secret.md" in blob
