"""Instruction files of Gemini CLI, Warp, Amp's legacy name, Junie, Zed, Augment, Roo, Goose, Crush.

Gemini CLI docs, "Provide context with GEMINI.md files" (https://geminicli.com/docs/cli/gemini-md):
"Global context file: ~/.gemini/GEMINI.md"; "The CLI searches for GEMINI.md files
in your configured workspace directories and their parent directories"; "When a
tool accesses a file or directory, the CLI automatically scans for GEMINI.md files
in that directory and its ancestors"; imports: "@path/to/file.md"; settings
(https://geminicli.com/docs/get-started/configuration): "context.fileName: The name
of the context file or files ... string or array of strings".
Warp docs, "Rules" (docs.warp.dev/knowledge-and-collaboration/rules): a project's
WARP.md (or AGENTS.md) at the root and in subdirectories.
Amp manual (ampcode.com/manual, "AGENTS.md"): AGENT.md is the former name, read
when there is no AGENTS.md; user file ~/.config/amp/AGENTS.md.
Junie docs (jetbrains.com/help/junie/customize-guidelines.html): ".junie/guidelines.md"
(and .junie/AGENTS.md) in the project root.
Zed docs, "Rules" (zed.dev/docs/ai/rules): "Zed will look for a .rules file in the
root of your project".
Augment docs (docs.augmentcode.com/setup-augment/guidelines): ".augment-guidelines"
at the workspace root. (Roo's ".roorules" is its rule provider's fallback:
tests/discovery/test_new_formats_roo.py.) Goose docs (block.github.io/goose/docs/guides/
using-goosehints): ".goosehints" in the project, global ~/.config/goose/.goosehints.
Crush (github.com/charmbracelet/crush README): CRUSH.md in the working directory.
"""

from __future__ import annotations

import json
from pathlib import Path

from ruleweave.instructions import NestedInstructions, build_instructions
from tests.conftest import WriteTree
from tests.instructions.helpers import build, config, headers, messages


def test_every_new_root_format_is_read_in_priority_order(write_tree: WriteTree) -> None:
    """Each format at the root joins the blob once, in the documented priority order."""
    names = ["GEMINI.md", "WARP.md", "CRUSH.md", ".goosehints", ".junie/AGENTS.md",
             ".rules", ".augment-guidelines"]
    root = write_tree({name: f"text of {name}" for name in names})
    blob = build(root)
    assert headers(blob) == [f"[file: {name}]" for name in names]
    assert blob.warnings == ()


def test_junie_takes_the_first_guidelines_source(write_tree: WriteTree) -> None:
    """.junie/AGENTS.md wins over .junie/guidelines.md, which is read when it is alone."""
    root = write_tree({".junie/AGENTS.md": "junie agents", ".junie/guidelines.md": "junie guidelines"})
    assert headers(build(root)) == ["[file: .junie/AGENTS.md]"]
    (root / ".junie" / "AGENTS.md").unlink()
    assert headers(build(root)) == ["[file: .junie/guidelines.md]"]


def test_root_only_formats_are_not_read_below_the_root(write_tree: WriteTree) -> None:
    """Zed's .rules, Augment and Junie files count in the project root only."""
    names = (".rules", ".augment-guidelines", ".junie/guidelines.md")
    nested = {f"pkg/{n}": "NESTED" for n in names}
    root = write_tree({**nested, "pkg/WARP.md": "pkg warp"})
    blob = build(root, "pkg")
    assert headers(blob) == ["[file: pkg/WARP.md]"]
    cfg = config(root)
    found = NestedInstructions(cfg, build_instructions(cfg)).for_path(root / "pkg" / "x.py")
    assert [f.display for f in found] == ["pkg/WARP.md"]


def test_nested_warp_gemini_crush_and_goose_arrive_on_touch(write_tree: WriteTree) -> None:
    """WARP.md, GEMINI.md, CRUSH.md and .goosehints below the walk come with a touch under them."""
    root = write_tree({"svc/WARP.md": "w", "svc/GEMINI.md": "g", "svc/CRUSH.md": "c", "svc/.goosehints": "h"})
    cfg = config(root)
    found = NestedInstructions(cfg, build_instructions(cfg)).for_path(root / "svc" / "main.go")
    assert [f.display for f in found] == ["svc/GEMINI.md", "svc/WARP.md", "svc/CRUSH.md", "svc/.goosehints"]


def test_agent_md_is_amps_fallback(write_tree: WriteTree) -> None:
    """AGENT.md is read where there is no AGENTS.md, and not beside one."""
    root = write_tree({"AGENTS.md": "new", "AGENT.md": "legacy root", "pkg/AGENT.md": "legacy pkg"})
    blob = build(root, "pkg")
    assert headers(blob) == ["[file: AGENTS.md]", "[file: pkg/AGENT.md]"]


def test_user_tier_of_gemini_amp_and_goose(write_tree: WriteTree, isolated_home: Path) -> None:
    """~/.gemini/GEMINI.md, ~/.config/amp/AGENTS.md and ~/.config/goose/.goosehints are the user tier."""
    for rel, text in {".gemini/GEMINI.md": "gemini user", ".config/amp/AGENTS.md": "amp user",
                      ".config/goose/.goosehints": "goose user"}.items():
        (isolated_home / rel).parent.mkdir(parents=True, exist_ok=True)
        (isolated_home / rel).write_text(text)
    blob = build(write_tree({"AGENTS.md": "project"}))
    assert headers(blob) == [
        "[file: ~/.gemini/GEMINI.md]", "[file: ~/.config/amp/AGENTS.md]",
        "[file: ~/.config/goose/.goosehints]", "[file: AGENTS.md]",
    ]
    assert [f.level for f in blob.files] == ["user", "user", "user", "project"]


def test_gemini_imports_expand(write_tree: WriteTree) -> None:
    """GEMINI.md expands ``@file`` imports like CLAUDE.md."""
    root = write_tree({"GEMINI.md": "@./docs/style.md", "docs/style.md": "style"})
    assert "[import: docs/style.md]\nstyle" in build(root).text


def test_gemini_context_file_name_adds_names(write_tree: WriteTree, isolated_home: Path) -> None:
    """``context.fileName`` (a string or a list) in .gemini/settings.json adds context file names."""
    root = write_tree(
        {
            ".gemini/settings.json": json.dumps({"context": {"fileName": ["CONTEXT.md", "AGENTS.md"]}}),
            "CONTEXT.md": "context @notes.md",
            "notes.md": "notes body",
            "pkg/CONTEXT.md": "pkg context",
        }
    )
    blob = build(root, "pkg")
    assert headers(blob) == ["[file: CONTEXT.md]", "[file: pkg/CONTEXT.md]"]
    assert "[import: notes.md]\nnotes body" in blob.text  # Gemini's files expand imports
    (isolated_home / ".gemini").mkdir()
    (isolated_home / ".gemini" / "settings.json").write_text('{"context": {"fileName": "MINE.md"}}')
    (isolated_home / ".gemini" / "MINE.md").write_text("user context")
    other = write_tree({".gemini/settings.json": "{}", "MINE.md": "project mine"})
    (other / "CONTEXT.md").unlink()
    (other / "pkg" / "CONTEXT.md").unlink()
    blob = build(other)
    assert headers(blob) == ["[file: ~/.gemini/MINE.md]", "[file: MINE.md]"]


def test_bad_gemini_settings_are_a_warning(write_tree: WriteTree) -> None:
    """settings.json that is not JSON, or a fileName of the wrong shape, is a warning naming it."""
    root = write_tree({".gemini/settings.json": "{not json", "GEMINI.md": "still read"})
    blob = build(root)
    assert "still read" in blob.text
    (warning,) = blob.warnings
    assert warning.path == str(root / ".gemini" / "settings.json") and "not valid JSON" in warning.message
    (root / ".gemini" / "settings.json").write_text('{"context": {"fileName": 3}}')
    assert any("not a list of file names" in m for m in messages(build(root)))


def test_gemini_settings_cannot_pull_secrets_into_the_prompt(write_tree: WriteTree) -> None:
    """A committed settings.json naming ``.env`` (or any non-Markdown file) is refused with a warning."""
    root = write_tree(
        {
            ".gemini/settings.json": json.dumps({"context": {"fileName": [".env", "id_rsa", "NOTES.md"]}}),
            ".env": "API_KEY=secret",
            "id_rsa": "PRIVATE KEY",
            "NOTES.md": "notes",
        }
    )
    blob = build(root)
    assert "secret" not in blob.text and "PRIVATE" not in blob.text and "notes" in blob.text
    refused = [m for m in messages(blob) if "not a Markdown file" in m]
    assert len(refused) == 2


def test_formats_leave_at_paths_as_text(write_tree: WriteTree) -> None:
    """Only Claude Code's and Gemini CLI's files expand imports: WARP.md keeps ``@path``."""
    root = write_tree({"WARP.md": "See @docs/x.md", "docs/x.md": "X BODY"})
    assert build(root).text == "[file: WARP.md]\nSee @docs/x.md"


def test_fifo_and_binary_new_formats_are_warnings(write_tree: WriteTree) -> None:
    """A FIFO named .rules never blocks and a binary .goosehints is a warning naming it."""
    import os

    root = write_tree({"AGENTS.md": "ok"})
    os.mkfifo(root / ".rules")
    (root / ".goosehints").write_bytes(b"\x00\x01\xff")
    blob = build(root)
    assert headers(blob) == ["[file: AGENTS.md]"]
    assert any(w.path == str(root / ".goosehints") for w in blob.warnings)
