"""Over an agent's limit: Windsurf per file, Codex over the AGENTS.md chain, Copilot review, budgets."""

from __future__ import annotations

from pathlib import Path

from tests.lint.helpers import git_repo, of, run


def lines(count: int, width: int = 99) -> str:
    """``count`` numbered lines of ``width`` characters plus a newline each."""
    return "".join(f"{i:04d} " + "x" * (width - 5) + "\n" for i in range(1, count + 1))


def test_a_windsurf_rule_over_12000_characters_names_the_limit_and_the_cut(tmp_path: Path) -> None:
    """The finding names Windsurf's limit and the line where its cut falls."""
    body = lines(130)  # 13,000 characters after a 4-line frontmatter
    root = git_repo(tmp_path / "r", {".windsurf/rules/big.md": "---\ntrigger: always_on\n---\n" + body})
    report = run(root)
    # One finding says it all: not also discovery's note of the cut, nor ruleweave's own byte cap
    # (Claude Code's hook limit is another agent's, and applies too).
    assert [(f.code, f.agent) for f in report.findings if f.path == ".windsurf/rules/big.md"] == [
        ("over-limit", "claude"), ("over-limit", "windsurf")
    ]
    [finding] = [f for f in of(report, "over-limit") if f.agent == "windsurf"]
    assert finding.path == ".windsurf/rules/big.md"
    text = (root / ".windsurf/rules/big.md").read_text()
    assert finding.line == text[:12_000].count("\n") + 1
    assert "12,000 characters" in finding.message and "Windsurf ignores the rest" in finding.message
    assert finding.details[0].startswith("cut starts at: ")


def test_a_windsurf_rule_under_the_limit_is_fine(tmp_path: Path) -> None:
    """11,999 characters is no finding."""
    root = git_repo(tmp_path / "r", {".windsurf/rules/ok.md": "a" * 11_999})
    assert [f for f in of(run(root), "over-limit") if f.agent == "windsurf"] == []


def test_codex_chain_is_measured_root_first_and_the_cut_lands_in_the_nested_file(tmp_path: Path) -> None:
    """Root 20,000 bytes + nested 20,000 bytes: Codex keeps 32,768, cutting the nested file part-way."""
    root = git_repo(tmp_path / "r", {"AGENTS.md": lines(200), "pkg/AGENTS.md": lines(200)})
    [finding] = [f for f in of(run(root), "over-limit") if f.agent == "codex"]
    assert finding.path == "pkg/AGENTS.md"
    assert finding.line == (32 * 1024 - 20_000) // 100 + 1
    assert "project_doc_max_bytes" in finding.message and "40,000 bytes" in finding.message
    assert finding.details[:2] == ("AGENTS.md: 20,000 bytes", "pkg/AGENTS.md: 20,000 bytes")


def test_codex_prefers_the_override_file_in_a_directory(tmp_path: Path) -> None:
    """With AGENTS.override.md present Codex reads it, not AGENTS.md, so the big AGENTS.md is no finding."""
    root = git_repo(tmp_path / "r", {"AGENTS.md": lines(400), "AGENTS.override.md": "Short.\n"})
    report = run(root, "codex")
    assert [f for f in of(report, "over-limit") if f.agent == "codex"] == []
    assert [item.path for item in report.views[0].session_start] == ["AGENTS.override.md"]


def test_copilot_review_limit_is_an_info_line(tmp_path: Path) -> None:
    """Copilot code review reads 4,000 characters of an instruction file; the coding agent all of it."""
    root = git_repo(tmp_path / "r", {".github/copilot-instructions.md": lines(50)})
    [finding] = [f for f in of(run(root), "over-limit") if f.agent == "copilot"]
    assert finding.severity == "info" and "4,000 characters" in finding.message


def test_ruleweave_budgets_are_reported(tmp_path: Path) -> None:
    """A rule over max_rule_bytes and an instruction file over instructions_max_bytes are named."""
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/huge.mdc": "---\nglobs: '**/*.py'\n---\n" + lines(60),
        "AGENTS.md": lines(40),
        "a.py": "",
    })
    report = run(root, max_rule_bytes=4_000, instructions_max_bytes=2_000, notice_max_bytes=3_000)
    ours = [f for f in of(report, "over-limit") if f.agent == "ruleweave"]
    messages = " ".join(f.message for f in ours)
    assert "max_rule_bytes (4,000 bytes)" in messages
    assert "notice_max_bytes is 3,000" in messages
    assert any(f.path == "AGENTS.md" and "instructions_max_bytes" in f.message for f in ours)


def test_claude_hook_limit_applies_to_rules_ruleweave_delivers(tmp_path: Path) -> None:
    """A Cursor rule over 10,000 characters would reach Claude Code through a hook: named with the limit."""
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/big.mdc": "---\nglobs: '**/*.py'\n---\n" + lines(110),
        ".claude/rules/own.md": "---\npaths: ['**/*.py']\n---\n" + lines(110),
        "a.py": "",
    })
    found = [f for f in of(run(root), "over-limit") if f.agent == "claude"]
    assert [f.path for f in found] == [".cursor/rules/big.mdc"]
    assert "10,000 characters" in found[0].message and "rule://big" in found[0].message


def test_a_cut_names_the_file_to_trim(tmp_path: Path) -> None:
    """A budget cut says which part to trim (the largest other one) and, for a file, that keep_whole keeps
    it whole; a cut rule names rule://<name> (#28 item 11)."""
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": lines(30),
        "app/CLAUDE.md": lines(12),
        ".cursor/rules/big.mdc": "---\nalwaysApply: true\n---\n" + lines(80),
    })
    report = run(root / "app", project_root=root, instructions_max_bytes=2_000, prompt_max_bytes=4_000)
    cuts = {f.path: f.message for f in of(report, "over-limit") if f.agent == "ruleweave"}
    assert "trim .cursor/rules/big.mdc (" in cuts["AGENTS.md"]
    assert "name AGENTS.md in keep_whole" in cuts["AGENTS.md"]
    assert "the whole text stays at rule://big" in cuts[".cursor/rules/big.mdc"]
    assert "trim AGENTS.md (" in cuts[".cursor/rules/big.mdc"]


def test_codex_chain_counts_a_fallback_named_file(tmp_path: Path) -> None:
    """``project_doc_fallback_filenames`` from the project's ``.codex/config.toml``: the fallback file at
    the root is the chain's first part, so a nested AGENTS.md past 32 KiB is cut."""
    root = git_repo(tmp_path / "r", {
        ".codex/config.toml": 'project_doc_fallback_filenames = ["TEAM.md"]\n',
        "TEAM.md": lines(200),
        "pkg/AGENTS.md": lines(200),
    })
    [finding] = [f for f in of(run(root), "over-limit") if f.agent == "codex"]
    assert finding.path == "pkg/AGENTS.md"
    assert finding.details[:2] == ("TEAM.md: 20,000 bytes", "pkg/AGENTS.md: 20,000 bytes")
