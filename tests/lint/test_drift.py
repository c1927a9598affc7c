"""Duplicates and drift: paragraph-level comparison of agents' files, whitespace normalised."""

from __future__ import annotations

import subprocess
from pathlib import Path

from ruleweave.lint.drift import paragraphs
from tests.lint.helpers import git_repo, of, run

SHARED = (
    "# Project\n\nUse pytest for every test.\n\nKeep functions small and named for what they do.\n\n"
    "{tools}\n\nDeploy with make deploy, never by hand.\n"
)


def test_agents_and_claude_drifted_by_one_paragraph(tmp_path: Path) -> None:
    """AGENTS.md and CLAUDE.md differ in one paragraph: a drift warning showing both versions and lines."""
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": SHARED.format(tools="Run make lint before pushing."),
        "CLAUDE.md": SHARED.format(tools="Run ruff check before pushing."),
    })
    report = run(root)
    [drift] = of(report, "drift")
    assert drift.severity == "warning"
    assert (drift.path, drift.line) == ("CLAUDE.md", 7)
    assert "share 4 paragraphs" in drift.message
    assert drift.details == (
        "- AGENTS.md:7: Run make lint before pushing.",
        "+ CLAUDE.md:7: Run ruff check before pushing.",
    )
    assert of(report, "duplicate") == []


def test_the_same_text_in_several_agents_files_is_an_info_line(tmp_path: Path) -> None:
    """Identical text (whitespace aside) in AGENTS.md, GEMINI.md and the Copilot file is one duplicate."""
    text = SHARED.format(tools="Run make lint.")
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": text,
        "GEMINI.md": text.replace("Use pytest", "Use   pytest").replace("\n\n", "\n  \n"),
        ".github/copilot-instructions.md": text,
    })
    report = run(root)
    [dup] = of(report, "duplicate")
    assert dup.severity == "info" and dup.path == ".github/copilot-instructions.md"
    assert "3 files" in dup.message
    assert of(report, "drift") == []


def test_a_stale_third_copy_is_drift_against_the_identical_pair(tmp_path: Path) -> None:
    """Two identical copies and one edited: one duplicate line and one drift naming the pair."""
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": SHARED.format(tools="Run make lint."),
        "CLAUDE.md": SHARED.format(tools="Run make lint."),
        "GEMINI.md": SHARED.format(tools="Run tox."),
    })
    report = run(root)
    assert len(of(report, "duplicate")) == 1
    [drift] = of(report, "drift")
    assert drift.path == "GEMINI.md" and "1 identical copy" in drift.message


def test_rule_bodies_are_compared_without_their_frontmatter(tmp_path: Path) -> None:
    """The same rule in Cursor and Windsurf formats is a duplicate though the frontmatter differs."""
    body = "Prefer composition.\n\nNo global state.\n"
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/style.mdc": "---\nalwaysApply: true\n---\n" + body,
        ".windsurf/rules/style.md": "---\ntrigger: always_on\n---\n" + body,
    })
    [dup] = of(run(root), "duplicate")
    assert dup.path == ".cursor/rules/style.mdc" and dup.line == 4


def test_unrelated_files_and_import_pointers_are_not_copies(tmp_path: Path) -> None:
    """Files sharing one paragraph are not copies, and a CLAUDE.md that only imports AGENTS.md is fine."""
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": "# Project\n\nUse pytest.\n\nDeploy by hand.\n",
        "GEMINI.md": "# Project\n\nGemini only.\n\nAsk first.\n",
        "CLAUDE.md": "@AGENTS.md\n",
        "pkg/CLAUDE.md": "@AGENTS.md\n",
    })
    report = run(root)
    assert of(report, "drift") == [] and of(report, "duplicate") == []


def test_paragraphs_normalise_whitespace_and_keep_lines() -> None:
    """Blank lines split paragraphs; runs of whitespace become one space; start lines are kept."""
    assert paragraphs("a  b\nc\n\n\n  d\t e\n", 3) == (("a b c", "d e"), (3, 7))


def test_many_copies_are_one_line_naming_a_few(tmp_path: Path) -> None:
    """Twelve copies: one duplicate finding whose sentence names three and counts the rest."""
    body = "Prefer composition.\n\nNo global state.\n"
    root = git_repo(tmp_path / "r", {f"pkg{i:02d}/AGENTS.md": body for i in range(12)})
    [dup] = of(run(root), "duplicate")
    assert "12 files (pkg00/AGENTS.md, pkg01/AGENTS.md, pkg02/AGENTS.md and 9 more)" in dup.message
    assert dup.details[-1] == "… and 1 more" and len(dup.details) == 11


def test_files_that_are_links_to_one_file_are_no_duplicate(tmp_path: Path) -> None:
    """CLAUDE.md and GEMINI.md as symbolic links to AGENTS.md (Cratis/Chronicle's shape) are one file, read
    by several agents: no duplicate; a real copy next to them still is one."""
    text = SHARED.format(tools="Run make lint.")
    root = git_repo(tmp_path / "r", {"AGENTS.md": text, "docs/AGENTS.md": "Docs.\n\nOnly docs here.\n"})
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    (root / "GEMINI.md").symlink_to("AGENTS.md")
    assert of(run(root), "duplicate") == []
    (root / ".github").mkdir()
    (root / ".github/copilot-instructions.md").write_text(text)
    [duplicate] = of(run(root), "duplicate")
    assert "kept in 2 files (.github/copilot-instructions.md, AGENTS.md)" in duplicate.message


def test_import_stubs_that_resolve_to_different_files_are_no_duplicate(tmp_path: Path) -> None:
    """Each package's CLAUDE.md reads '# Claude\\n\\n@AGENTS.md': the same text, but each imports its own
    package's AGENTS.md (growthbook's shape); stubs are pointers, and a shared body names its targets."""
    stub = "# Claude\n\n@AGENTS.md\n"
    pointer = "See the package guide.\n\nFollow @AGENTS.md before editing.\n"
    root = git_repo(tmp_path / "r", {
        "packages/a/AGENTS.md": "Package A builds with vite.\n\nIts tests use vitest.\n",
        "packages/a/CLAUDE.md": stub,
        "packages/b/AGENTS.md": "Package B is an Express server.\n\nIts tests use jest.\n",
        "packages/b/CLAUDE.md": stub,
        "packages/a/GEMINI.md": pointer,
        "packages/b/GEMINI.md": pointer,
    })
    report = run(root)
    assert of(report, "duplicate") == [] and of(report, "drift") == []


def test_a_dependency_copy_without_a_gitignore_entry_is_not_the_projects(tmp_path: Path) -> None:
    """node_modules/x/AGENTS.md (untracked, no .gitignore) is a dependency's text, not a copy to keep in
    step; the same file committed under vendor/ is the project's (#28 item 10)."""
    text = SHARED.format(tools="Run make lint.")
    root = git_repo(tmp_path / "r", {"AGENTS.md": text, "node_modules/x/AGENTS.md": text})
    assert of(run(root), "duplicate") == []
    (root / "vendor/y").mkdir(parents=True)
    (root / "vendor/y/AGENTS.md").write_text(text)
    subprocess.run(["git", "-C", str(root), "add", "vendor"], check=True)
    [duplicate] = of(run(root), "duplicate")
    assert "vendor/y/AGENTS.md" in duplicate.message and "node_modules" not in duplicate.message
