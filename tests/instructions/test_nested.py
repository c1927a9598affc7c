"""Nested instruction files: found for touched paths below the walk, processed and cached."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from ruleweave.instructions import NestedFile, NestedInstructions, build_instructions
from tests.conftest import WriteTree
from tests.instructions.helpers import config


def _paths(found: Sequence[NestedFile]) -> list[str]:
    """The display paths of nested files."""
    return [f.display for f in found]


def test_found_for_a_path_under_their_directory(write_tree: WriteTree) -> None:
    """Files in every directory between the root and the touched file, outermost first."""
    root = write_tree(
        {
            "AGENTS.md": "root (in the blob)",
            "pkg/CLAUDE.md": "pkg claude",
            "pkg/AGENTS.md": "pkg agents",
            "pkg/mod/AGENTS.md": "mod agents",
            "other/AGENTS.md": "other",
        }
    )
    nested = NestedInstructions(config(root))
    found = nested.for_path(root / "pkg" / "mod" / "x.py")
    assert _paths(found) == ["pkg/AGENTS.md", "pkg/CLAUDE.md", "pkg/mod/AGENTS.md"]
    assert found[0].path == str(root / "pkg" / "AGENTS.md")
    assert found[0].body == "pkg agents"
    assert found[0].render() == "[file: pkg/AGENTS.md]\npkg agents"
    assert _paths(nested.for_path(root / "pkg" / "y.py")) == ["pkg/AGENTS.md", "pkg/CLAUDE.md"]


def test_not_found_for_paths_elsewhere(write_tree: WriteTree) -> None:
    """Paths outside the file's directory, at the root, or outside the project find nothing."""
    root = write_tree({"pkg/AGENTS.md": "pkg", "other/file.py": ""})
    nested = NestedInstructions(config(root))
    assert nested.for_path(root / "other" / "file.py") == []
    assert nested.for_path(root / "top.py") == []
    assert nested.for_path(root / "pkgx" / "a.py") == []
    assert nested.for_path(root.parent / "elsewhere" / "pkg" / "a.py") == []
    assert nested.for_path(root / "pkg" / ".." / "other" / "a.py") == []


def test_walk_directories_are_skipped(write_tree: WriteTree) -> None:
    """Directories on the root→cwd walk are already in the blob; siblings below root are not."""
    root = write_tree({"a/AGENTS.md": "cwd file", "a/b/AGENTS.md": "below cwd", "c/AGENTS.md": "c"})
    nested = NestedInstructions(config(root, "a"))
    assert nested.for_path(root / "a" / "x.py") == []
    assert _paths(nested.for_path(root / "a" / "b" / "x.py")) == ["a/b/AGENTS.md"]
    assert _paths(nested.for_path(root / "c" / "x.py")) == ["c/AGENTS.md"]


def test_touched_path_need_not_exist(write_tree: WriteTree) -> None:
    """A file about to be created (even in a missing directory) still finds its parents' files."""
    root = write_tree({"pkg/AGENTS.md": "pkg"})
    nested = NestedInstructions(config(root))
    assert _paths(nested.for_path(root / "pkg" / "new" / "deep" / "file.py")) == ["pkg/AGENTS.md"]


def test_relative_and_bad_inputs(write_tree: WriteTree) -> None:
    """A relative path is taken against cwd; NUL bytes and non-paths give nothing."""
    root = write_tree({"pkg/AGENTS.md": "pkg"})
    nested = NestedInstructions(config(root))
    assert _paths(nested.for_path("pkg/x.py")) == ["pkg/AGENTS.md"]
    assert nested.for_path(str(root / "pkg" / "x\x00.py")) == []
    assert nested.for_path("") == []
    assert nested.for_path(42) == []  # type: ignore[arg-type]


def test_bodies_are_processed(write_tree: WriteTree) -> None:
    """Nested files have comments stripped and imports expanded, like blob files."""
    root = write_tree(
        {"pkg/CLAUDE.md": "<!-- note -->\nUse @style.md\n`@style.md`", "pkg/style.md": "tabs"}
    )
    (found,) = NestedInstructions(config(root)).for_path(root / "pkg" / "x.py")
    assert found.body == (
        "Use @style.md\n[import: pkg/style.md]\ntabs\n[end import: pkg/style.md]\n`@style.md`"
    )


def test_bodies_are_capped(write_tree: WriteTree) -> None:
    """A nested file over instructions_max_bytes is cut with a marker naming it."""
    root = write_tree({"pkg/AGENTS.md": "€" * 1000})
    nested = NestedInstructions(config(root, instructions_max_bytes=500))
    (found,) = nested.for_path(root / "pkg" / "x.py")
    assert found.truncated and len(found.body.encode()) <= 500
    marker = f"[ruleweave: {found.bytes_dropped} bytes left out; whole text at pkg/AGENTS.md]"
    assert found.body.endswith("\n" + marker)
    assert found.body.startswith("€")
    assert any(w.path == str(root / "pkg" / "AGENTS.md") for w in nested.warnings)


def test_directory_lookups_are_cached(write_tree: WriteTree) -> None:
    """A second touch reads nothing: the files found first are served from the cache."""
    root = write_tree({"pkg/AGENTS.md": "pkg"})
    nested = NestedInstructions(config(root))
    first = nested.for_path(root / "pkg" / "a.py")
    (root / "pkg" / "AGENTS.md").unlink()
    (root / "pkg" / "CLAUDE.md").write_text("added later")
    assert nested.for_path(root / "pkg" / "b.py") == first


def test_concurrent_lookups_agree(write_tree: WriteTree) -> None:
    """Many threads touching the same paths all get the same files."""
    root = write_tree({f"d{i}/AGENTS.md": f"dir {i}" for i in range(8)})
    nested = NestedInstructions(config(root))
    results: list[list[str]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(32)

    def touch(index: int) -> None:
        barrier.wait()
        found = _paths(nested.for_path(root / f"d{index % 8}" / "x.py"))
        with lock:
            results.append(found)

    threads = [threading.Thread(target=touch, args=(i,)) for i in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == sorted([[f"d{i % 8}/AGENTS.md"] for i in range(32)])


def test_files_already_in_the_blob_are_skipped(write_tree: WriteTree) -> None:
    """Given the blob, a nested symlink or copy of a blob file is not offered again."""
    rules = "root rules @docs/x.md"
    root = write_tree(
        {
            "AGENTS.md": rules,
            "docs/x.md": "X",
            "b/CLAUDE.md": rules,
            "c/AGENTS.md": "c imports @../docs/x.md",
        }
    )
    (root / "a").mkdir()
    (root / "a" / "AGENTS.md").symlink_to(root / "AGENTS.md")
    cfg = config(root)
    blob = build_instructions(cfg)
    nested = NestedInstructions(cfg, blob)
    assert nested.for_path(root / "a" / "f.py") == []
    assert nested.for_path(root / "b" / "f.py") == []
    (found,) = nested.for_path(root / "c" / "f.py")
    assert found.body == "c imports @../docs/x.md"
    assert _paths(NestedInstructions(cfg).for_path(root / "a" / "f.py")) == ["a/AGENTS.md"]


def test_symlink_and_copy_in_one_directory_count_once(write_tree: WriteTree) -> None:
    """CLAUDE.md symlinked to AGENTS.md in a nested directory is offered once."""
    root = write_tree({"pkg/AGENTS.md": "pkg"})
    (root / "pkg" / "CLAUDE.md").symlink_to("AGENTS.md")
    found = NestedInstructions(config(root)).for_path(root / "pkg" / "x")
    assert _paths(found) == ["pkg/AGENTS.md"]


def test_no_files_no_warnings(tmp_path: Path) -> None:
    """A project with no instruction files anywhere finds nothing and warns nothing."""
    (tmp_path / ".git").mkdir()
    nested = NestedInstructions(config(tmp_path))
    assert nested.for_path(tmp_path / "a" / "b" / "c.py") == []
    assert nested.warnings == ()


def test_native_walk_files_leave_the_blob_and_stay_nested(write_tree: WriteTree) -> None:
    """``native_walk_files``: an agent that reads ``AGENTS.md`` on the root→cwd walk itself and never
    below it (Codex 0.171.0, Qwen Code 0.24.4: both verified with the real CLI, see docs/hosts/) gets
    the walk's copies from nobody else, and the nested ones below the cwd as notices."""
    root = write_tree({"AGENTS.md": "root agents", "CLAUDE.md": "root claude", "a/AGENTS.md": "cwd agents",
                       "a/b/AGENTS.md": "below cwd"})
    options = config(root, "a", native_walk_files=("AGENTS.md",))
    blob = build_instructions(options)
    assert "root claude" in blob.text
    assert "root agents" not in blob.text and "cwd agents" not in blob.text
    nested = NestedInstructions(options, blob)
    assert _paths(nested.for_path(root / "a" / "b" / "x.py")) == ["a/b/AGENTS.md"]
    assert nested.for_path(root / "a" / "x.py") == []  # on the walk: the agent's own
    plain = build_instructions(config(root, "a"))
    assert "root agents" in plain.text and "cwd agents" in plain.text
