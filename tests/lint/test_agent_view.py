"""The per-agent view: session-start files and bytes, rules attaching by path in the agent's semantics."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave.errors import ConfigError
from tests.lint.helpers import git_repo, of, run, write


def test_codex_loads_the_agents_chain_root_to_cwd(tmp_path: Path) -> None:
    """Codex reads AGENTS.md from the root down to cwd, one file per directory, override first."""
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": "Root.\n",
        "pkg/AGENTS.md": "Package.\n",
        "pkg/AGENTS.override.md": "Override.\n",
        "other/AGENTS.md": "Elsewhere.\n",
    })
    [view] = run(root / "pkg", "codex").views
    shown = [(i.path, i.bytes) for i in view.session_start]
    assert shown == [("AGENTS.md", 6), ("pkg/AGENTS.override.md", 10)]
    assert view.session_bytes == 16


def test_cursor_and_claude_attach_the_same_bare_glob_differently(tmp_path: Path) -> None:
    """A bare '*.py' attaches Cursor's rule to every .py file, Claude's only to the root's."""
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/py.mdc": "---\nglobs: '*.py'\n---\nCursor Python.\n",
        ".claude/rules/py.md": "---\npaths: ['*.py']\n---\nClaude Python.\n",
        ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nAlways.\n",
        ".cursor/rules/db.mdc": "---\ndescription: Database work\n---\nDB.\n",
        "setup.py": "", "src/a.py": "", "src/b.py": "",
    })
    cursor, claude = run(root, "cursor", "claude").views
    assert [(a.name, a.files) for a in cursor.by_path] == [("py", 3)]
    assert [(a.name, a.files) for a in claude.by_path] == [("py", 1)]
    assert [i.path for i in cursor.session_start] == [".cursor/rules/always.mdc"]
    assert [name for name, _, _ in cursor.by_description] == ["db"]
    assert cursor.agent.dialect == "anywhere" and claude.agent.dialect == "root"


def test_a_file_the_agent_never_reads_is_not_in_its_view(tmp_path: Path) -> None:
    """Cursor skips .md files in .cursor/rules: an always-on one is not in Cursor's session start,
    while ruleweave, which reads it, still loads it."""
    root = git_repo(tmp_path / "r", {
        ".cursor/rules/old.md": "---\nalwaysApply: true\n---\nOld notes.\n",
        ".cursor/rules/new.mdc": "---\nalwaysApply: true\n---\nNew notes.\n",
    })
    cursor, ruleweave = run(root, "cursor", "ruleweave").views
    assert [i.path for i in cursor.session_start] == [".cursor/rules/new.mdc"]
    assert ".cursor/rules/old.md" in [i.path for i in ruleweave.session_start]


def test_ruleweave_view_is_the_session_prompt(tmp_path: Path) -> None:
    """ruleweave's own view lists the instruction blob's files and the generic rules it renders."""
    root = git_repo(tmp_path / "r", {
        "AGENTS.md": "Agents text.\n",
        ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nAlways.\n",
        ".cursor/rules/db.mdc": "---\ndescription: Database work\n---\nDB.\n",
    })
    [view] = run(root, "ruleweave").views
    assert [(i.path, i.why) for i in view.session_start] == [
        ("AGENTS.md", "instruction file"),
        (".cursor/rules/always.mdc", "always"),
        ("<domain-rules>", "rule listing"),
    ]


def test_user_tier_rules_are_not_linted(tmp_path: Path, isolated_home: Path) -> None:
    """A user-tier rule applies to every project: its dead globs here are no finding."""
    write(isolated_home, {".cursor/rules/mine.mdc": "---\nglobs: 'nowhere/**'\n---\nMine.\n"})
    root = git_repo(tmp_path / "r", {"a.py": ""})
    assert of(run(root), "dead-glob") == []


def test_an_unknown_agent_is_a_config_error(tmp_path: Path) -> None:
    """The library call names the agents it knows."""
    root = git_repo(tmp_path / "r", {})
    with pytest.raises(ConfigError, match="Unknown agent 'vim'; lint knows claude, codex"):
        run(root, "vim")


def test_codex_gemini_and_qwen_views_follow_their_own_settings(tmp_path: Path) -> None:
    """A name an agent's settings add is its session-start file too: Codex's
    ``project_doc_fallback_filenames`` (a project's ``.codex/config.toml`` here: one file per directory,
    after AGENTS.md), Gemini CLI's ``context.fileName`` (besides GEMINI.md) and Qwen Code's (instead of
    QWEN.md and AGENTS.md)."""
    root = git_repo(tmp_path / "r", {
        ".codex/config.toml": 'project_doc_fallback_filenames = ["GUIDE.md"]\n',
        ".gemini/settings.json": '{"context": {"fileName": ["GUIDE.md"]}}',
        ".qwen/settings.json": '{"context": {"fileName": "GUIDE.md"}}',
        "GUIDE.md": "Guide.\n",
        "QWEN.md": "Qwen.\n",
        "pkg/AGENTS.md": "Package.\n",
        "pkg/GUIDE.md": "Package guide.\n",
    })
    codex, gemini, qwen = run(root / "pkg", "codex", "gemini", "qwen").views
    assert [i.path for i in codex.session_start] == ["GUIDE.md", "pkg/AGENTS.md"]
    assert [i.path for i in gemini.session_start] == ["GUIDE.md", "pkg/GUIDE.md"]
    assert [i.path for i in qwen.session_start] == ["GUIDE.md", "pkg/GUIDE.md"]
