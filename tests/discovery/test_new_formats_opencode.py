"""opencode provider: the files and globs of ``instructions`` in ``opencode.json(c)``."""

from __future__ import annotations

import os
from pathlib import Path

from ruleweave.discovery import opencode
from ruleweave.rules import Bucket
from tests.conftest import WriteTree
from tests.discovery.helpers import buckets, messages, named, run

# OpenCode docs, "Rules" (opencode.ai/docs/rules, "Custom Instructions"): "You can specify custom
# instruction files in your opencode.json … "instructions": ["CONTRIBUTING.md", "docs/guidelines.md",
# ".cursor/rules/*.md"] … All instruction files are combined with your AGENTS.md files." Config
# docs (opencode.ai/docs/config): "OpenCode supports JSON and JSONC"; project config is
# opencode.json(c) or .opencode/opencode.json(c), looked up from the current directory upwards.


def test_files_and_globs_become_always_on_rules(write_tree: WriteTree) -> None:
    """Listed files and every file a glob matches are generic rules named by their path."""
    root = write_tree(
        {
            "opencode.json": (
                '{"$schema": "https://opencode.ai/config.json",'
                ' "instructions": ["CONTRIBUTING.md", "docs/**/*.md"]}'
            ),
            "CONTRIBUTING.md": "Open an issue first.",
            "docs/guidelines.md": "Write tests.",
            "docs/api/style.md": "REST only.",
            "docs/notes.txt": "Not matched.",
        }
    )
    found = run(root, only=opencode.PROVIDER)
    assert buckets(found) == {
        "CONTRIBUTING.md": Bucket.GENERIC,
        "docs/api/style.md": Bucket.GENERIC,
        "docs/guidelines.md": Bucket.GENERIC,
    }
    assert named(found)["docs/api/style.md"].content == "REST only."
    assert messages(found) == []


def test_jsonc_comments_and_trailing_commas_are_read(write_tree: WriteTree) -> None:
    """``opencode.jsonc`` (and ``.opencode/opencode.json``) may carry comments and trailing commas."""
    root = write_tree(
        {
            "opencode.jsonc": '{\n  // team rules\n  "instructions": ["a.md", /* b */ "https://x/y.md",'
            ' "c, ].md" ,\n  ],\n}\n',
            ".opencode/opencode.json": '{"instructions": ["b.md"]}',
            "a.md": "A // not a comment.",
            "b.md": "B.",
            "c, ].md": "C: a comma inside a string is the name's.",
        }
    )
    found = run(root, only=opencode.PROVIDER)
    assert named(found)["a.md"].content == "A // not a comment."
    assert set(named(found)) == {"a.md", "b.md", "c, ].md"}
    assert any("is a URL" in m for m in messages(found))


def test_bad_json_is_a_warning_naming_the_file(write_tree: WriteTree) -> None:
    """A config that is not JSON gives a warning naming it, and discovery goes on."""
    root = write_tree({"opencode.json": '{"instructions": ["a.md"', "a.md": "A."})
    found = run(root, only=opencode.PROVIDER)
    assert found.rules == ()
    assert any("opencode.json" in m and "not valid JSON" in m for m in messages(found))


def test_entries_never_leave_the_project(write_tree: WriteTree, tmp_path: Path, isolated_home: Path) -> None:
    """``..``, absolute paths outside and links out of the project are never read; ``~/`` is the home.

    OpenCode reads a ``~/`` entry from the home directory (``instruction.ts``: ``systemPaths``,
    ``path.join(os.homedir(), raw.slice(2))``): a user-tier rule named ``~/home.md``.
    """
    (tmp_path / "secret.md").write_text("SECRET", encoding="utf-8")
    (isolated_home / "home.md").write_text("HOME", encoding="utf-8")
    root = write_tree(
        {
            "opencode.json": (
                '{"instructions": ["../secret.md", "%s", "~/home.md", "docs/*.md", "missing.md"]}'
                % (tmp_path / "secret.md")
            ),
            "docs/ok.md": "Inside.",
        }
    )
    os.symlink(tmp_path, root / "docs" / "out", target_is_directory=True)
    os.symlink(tmp_path / "secret.md", root / "docs" / "leak.md")
    found = run(root, only=opencode.PROVIDER)
    assert set(named(found)) == {"docs/ok.md", "~/home.md"}
    assert named(found)["~/home.md"].source.level == "user"
    assert all("SECRET" not in r.content for r in found.rules)
    leaving = [m for m in messages(found) if "leaves the project" in m]
    assert len(leaving) == 2  # ../secret.md and the absolute path; a glob never follows docs/leak.md
    assert any("missing.md" in m and "names no file" in m for m in messages(found))


def test_globs_skip_ignored_directories(write_tree: WriteTree) -> None:
    """A ``**`` glob does not descend into ``node_modules`` or what ``.gitignore`` ignores."""
    root = write_tree(
        {
            ".gitignore": "build/\nnode_modules/\n",
            "opencode.json": '{"instructions": ["**/RULES.txt"]}',
            "RULES.txt": "Root.",
            "pkg/RULES.txt": "Package.",
            "build/RULES.txt": "Built.",
            "node_modules/dep/RULES.txt": "Dependency.",
        }
    )
    assert set(named(run(root, only=opencode.PROVIDER))) == {"RULES.txt", "pkg/RULES.txt"}


def test_files_other_providers_read_are_left_to_them(write_tree: WriteTree) -> None:
    """``AGENTS.md`` (instruction blob) and ``.cursor/rules`` (Cursor's buckets) are not read again."""
    root = write_tree(
        {
            "opencode.json": '{"instructions": ["AGENTS.md", ".cursor/rules/*.mdc", "STYLE.md"]}',
            "AGENTS.md": "Agents.",
            ".cursor/rules/py.mdc": "---\nglobs: '*.py'\n---\nPython.",
            "STYLE.md": "Style.",
        }
    )
    assert set(named(run(root, only=opencode.PROVIDER))) == {"STYLE.md"}


def test_home_entry_inside_the_project_is_read(tmp_path: Path, isolated_home: Path) -> None:
    """``~/…`` is the configured home: an entry naming a file of a project under it is read."""
    root = isolated_home / "code" / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "opencode.json").write_text('{"instructions": ["~/code/repo/TEAM.md", "~nobody/x.md"]}')
    (root / "TEAM.md").write_text("Team rules.", encoding="utf-8")
    found = run(root, only=opencode.PROVIDER)
    assert set(named(found)) == {"TEAM.md"}
    assert any("~nobody/x.md" in m and "leaves the project" in m for m in messages(found))


def test_hostile_entries_and_configs_never_crash_discovery(write_tree: WriteTree) -> None:
    """A NUL in an entry, a non-list value, deep nesting and a FIFO are warnings, not exceptions."""
    root = write_tree(
        {
            "opencode.json": '{"instructions": ["a\\u0000b.md", "pipe.md"]}',
            ".opencode/opencode.json": '{"instructions": "STYLE.md"}',
            "opencode.jsonc": "[" * 100_000,
        }
    )
    os.mkfifo(root / "pipe.md")
    found = run(root, only=opencode.PROVIDER)
    assert found.rules == ()
    text = "\n".join(messages(found))
    assert "NUL" in text
    assert "pipe.md" in text and "names no file" in text
    assert "not a list of paths" in text
    assert "opencode.jsonc" in text and "not valid JSON" in text
    assert not any("failed" in m for m in messages(found))
