"""The instruction blob: order, headers, file list, comments, duplicates, bad files."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from ruleweave.buckets import assign
from ruleweave.discovery import DiscoveryContext, claude, discover
from ruleweave.instructions import build_instructions
from tests.conftest import WriteTree
from tests.instructions.helpers import build, claude_rule, config, headers, messages


def test_order_is_user_then_root_to_cwd_then_rules(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """The user tier comes first, then each walk dir root→cwd in list order, then rules."""
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "CLAUDE.md").write_text("user prefs")
    root = write_tree(
        {
            "CLAUDE.local.md": "root local",
            ".claude/CLAUDE.md": "root dot-claude",
            "CLAUDE.md": "root claude",
            "AGENTS.md": "root agents",
            "pkg/CLAUDE.md": "pkg claude",
            "pkg/AGENTS.md": "pkg agents",
            "pkg/app/AGENTS.md": "app agents",
            "other/AGENTS.md": "not on the walk",
        }
    )
    blob = build(root, "pkg/app", rules=(claude_rule(root, "style", "rule body"),))
    assert headers(blob) == [
        "[file: ~/.claude/CLAUDE.md]",
        "[file: AGENTS.md]",
        "[file: CLAUDE.md]",
        "[file: .claude/CLAUDE.md]",
        "[file: CLAUDE.local.md]",
        "[file: pkg/AGENTS.md]",
        "[file: pkg/CLAUDE.md]",
        "[file: pkg/app/AGENTS.md]",
        "[rule: style]",
    ]
    assert "not on the walk" not in blob.text
    assert blob.text.endswith("[rule: style]\nrule body")
    assert [f.level for f in blob.files] == ["user"] + ["project"] * 7 + ["rule"]
    assert blob.warnings == ()


def test_parts_are_headed_and_separated(write_tree: WriteTree) -> None:
    """Each part is its header, a newline and its body; parts are joined by a blank line."""
    root = write_tree({"AGENTS.md": "\n\nFirst.\n\n", "CLAUDE.md": "Second.\n"})
    blob = build(root)
    assert blob.text == "[file: AGENTS.md]\nFirst.\n\n[file: CLAUDE.md]\nSecond."
    assert blob.budget.used == len(blob.text.encode())
    assert [(f.path, f.bytes, f.truncated) for f in blob.files] == [
        ("AGENTS.md", 6, False),
        ("CLAUDE.md", 7, False),
    ]


def test_claude_config_dir_is_the_user_tier(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CLAUDE_CONFIG_DIR moves the user-tier CLAUDE.md."""
    custom = tmp_path / "claude-config"
    custom.mkdir()
    (custom / "CLAUDE.md").write_text("from the custom dir")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(custom))
    root = write_tree({"AGENTS.md": "project"})
    blob = build(root)
    assert blob.files[0].level == "user"
    assert blob.files[0].abs_path == str(custom / "CLAUDE.md")
    assert blob.text.index("from the custom dir") < blob.text.index("project")


def test_custom_file_list_replaces_the_default(write_tree: WriteTree) -> None:
    """A configured file list is read in its own order and the defaults are ignored."""
    root = write_tree({"AGENTS.md": "agents", "CLAUDE.md": "claude", "GUIDE.md": "guide"})
    blob = build(root, instruction_files=("GUIDE.md", "AGENTS.md"))
    assert headers(blob) == ["[file: GUIDE.md]", "[file: AGENTS.md]"]
    assert "claude" not in blob.text


def test_file_name_leaving_its_directory_is_ignored(write_tree: WriteTree) -> None:
    """A configured name that climbs out of the walk directory is refused with a warning."""
    root = write_tree({"AGENTS.md": "agents"})
    (root.parent / "secret.md").write_text("secret")
    blob = build(root, instruction_files=("../secret.md", "AGENTS.md"))
    assert "secret" not in blob.text
    assert any("leaves its directory" in m for m in messages(blob))


def test_unscoped_claude_rules_from_discovery_join_last(write_tree: WriteTree) -> None:
    """Claude rules without paths, bucketed by discovery, are appended as [rule: name] parts."""
    root = write_tree(
        {
            "AGENTS.md": "agents",
            ".claude/rules/always.md": "Always say please.",
            ".claude/rules/scoped.md": "---\npaths: src/**\n---\nOnly for src.",
        }
    )
    cfg = config(root, builtin_rules=False)
    buckets = assign(discover(cfg, (claude.PROVIDER,)).rules)
    blob = build(root, rules=buckets.instructions)
    assert headers(blob) == ["[file: AGENTS.md]", "[rule: always]"]
    assert "Only for src." not in blob.text
    assert blob.files[-1].path == ".claude/rules/always.md"


def test_a_blob_read_in_discoverys_context_equals_a_fresh_one(
    write_tree: WriteTree, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Reusing discovery's real paths (as ``RuleSet.load`` does) changes no byte, file or warning."""
    outside = tmp_path_factory.mktemp("outside")
    (outside / "CLAUDE.md").write_text("outside text")
    root = write_tree({
        "AGENTS.md": "agents",
        ".claude/rules/always.md": "Always say please.",
        ".claude/rules/twice.md": "agents",
        "pkg/.cursor/rules/c.mdc": "---\nalwaysApply: true\n---\nCursor.",
    })
    (root / "pkg" / "CLAUDE.md").symlink_to(outside / "CLAUDE.md")  # refused: leaves the project
    (root / "pkg" / ".claude").symlink_to(root / ".claude")  # the same rules through a link
    cfg = config(root, "pkg", builtin_rules=False)
    ctx = DiscoveryContext(cfg)
    found = discover(cfg, ctx=ctx)
    rules = assign(found.rules).instructions
    shared = build_instructions(cfg, rules, ctx=ctx.sharing_paths())
    fresh = build_instructions(cfg, rules)
    assert [r.name for r in rules] == ["always", "twice"]
    assert shared.text == fresh.text and "[rule: always]" in shared.text
    assert shared.files == fresh.files and shared.merged == fresh.merged
    assert shared.warnings == fresh.warnings
    assert any("outside" in m for m in messages(shared))


def test_html_comments_are_stripped_outside_code(write_tree: WriteTree) -> None:
    """Single- and multi-line HTML comments go; those in fences and code spans stay."""
    root = write_tree(
        {
            "AGENTS.md": (
                "Keep this.<!-- inline note -->\n"
                "<!-- a maintainer note\n"
                "spanning lines\n"
                "-->\n"
                "After the comment.\n"
                "Literal `<!-- in a span -->` stays.\n"
                "```html\n"
                "<!-- in a fence -->\n"
                "```\n"
                "Tail <!-- a --> and <!-- b --> end.\n"
            )
        }
    )
    text = build(root).text
    assert "maintainer" not in text and "spanning" not in text and "inline note" not in text
    assert "Keep this.\nAfter the comment." in text
    assert "`<!-- in a span -->`" in text
    assert "```html\n<!-- in a fence -->\n```" in text
    assert "Tail  and  end." in text


def test_unclosed_comment_is_kept_as_text(write_tree: WriteTree) -> None:
    """A ``<!--`` that is never closed does not swallow the rest of the file."""
    root = write_tree({"AGENTS.md": "Before <!-- never closed\nstill here"})
    assert "still here" in build(root).text


def test_comment_only_file_is_omitted(write_tree: WriteTree) -> None:
    """A file that is empty once comments are stripped adds no part."""
    root = write_tree({"AGENTS.md": "<!-- only a note -->\n", "CLAUDE.md": ""})
    blob = build(root)
    assert blob.text == "" and blob.files == ()


def test_symlink_to_the_same_file_is_included_once(write_tree: WriteTree) -> None:
    """CLAUDE.md symlinked to AGENTS.md adds no second part."""
    root = write_tree({"AGENTS.md": "shared text"})
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    blob = build(root)
    assert headers(blob) == ["[file: AGENTS.md]"]
    assert blob.text.count("shared text") == 1


def test_identical_content_is_included_once(write_tree: WriteTree) -> None:
    """A byte-identical copy in a deeper walk directory adds no second part."""
    root = write_tree({"AGENTS.md": "same words\n", "pkg/AGENTS.md": "same words\n"})
    blob = build(root, "pkg")
    assert blob.text.count("same words") == 1
    assert [f.path for f in blob.files] == ["AGENTS.md"]


def test_two_builds_are_byte_identical(write_tree: WriteTree, isolated_home: Path) -> None:
    """The same files give the same text, file report and warnings."""
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "CLAUDE.md").write_text("user é")
    root = write_tree(
        {
            "AGENTS.md": "root @docs/a.md @docs/missing.md\n" + "x" * 5000,
            "docs/a.md": "imported ✓",
            "pkg/CLAUDE.md": "pkg",
        }
    )
    first = build(root, "pkg", instructions_max_bytes=2000)
    second = build(root, "pkg", instructions_max_bytes=2000)
    assert first.text.encode() == second.text.encode()
    assert first.files == second.files and first.budget == second.budget
    assert first.warnings == second.warnings


def test_binary_file_is_a_warning_and_the_blob_is_built(write_tree: WriteTree) -> None:
    """An instruction file with NUL bytes is skipped with a warning naming it."""
    root = write_tree({"CLAUDE.md": "still here"})
    (root / "AGENTS.md").write_bytes(b"\x00\x01binary")
    blob = build(root)
    assert headers(blob) == ["[file: CLAUDE.md]"]
    assert any(w.path == str(root / "AGENTS.md") and "binary" in w.message for w in blob.warnings)


def test_non_utf8_file_is_a_warning(write_tree: WriteTree) -> None:
    """An instruction file that is not UTF-8 is skipped with a warning."""
    root = write_tree({"CLAUDE.md": "ok"})
    (root / "AGENTS.md").write_bytes(b"caf\xe9 latin-1")
    blob = build(root)
    assert headers(blob) == ["[file: CLAUDE.md]"]
    assert any("UTF-8" in m for m in messages(blob))


def test_unreadable_file_is_a_warning(write_tree: WriteTree, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file without read permission is skipped with a warning naming it.

    Root reads files whatever their mode, so when the OS does not refuse, the
    open raises the EACCES the OS would have raised; either way the blob
    builder meets a real PermissionError.
    """
    root = write_tree({"AGENTS.md": "secret", "CLAUDE.md": "ok"})
    locked = root / "AGENTS.md"
    locked.chmod(0)
    try:
        locked.open("rb").close()
    except PermissionError:
        pass
    else:
        real_open = os.open  # privileged: the OS lets root read it, so refuse the way it would

        def deny(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if os.fspath(path) == str(locked):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", deny)
    blob = build(root)
    locked.chmod(0o644)
    assert headers(blob) == ["[file: CLAUDE.md]"]
    assert any(w.path == str(locked) and "cannot be read" in w.message for w in blob.warnings)


def test_broken_symlink_is_a_warning(write_tree: WriteTree) -> None:
    """A dangling instruction-file symlink is reported, not raised."""
    root = write_tree({"CLAUDE.md": "ok"})
    (root / "AGENTS.md").symlink_to(root / "gone.md")
    blob = build(root)
    assert headers(blob) == ["[file: CLAUDE.md]"]
    assert any(w.path == str(root / "AGENTS.md") for w in blob.warnings)


def test_oversized_file_keeps_its_head_with_a_warning(write_tree: WriteTree) -> None:
    """A file over max_file_bytes contributes its first bytes and a warning."""
    root = write_tree({"AGENTS.md": "a" * 3000})
    blob = build(root, max_file_bytes=1000)
    assert blob.files[0].original_bytes == 1000
    assert any("larger than 1000 bytes" in m for m in messages(blob))
