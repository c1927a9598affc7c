"""Issue #28's instruction files, each read as its agent's loader reads it (items 4–8 and ``QWEN.md``)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import WriteTree
from tests.instructions.helpers import build, headers, messages


def test_agents_local_md_is_read_beside_agents_md(write_tree: WriteTree, isolated_home: Path) -> None:
    """``AGENTS.local.md`` comes after ``AGENTS.md``, and alone too.

    RooCodeInc/Roo-Code ``src/core/prompts/sections/custom-instructions.ts``
    (``loadAgentRulesFileFromDirectory``: "Always try to load AGENTS.local.md … even if AGENTS.md
    doesn't exist"); anomalyco/opencode ``packages/opencode/src/session/instruction.ts``
    (``variant``: each name's ``.local.md``).
    """
    root = write_tree({"AGENTS.md": "Shared.", "AGENTS.local.md": "Mine.", "pkg/AGENTS.local.md": "Pkg."})
    assert headers(build(root)) == ["[file: AGENTS.md]", "[file: AGENTS.local.md]"]
    assert headers(build(root, cwd="pkg"))[-1] == "[file: pkg/AGENTS.local.md]"


def test_context_md_is_read_only_without_agents_md(write_tree: WriteTree, isolated_home: Path) -> None:
    """OpenCode's deprecated ``CONTEXT.md`` is its last choice (``instruction.ts``: ``FILES``, first wins)."""
    root = write_tree({"CONTEXT.md": "Old context."})
    assert headers(build(root)) == ["[file: CONTEXT.md]"]
    write_tree({"AGENTS.md": "New agents."})
    assert headers(build(root)) == ["[file: AGENTS.md]"]


def test_crush_names(write_tree: WriteTree, isolated_home: Path) -> None:
    """``crush.md`` when there is no ``CRUSH.md``; ``CRUSH.local.md`` beside it.

    charmbracelet/crush ``internal/config/config.go`` (``defaultContextPaths``) and
    ``internal/agent/prompt/prompt.go`` (``loadContextFiles``: one file per lower-cased path).
    """
    root = write_tree({"crush.md": "lowercase crush.", "CRUSH.local.md": "Personal crush."})
    assert headers(build(root)) == ["[file: crush.md]", "[file: CRUSH.local.md]"]
    write_tree({"CRUSH.md": "Upper crush."})
    assert headers(build(root)) == ["[file: CRUSH.md]", "[file: CRUSH.local.md]"]


def test_qwen_md_expands_imports_and_its_setting_adds_names(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """``QWEN.md`` is read like ``GEMINI.md``; ``.qwen/settings.json`` ``context.fileName`` adds names.

    QwenLM/qwen-code ``packages/core/src/tools/memoryTool.ts`` (``DEFAULT_CONTEXT_FILENAME = 'QWEN.md'``,
    ``setGeminiMdFilename``) and its Gemini CLI import processor.
    """
    (isolated_home / ".qwen").mkdir()
    (isolated_home / ".qwen" / "QWEN.md").write_text("User Qwen memory.", encoding="utf-8")
    root = write_tree(
        {
            "QWEN.md": "Project Qwen. @docs/qwen-notes.md",
            "docs/qwen-notes.md": "Imported note.",
            ".qwen/settings.json": '{"context": {"fileName": ["QWEN.md", "TEAM.md"]}}',
            "TEAM.md": "Team memory. @docs/team.md",
            "docs/team.md": "Team import.",
        }
    )
    blob = build(root)
    assert headers(blob) == ["[file: ~/.qwen/QWEN.md]", "[file: QWEN.md]", "[file: TEAM.md]"]
    assert "[import: docs/qwen-notes.md]\nImported note." in blob.text
    assert "[import: docs/team.md]\nTeam import." in blob.text


def test_goosehints_inline_file_references_three_deep(write_tree: WriteTree, isolated_home: Path) -> None:
    """``.goosehints`` ``@file`` references expand, three levels deep, inside the git root.

    block/goose ``crates/goose/src/hints/import_files.rs`` (``MAX_DEPTH = 3``, ``expand_file_content``)
    and ``load_hints.rs`` (``import_boundary = git_root``).
    """
    root = write_tree(
        {
            ".goosehints": "Hints. @docs/h1.md",
            "docs/h1.md": "one @h2.md",
            "docs/h2.md": "two @h3.md",
            "docs/h3.md": "three @h4.md",
            "docs/h4.md": "four",
        }
    )
    blob = build(root)
    assert "one" in blob.text and "two" in blob.text and "three" in blob.text
    assert "four" not in blob.text
    assert any("deeper than 3 levels" in m for m in messages(blob))


def test_managed_claude_md_comes_first(write_tree: WriteTree, isolated_home: Path, tmp_path: Path) -> None:
    """The organisation's ``CLAUDE.md`` in Claude Code's managed directory opens the blob.

    The bundled Claude Code CLI: ``getManagedFilePath`` is ``/etc/claude-code`` on Linux,
    ``/Library/Application Support/ClaudeCode`` on macOS and ``C:\\Program Files\\ClaudeCode`` on
    Windows, and its memory loader reads ``<managed>/CLAUDE.md`` (type ``Managed``) before the user's.
    """
    managed = tmp_path / "managed"
    managed.mkdir()
    (managed / "CLAUDE.md").write_text("Company policy. @policy/security.md", encoding="utf-8")
    (managed / "policy").mkdir()
    (managed / "policy" / "security.md").write_text("No secrets in logs.", encoding="utf-8")
    (isolated_home / ".claude").mkdir()
    (isolated_home / ".claude" / "CLAUDE.md").write_text("My prefs.", encoding="utf-8")
    root = write_tree({"CLAUDE.md": "Project."})
    blob = build(root, claude_managed_dir=managed)
    assert headers(blob) == [
        f"[file: {managed / 'CLAUDE.md'}]", "[file: ~/.claude/CLAUDE.md]", "[file: CLAUDE.md]",
    ]
    assert "No secrets in logs." in blob.text
    assert blob.files[0].level == "user"


def test_global_opencode_and_crush_files(write_tree: WriteTree, isolated_home: Path) -> None:
    """OpenCode's ``~/.config/opencode/AGENTS.md`` (and ``.local``), Crush's two global files.

    opencode ``instruction.ts`` (``globalFiles``: ``Global.Path.config``); crush
    ``internal/config/load.go`` (``GlobalContextPaths``: ``<config>/crush/CRUSH.md``, ``<config>/AGENTS.md``).
    """
    config = isolated_home / ".config"
    for rel, text in (
        ("opencode/AGENTS.md", "OpenCode global."), ("opencode/AGENTS.local.md", "OpenCode mine."),
        ("crush/CRUSH.md", "Crush global."), ("AGENTS.md", "Config agents."),
    ):
        (config / rel).parent.mkdir(parents=True, exist_ok=True)
        (config / rel).write_text(text, encoding="utf-8")
    blob = build(write_tree({"README.md": "x"}))
    assert headers(blob) == [
        "[file: ~/.config/opencode/AGENTS.md]", "[file: ~/.config/opencode/AGENTS.local.md]",
        "[file: ~/.config/crush/CRUSH.md]", "[file: ~/.config/AGENTS.md]",
    ]
