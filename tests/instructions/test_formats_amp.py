"""Amp's path-scoped AGENTS.md: ``globs:`` frontmatter, on files and on ``@``-imported files.

Amp manual (https://ampcode.com/manual, "AGENTS.md" → "Granular Guidance"): "If an
@-mentioned file (or an AGENTS.md file) has globs in its frontmatter, it is only
included when Amp has read a file matching any of the globs." "Globs are
implicitly prefixed with **/ unless they start with ../ or ./, in which case they
refer to paths relative to the mentioned file."
"""

from __future__ import annotations

import json

import pytest

from ruleweave.cli import main
from ruleweave.config import RuleweaveConfig
from ruleweave.instructions import NestedInstructions, build_instructions
from ruleweave.ruleset import RuleSet
from tests.conftest import WriteTree
from tests.instructions.helpers import build, config, headers

SCOPED = "---\nglobs:\n  - '*.ts'\n  - './web/**'\n---\nTypeScript house rules."


def test_agents_md_with_globs_stays_out_of_the_blob(write_tree: WriteTree) -> None:
    """A root AGENTS.md with ``globs:`` is not in the session-start blob; its frontmatter never is."""
    root = write_tree({"AGENTS.md": SCOPED, "CLAUDE.md": "always"})
    blob = build(root)
    assert headers(blob) == ["[file: CLAUDE.md]"]
    assert "TypeScript" not in blob.text and "globs" not in blob.text
    (scoped,) = blob.scoped
    assert scoped.globs == ("**/*.ts", "web/**")


def test_scoped_file_arrives_only_on_a_matching_touch(write_tree: WriteTree) -> None:
    """The file is injected after a tool call touching a matching path, once, and never otherwise."""
    root = write_tree({"AGENTS.md": SCOPED})
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    assert session.after_tool_call("read", {"path": "src/main.py"}) is None
    assert session.after_tool_call("read", {"path": "README.md"}) is None
    hit = session.after_tool_call("read", {"path": "src/deep/app.ts"})
    assert hit is not None and "[file: AGENTS.md]\nTypeScript house rules." in hit.text
    assert "---" not in hit.text
    assert session.after_tool_call("read", {"path": "other.ts"}) is None  # at most once


def test_a_nested_scoped_file_is_matched_per_file_of_a_directory(write_tree: WriteTree) -> None:
    """Two files of one directory below a scoped ``pkg/AGENTS.md``: the one its globs match brings it,
    though the other was touched first (a directory's nested answers are remembered, its globs are not)."""
    scoped = "---\nglobs: '*.ts'\n---\nPackage TypeScript rules."
    root = write_tree({"pkg/AGENTS.md": scoped, "pkg/src/a.py": ""})
    session = RuleSet.load(RuleweaveConfig(cwd=root)).session("s")
    assert session.after_tool_call("read", {"path": "pkg/src/a.py"}) is None
    assert session.after_tool_call("read", {"path": "pkg/src/c.py"}) is None
    hit = session.after_tool_call("read", {"path": "pkg/src/b.ts"})
    assert hit is not None and "[file: pkg/AGENTS.md]\nPackage TypeScript rules." in hit.text


def test_dot_slash_globs_are_relative_to_the_file(write_tree: WriteTree) -> None:
    """``./web/**`` in pkg/AGENTS.md means pkg/web/**; a nested scoped file waits for a match too."""
    root = write_tree({"pkg/AGENTS.md": "---\nglobs: ./web/**\n---\nWeb rules."})
    cfg = config(root)
    nested = NestedInstructions(cfg, build_instructions(cfg))
    assert nested.for_path(root / "pkg" / "api" / "x.py") == []
    assert nested.for_path(root / "web" / "x.py") == []
    (found,) = nested.for_path(root / "pkg" / "web" / "x.py")
    assert found.body == "Web rules."


def test_imported_file_with_globs_is_scoped(write_tree: WriteTree) -> None:
    """An ``@``-imported file with ``globs:`` is not inlined; it comes on a matching touch."""
    root = write_tree(
        {
            "CLAUDE.md": "Base rules.\n@docs/sql.md",
            "docs/sql.md": "---\nglobs: '*.sql'\n---\nMigrations are append-only.",
        }
    )
    blob = build(root)
    assert blob.text == "[file: CLAUDE.md]\nBase rules.\n@docs/sql.md"
    cfg = config(root)
    nested = NestedInstructions(cfg, blob)
    (found,) = nested.for_path(root / "db" / "001_init.sql")
    assert (found.display, found.body) == ("docs/sql.md", "Migrations are append-only.")


def test_other_frontmatter_never_leaks(write_tree: WriteTree) -> None:
    """Frontmatter without globs is dropped from the text; the body is always on."""
    root = write_tree({"AGENTS.md": "---\ndescription: house rules\n---\nAlways on."})
    assert build(root).text == "[file: AGENTS.md]\nAlways on."


def test_scan_lists_scoped_files_with_their_globs(
    write_tree: WriteTree, capsys: pytest.CaptureFixture[str]
) -> None:
    """``scan`` names a ``globs:`` AGENTS.md and the globs it waits for, in text and JSON."""
    root = write_tree({"AGENTS.md": SCOPED})
    assert main(["scan", "--json", "--cwd", str(root)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scoped_instructions"] == [{"path": "AGENTS.md", "globs": ["**/*.ts", "web/**"]}]
    assert data["instructions"] == []
    assert main(["scan", "--cwd", str(root)]) == 0
    assert "  AGENTS.md: on a touch matching **/*.ts, web/**" in capsys.readouterr().out
