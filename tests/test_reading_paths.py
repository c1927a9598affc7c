"""Bounded reads and path spellings: the string fast paths agree with what they replaced."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ruleweave import RuleSet
from ruleweave._files.paths import RealPaths, display, is_within
from ruleweave._files.reading import link_stand_in, read_bytes, read_text
from ruleweave.config import RuleweaveConfig
from ruleweave.discovery.context import DiscoveryContext, under


def test_a_fifo_is_refused_even_when_the_caller_saw_a_regular_file(tmp_path: Path) -> None:
    """``regular=True`` skips the check before opening, never the one on the open file: no hang."""
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    result = read_text(fifo, 1000, regular=True)
    assert result.text is None and result.problem is not None and "FIFO" in result.problem


@pytest.mark.parametrize("size", [0, 1, 999, 1000, 1001, 5000])
def test_reads_stop_at_the_cap_or_the_file_size(tmp_path: Path, size: int) -> None:
    """A read returns the whole file up to the cap and says when it was longer."""
    path = tmp_path / "f.md"
    path.write_bytes(b"x" * size)
    data, problem, oversized = read_bytes(path, 1000, regular=True)
    assert problem is None and data == b"x" * min(size, 1001) and oversized == (size > 1000)


def _pathlib_display(path: str, root: Path, home: Path, home_first: bool) -> str:
    """The pathlib spelling ``display`` used to compute."""
    p = Path(path)
    bases = [(root, ""), (home, "~/")]
    if p.is_absolute():
        for base, prefix in reversed(bases) if home_first else bases:
            if (p == base or base in p.parents) and p != base:
                return prefix + p.relative_to(base).as_posix()
    return p.as_posix()


@pytest.mark.parametrize(
    "path",
    ["/h/p/a.md", "/h/p", "/h/x.md", "/h/p//a/./b/", "a/b", "./a", "", ".", "/", "/h/pq/a", "a/../b",
     "/h/p/.", "//h/p/a", "/elsewhere/f"],
)
def test_display_spells_paths_as_pathlib_did(path: str) -> None:
    """Project-relative, ``~/`` and odd spellings come out exactly as the pathlib version wrote them."""
    root, home = Path("/h/p"), Path("/h")
    for home_first in (False, True):
        expected = _pathlib_display(path, root, home, home_first)
        assert display(path, root, home, home_first=home_first) == expected


def test_is_within_compares_whole_components() -> None:
    """A sibling sharing a name prefix is not inside; the base itself and the filesystem root are."""
    assert is_within("/a/b/c", "/a/b") and is_within(Path("/a/b"), Path("/a/b")) and is_within("/x", "/")
    assert not is_within("/a/bc", "/a/b") and not is_within("/a", "/a/b")
    assert is_within(Path("/a/b/c"), "/a/b/")


def test_real_paths_resolve_links_once_per_directory(tmp_path: Path) -> None:
    """RealPaths and DiscoveryContext.real agree with os.path.realpath, links and all."""
    (tmp_path / "repo/.git").mkdir(parents=True)
    (tmp_path / "repo/src").mkdir()
    (tmp_path / "repo/src/a.md").write_text("x", encoding="utf-8")
    (tmp_path / "repo/alias").symlink_to(tmp_path / "repo/src", target_is_directory=True)
    base = str(tmp_path / "repo")
    real = os.path.realpath(base)
    paths = RealPaths()
    for rel in ("src/a.md", "alias/a.md", "alias", "src"):
        assert paths.resolve(f"{base}/{rel}", base, real)[0] == os.path.realpath(f"{base}/{rel}")
    assert paths.resolve(f"{base}/alias/a.md", base, real)[1] == f"{base}/alias"
    ctx = DiscoveryContext(RuleweaveConfig(cwd=tmp_path / "repo"))
    assert ctx.real(f"{base}/alias/a.md") == os.path.realpath(f"{base}/src/a.md")
    assert ctx.real("/") == "/"


def test_rule_files_are_list_files_as_strings(tmp_path: Path) -> None:
    """``rule_files`` finds what ``list_files`` does, sorted by path, suffixes and nesting honoured."""
    folder = tmp_path / "repo/.cursor/rules"
    for rel in ("b.mdc", "a/z.md", "a.txt", "c/d/e.mdc"):
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text("x", encoding="utf-8")
    (tmp_path / "repo/.git").mkdir()
    ctx = DiscoveryContext(RuleweaveConfig(cwd=tmp_path / "repo"))
    found = ctx.rule_files(folder, (".md", ".mdc"), level="project")
    assert found == [str(folder / rel) for rel in ("a/z.md", "b.mdc", "c/d/e.mdc")]
    assert ctx.list_files(folder, (".md", ".mdc"), level="project") == [Path(p) for p in found]
    assert ctx.rule_files(folder, (".mdc",), level="project", recursive=False) == [str(folder / "b.mdc")]


@pytest.mark.parametrize(
    "relative", [".claude/rules", ".ruleweave", "RULES.md", ".github/copilot-instructions.md"]
)
def test_folders_are_the_walk_joined_as_strings(tmp_path: Path, relative: str) -> None:
    """``folders`` and ``under`` spell what ``Path`` joins spelled, the filesystem root included."""
    cwd = tmp_path / "repo/a/b"
    cwd.mkdir(parents=True)
    (tmp_path / "repo/.git").mkdir()
    ctx = DiscoveryContext(RuleweaveConfig(cwd=cwd))
    assert ctx.folders(relative) == [str(directory / relative) for directory in ctx.walk]
    assert len(ctx.folders(relative)) == 3
    assert under(Path("/"), relative) == str(Path("/") / relative)
    assert under(str(tmp_path) + os.sep, relative) == str(tmp_path / relative)


def test_a_symlink_checked_out_as_text_is_not_served(tmp_path: Path) -> None:
    """With core.symlinks off git writes a link as a file holding its target's path (no newline): such a
    CLAUDE.md or rule file gives no prompt text and no rule, with a warning naming it (#28 item 13)."""
    root = tmp_path / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "config", "core.symlinks", "false"], check=True)
    (root / "docs").mkdir()
    (root / "docs/style.md").write_text("---\nalwaysApply: true\n---\nUse tabs.\n", encoding="utf-8")
    (root / "AGENTS.md").write_text("Run make test.\n", encoding="utf-8")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/style.mdc").symlink_to("../../docs/style.md")
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    for link in ("CLAUDE.md", ".cursor/rules/style.mdc"):
        (root / link).unlink()
    # What a checkout on a system without symbolic links writes (git's own blob of each link).
    subprocess.run(["git", "-C", str(root), "checkout", "--", "CLAUDE.md", ".cursor/rules/style.mdc"],
                   check=True)
    assert (root / ".cursor/rules/style.mdc").read_bytes() == b"../../docs/style.md"  # 19 bytes, a file
    assert not (root / "CLAUDE.md").is_symlink()
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root))
    assert "style" not in [rule.name for rule in ruleset.rules]
    assert "[file: CLAUDE.md]" not in ruleset.prompt_parts().instructions
    assert "Run make test." in ruleset.prompt_parts().instructions
    warned = {w.path: w.message for w in ruleset.warnings}
    assert "holds only the path '../../docs/style.md'" in warned[str(root / ".cursor/rules/style.mdc")]
    assert "symbolic link git checked out as a plain file" in warned[str(root / "CLAUDE.md")]


def test_link_stand_ins_need_one_line_naming_an_existing_path(tmp_path: Path) -> None:
    """A one-line rule that names nothing, or a path followed by a newline, is text, not a link."""
    (tmp_path / "AGENTS.md").write_text("x")
    assert link_stand_in(tmp_path / "CLAUDE.md", "AGENTS.md") == "AGENTS.md"
    assert link_stand_in(tmp_path / "CLAUDE.md", "AGENTS.md\n") is None
    assert link_stand_in(tmp_path / "CLAUDE.md", "Always use tabs.") is None
    assert link_stand_in(tmp_path / "CLAUDE.md", "") is None
