"""Never reachable: unmentioned manual rules, empty descriptions, shadowed copies, files agents skip."""

from __future__ import annotations

from pathlib import Path

from tests.lint.helpers import git_repo, of, run

HEAD = "---\napplyTo: '**/*.py'\n"


def test_a_manual_rule_no_file_mentions_is_an_info_line(tmp_path: Path) -> None:
    """Only a person typing its name reaches it; a mention by rule:// in AGENTS.md makes it reachable."""
    files = {
        ".cursor/rules/release.mdc": "---\nalwaysApply: false\n---\nHow to release.\n",
        ".cursor/rules/hotfix.mdc": "---\nalwaysApply: false\n---\nHow to hotfix.\n",
        "AGENTS.md": "Before a release read rule://release.\n",
    }
    [finding] = of(run(git_repo(tmp_path / "r", files)), "unreachable")
    assert (finding.path, finding.severity) == (".cursor/rules/hotfix.mdc", "info")
    assert "'hotfix'" in finding.message


def test_a_description_only_rule_with_an_empty_description_is_a_warning(tmp_path: Path) -> None:
    """Windsurf model_decision and Cursor 'description:' with nothing after it: the agent cannot pick it."""
    root = git_repo(tmp_path / "r", {
        ".windsurf/rules/db.md": "---\ntrigger: model_decision\ndescription: ''\n---\nDB.\n",
        ".cursor/rules/ui.mdc": "---\ndescription:\nalwaysApply: false\n---\nUI.\n",
    })
    found = [(f.path, f.line, f.severity) for f in of(run(root), "unreachable")]
    assert found == [(".cursor/rules/ui.mdc", 2, "warning"), (".windsurf/rules/db.md", 2, "warning")]


def test_a_cursor_md_file_is_skipped_by_cursor(tmp_path: Path) -> None:
    """Cursor reads .mdc in .cursor/rules; an .md rule there reaches no agent that reads the format."""
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/style.md": "---\nalwaysApply: true\n---\nStyle.\n",
        ".cursor/rules/ok.mdc": "---\nalwaysApply: true\n---\nFine.\n",
    })
    [finding] = of(run(root), "unreachable")
    assert (finding.path, finding.agent, finding.severity) == (".cursor/rules/style.md", "cursor", "warning")
    assert "only .mdc" in finding.message


def test_copilot_exclude_agent_coding_agent_is_not_unreachable(tmp_path: Path) -> None:
    """excludeAgent: coding-agent keeps a file for Copilot code review, which still reads it (GitHub's
    docs, "Adding repository custom instructions": excludeAgent), so it is no ``unreachable``
    warning; discovery's info line says ruleweave sessions do not read it (#28 item 13)."""
    root = git_repo(tmp_path / "r", {
        ".github/instructions/a.instructions.md": f"{HEAD}excludeAgent: coding-agent\n---\nA\n",
        ".github/instructions/b.instructions.md": f"{HEAD}excludeAgent: code-review\n---\nB\n",
        "x.py": "",
    })
    report = run(root)
    assert of(report, "unreachable") == []
    [note] = [f for f in of(report, "discovery") if f.path == ".github/instructions/a.instructions.md"]
    assert note.severity == "info" and "excludeAgent: coding-agent" in note.message


def test_roo_mode_rules_are_always_on_in_their_mode(tmp_path: Path) -> None:
    """A ``.roo/rules-<mode>/`` file is in every prompt of that mode (Roo Code's custom instructions
    docs), so it is not a manual rule nobody reaches; an unmentioned Cursor manual rule still is."""
    root = git_repo(tmp_path / "r", {
        ".roo/rules-code/style.md": "Use tabs in code mode.\n",
        ".roo/rules-architect/plans.md": "Write the plan first.\n",
        ".roorules-debug": "Reproduce first.\n",
        ".cursor/rules/lonely.mdc": "---\nalwaysApply: false\n---\nNobody asks.\n",
    })
    assert [f.path for f in of(run(root), "unreachable")] == [".cursor/rules/lonely.mdc"]


def test_a_shadowed_rule_with_other_text_is_named(tmp_path: Path) -> None:
    """Claude's 'testing' wins over Cursor's in ruleweave sessions; the texts differ: Cursor's is lost."""
    root = git_repo(tmp_path / "r", {
        ".claude/rules/testing.md": "---\npaths: ['**/*.py']\n---\nUse pytest.\n",
        ".cursor/rules/testing.mdc": "---\nglobs: '**/*.py'\n---\nUse unittest.\n",
        ".windsurf/rules/testing.md": "---\ntrigger: glob\nglobs: '**/*.py'\n---\nUse pytest.\n",
        "a.py": "",
    })
    [finding] = of(run(root), "unreachable")
    assert finding.path == ".cursor/rules/testing.mdc"
    assert "shadowed by claude's (.claude/rules/testing.md)" in finding.message
