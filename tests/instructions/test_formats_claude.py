"""Claude Code's CLAUDE.md: the walk above the root, ``@`` imports and where they apply.

Claude Code docs, "Manage Claude's memory" (https://docs.anthropic.com/en/docs/claude-code/memory):
"Claude Code reads memories recursively: starting in the cwd, Claude Code recurses
up to (but not including) the root directory / and reads any CLAUDE.md or
CLAUDE.local.md files it finds." "CLAUDE.md files can import additional files
using @path/to/import syntax." "Both relative and absolute paths are allowed. In
particular, importing files in user's home dir is a convenient way for your team
members to provide individual instructions that are not checked into the
repository." "Claude also discovers CLAUDE.md nested in subtrees under your
current working directory. Instead of loading them at launch, they are only
included when Claude reads files in those subtrees."
Codex ("Custom instructions with AGENTS.md", developers.openai.com/codex/guides/agents-md)
concatenates AGENTS.md as written: it has no import syntax, so ``@path`` stays text.
"""

from __future__ import annotations

from pathlib import Path

from ruleweave.instructions import NestedInstructions, build_instructions
from tests.conftest import WriteTree
from tests.instructions.helpers import build, config, headers


def test_claude_md_above_the_root_joins_before_the_project(write_tree: WriteTree, tmp_path: Path) -> None:
    """CLAUDE.md and CLAUDE.local.md in directories above the project root come before its files."""
    (tmp_path / "CLAUDE.md").write_text("workspace conventions")
    (tmp_path / "CLAUDE.local.md").write_text("workspace local")
    (tmp_path / "AGENTS.md").write_text("not Claude's: never read above the root")
    root = write_tree({"CLAUDE.md": "project claude"})
    blob = build(root)
    shown = str(tmp_path / "CLAUDE.md")
    assert headers(blob) == [
        f"[file: {shown}]", f"[file: {tmp_path / 'CLAUDE.local.md'}]", "[file: CLAUDE.md]",
    ]
    assert [f.level for f in blob.files] == ["parent", "parent", "project"]
    assert "never read above the root" not in blob.text
    assert "workspace conventions" not in build(root, parent_instructions=False).text


def test_parent_file_may_import_beside_itself(write_tree: WriteTree, tmp_path: Path) -> None:
    """A CLAUDE.md above the root imports relative to itself, inside its own directory."""
    (tmp_path / "CLAUDE.md").write_text("@shared/team.md")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "team.md").write_text("team text")
    blob = build(write_tree({"AGENTS.md": "project"}))
    assert "team text" in blob.text and blob.warnings == ()


def test_home_import_is_allowed(write_tree: WriteTree, isolated_home: Path) -> None:
    """``@~/…`` imports a file in the user's home; other paths out of the project stay refused."""
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "my-project-instructions.md").write_text("my own prefs")
    root = write_tree({"CLAUDE.md": "- @~/.claude/my-project-instructions.md\n- @../outside.md"})
    (root.parent / "outside.md").write_text("OUTSIDE")
    blob = build(root)
    assert "[import: ~/.claude/my-project-instructions.md]\nmy own prefs" in blob.text
    assert "OUTSIDE" not in blob.text
    assert [w.line for w in blob.warnings if "refused" in w.message] == [2]


def test_home_import_through_a_link_out_of_home_is_refused(
    write_tree: WriteTree, isolated_home: Path, tmp_path: Path
) -> None:
    """A ``@~/`` import whose file links out of the home directory is refused."""
    (tmp_path / "secret.md").write_text("SECRET")
    (isolated_home / "notes.md").symlink_to(tmp_path / "secret.md")
    blob = build(write_tree({"CLAUDE.md": "@~/notes.md"}))
    assert "SECRET" not in blob.text
    assert any("refused" in w.message for w in blob.warnings)


def test_agents_md_keeps_at_paths_as_text(write_tree: WriteTree) -> None:
    """``@path`` in AGENTS.md is text the model may read; CLAUDE.md and GEMINI.md expand it."""
    root = write_tree(
        {
            "AGENTS.md": "Read @docs/style.md first.",
            "GEMINI.md": "Gemini: @docs/gemini.md",
            "docs/style.md": "STYLE BODY",
            "docs/gemini.md": "GEMINI BODY",
        }
    )
    blob = build(root)
    assert "[file: AGENTS.md]\nRead @docs/style.md first." in blob.text
    assert "STYLE BODY" not in blob.text
    assert "[import: docs/gemini.md]\nGEMINI BODY" in blob.text
    assert blob.warnings == ()


def test_npm_scopes_are_text_without_a_warning(write_tree: WriteTree) -> None:
    """``@cline/llms`` or ``@types/node`` name no file: text, not a failed import, no warning."""
    root = write_tree({"CLAUDE.md": "Install @cline/llms and @types/node.\nSee @docs/gone.md"})
    blob = build(root)
    assert "Install @cline/llms and @types/node." in blob.text
    assert [w.message.split(":")[0] for w in blob.warnings] == ["import @docs/gone.md"]


def test_scope_like_name_that_is_a_file_is_imported(write_tree: WriteTree) -> None:
    """A token without an extension is still an import when that file exists."""
    root = write_tree({"CLAUDE.md": "@docs/GUIDE", "docs/GUIDE": "guide body"})
    assert "[import: docs/GUIDE]\nguide body" in build(root).text


def test_skipped_import_leaves_no_bare_token(write_tree: WriteTree) -> None:
    """``@AGENTS.md`` already in the blob goes from its own line, and reads as text in prose."""
    root = write_tree(
        {"AGENTS.md": "shared rules", "CLAUDE.md": "@AGENTS.md\n\nClaude only. Also see @AGENTS.md."}
    )
    blob = build(root)
    assert blob.text == (
        "[file: AGENTS.md]\nshared rules\n\n"
        "[file: CLAUDE.md]\nClaude only. Also see AGENTS.md (already included)."
    )
    assert "@AGENTS.md" not in blob.text


def test_identical_nested_claude_files_importing_different_files_are_both_read(
    write_tree: WriteTree,
) -> None:
    """Two nested CLAUDE.md with the same ``@docs/guide.md`` text name two files: both are read."""
    root = write_tree(
        {
            "AGENTS.md": "root",
            "a/CLAUDE.md": "Follow @docs/guide.md",
            "a/docs/guide.md": "a's guide",
            "b/CLAUDE.md": "Follow @docs/guide.md",
            "b/docs/guide.md": "b's guide",
        }
    )
    cfg = config(root)
    nested = NestedInstructions(cfg, build_instructions(cfg))
    (a,) = nested.for_path(root / "a" / "x.py")
    (b,) = nested.for_path(root / "b" / "x.py")
    assert (a.display, b.display) == ("a/CLAUDE.md", "b/CLAUDE.md")
    assert "a's guide" in a.body and "b's guide" in b.body


def test_identical_claude_files_importing_the_same_file_are_one(write_tree: WriteTree) -> None:
    """CLAUDE.md and CLAUDE.local.md with the same text naming the same file: included once."""
    same = "Rules @docs/a.md"
    root = write_tree({"CLAUDE.md": same, "CLAUDE.local.md": same, "docs/a.md": "A"})
    blob = build(root)
    assert headers(blob) == ["[file: CLAUDE.md]"]
    assert blob.merged == (("CLAUDE.local.md", "CLAUDE.md"),)
