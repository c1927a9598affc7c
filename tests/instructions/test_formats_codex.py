"""Codex's AGENTS.md: per-directory overrides, the user tier, fallback file names.

Codex docs, "Custom instructions with AGENTS.md"
(https://developers.openai.com/codex/guides/agents-md), "How Codex discovers guidance":
"In your Codex home directory (defaults to ~/.codex, unless you set CODEX_HOME),
Codex reads AGENTS.override.md if it exists. Otherwise, Codex reads AGENTS.md."
"In each directory along the path, it checks for AGENTS.override.md, then
AGENTS.md, then any fallback names in project_doc_fallback_filenames. Codex
includes at most one file per directory."
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import WriteTree
from tests.instructions.helpers import build, headers, messages


def test_override_replaces_agents_md_in_its_directory(write_tree: WriteTree) -> None:
    """``AGENTS.override.md`` is read instead of ``AGENTS.md`` in its own directory only."""
    root = write_tree(
        {
            "AGENTS.md": "root agents",
            "AGENTS.override.md": "root override",
            "pkg/AGENTS.md": "pkg agents",
        }
    )
    blob = build(root, "pkg")
    assert headers(blob) == ["[file: AGENTS.override.md]", "[file: pkg/AGENTS.md]"]
    assert "root agents" not in blob.text and "pkg agents" in blob.text


@pytest.mark.parametrize("blank", ["", "\n  \n"])
def test_a_blank_override_in_a_project_directory_hides_agents_md(write_tree: WriteTree, blank: str) -> None:
    """In a directory of the project Codex takes the first name that is a regular file, then skips it
    when it is blank: an empty or white-space ``AGENTS.override.md`` hides ``AGENTS.md`` (Codex 0.171.0,
    a real run: neither reached the model; ``agents_md.rs``: the probe stops at the first regular file)."""
    root = write_tree({"AGENTS.md": "root agents", "AGENTS.override.md": blank,
                       "pkg/AGENTS.md": "pkg agents"})
    blob = build(root, "pkg")
    assert headers(blob) == ["[file: pkg/AGENTS.md]"] and "root agents" not in blob.text


@pytest.mark.parametrize("blank", ["", "\n  \n"])
def test_a_blank_override_in_codex_home_leaves_agents_md_in_place(
    write_tree: WriteTree, isolated_home: Path, blank: str
) -> None:
    """In its home Codex takes the first candidate with text (``load_from_codex_home`` trims each): a blank
    ``AGENTS.override.md`` there leaves ``~/.codex/AGENTS.md`` in place (a real run: it reached the model)."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "AGENTS.override.md").write_text(blank)
    (codex / "AGENTS.md").write_text("codex user prefs")
    blob = build(write_tree({"AGENTS.md": "project"}))
    assert headers(blob) == ["[file: ~/.codex/AGENTS.md]", "[file: AGENTS.md]"]


def test_user_tier_is_codex_home(write_tree: WriteTree, isolated_home: Path) -> None:
    """``~/.codex/AGENTS.md`` joins the user tier; its override replaces it."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "AGENTS.md").write_text("codex user prefs")
    root = write_tree({"AGENTS.md": "project"})
    blob = build(root)
    assert headers(blob) == ["[file: ~/.codex/AGENTS.md]", "[file: AGENTS.md]"]
    assert blob.files[0].level == "user"
    (codex / "AGENTS.override.md").write_text("codex user override")
    blob = build(root)
    assert headers(blob) == ["[file: ~/.codex/AGENTS.override.md]", "[file: AGENTS.md]"]
    assert "codex user prefs" not in blob.text


def test_codex_home_environment_variable(
    write_tree: WriteTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``CODEX_HOME`` moves the user tier (and ``config.toml``)."""
    custom = tmp_path / "codex-home"
    custom.mkdir()
    (custom / "AGENTS.md").write_text("from CODEX_HOME")
    monkeypatch.setenv("CODEX_HOME", str(custom))
    blob = build(write_tree({"AGENTS.md": "project"}))
    assert blob.files[0].abs_path == str(custom / "AGENTS.md")
    assert blob.text.index("from CODEX_HOME") < blob.text.index("project")


def test_fallback_file_names_from_config_toml(write_tree: WriteTree, isolated_home: Path) -> None:
    """``project_doc_fallback_filenames`` names are read where a directory has no AGENTS.md."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('project_doc_fallback_filenames = ["TEAM_GUIDE.md", ".agents.md"]\n')
    root = write_tree(
        {
            "TEAM_GUIDE.md": "root guide",
            "pkg/AGENTS.md": "pkg agents",
            "pkg/TEAM_GUIDE.md": "pkg guide, hidden by AGENTS.md",
            "pkg/app/.agents.md": "app fallback",
        }
    )
    blob = build(root, "pkg/app")
    assert headers(blob) == ["[file: TEAM_GUIDE.md]", "[file: pkg/AGENTS.md]", "[file: pkg/app/.agents.md]"]
    assert "hidden by AGENTS.md" not in blob.text
    assert blob.warnings == ()


def test_bad_config_toml_is_a_warning_naming_it(write_tree: WriteTree, isolated_home: Path) -> None:
    """A config.toml that is not TOML is a warning naming the file; the blob is still built."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text("project_doc_fallback_filenames = [unterminated\n")
    blob = build(write_tree({"AGENTS.md": "project"}))
    assert "project" in blob.text
    (warning,) = blob.warnings
    assert warning.path == str(codex / "config.toml") and "not valid TOML" in warning.message


def test_fallback_names_leaving_their_directory_are_refused(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """A fallback name with ``..`` or an absolute path is dropped with a warning; others still apply."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text(
        'project_doc_fallback_filenames = ["../secret.md", "/etc/passwd", 7, "GUIDE.md"]\n'
    )
    root = write_tree({"GUIDE.md": "guide"})
    (root.parent / "secret.md").write_text("SECRET")
    blob = build(root)
    assert headers(blob) == ["[file: GUIDE.md]"] and "SECRET" not in blob.text
    assert len([m for m in messages(blob) if "not a file name inside its directory" in m]) == 3


def test_wrong_shape_is_a_warning(write_tree: WriteTree, isolated_home: Path) -> None:
    """A fallback setting that is not a list is a warning naming the file."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('project_doc_fallback_filenames = "GUIDE.md"\n')
    blob = build(write_tree({"GUIDE.md": "guide"}))
    assert "guide" not in blob.text
    assert any("not a list of file names" in m for m in messages(blob))


def test_a_projects_codex_config_replaces_the_users_names(write_tree: WriteTree, isolated_home: Path) -> None:
    """Codex merges its config layers: the user's ``config.toml``, then ``.codex/config.toml`` from the root
    down to the cwd, the nearest setting winning (0.171.0, ``config_loader::load_project_layers``)."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n')
    root = write_tree(
        {
            ".codex/config.toml": 'project_doc_fallback_filenames = ["GUIDE.md"]\n',
            "GUIDE.md": "root guide",
            "TEAM_GUIDE.md": "team guide, named by the user only",
            "pkg/.codex/config.toml": 'model = "x"\n',  # no setting: the root's still holds below
            "pkg/GUIDE.md": "pkg guide",
            "pkg/app/.codex/config.toml": 'project_doc_fallback_filenames = ["APP.md"]\n',
            "pkg/app/APP.md": "app fallback",
            "pkg/app/GUIDE.md": "app guide, no longer a fallback name here",
        }
    )
    assert headers(build(root, "pkg")) == ["[file: GUIDE.md]", "[file: pkg/GUIDE.md]"]
    blob = build(root, "pkg/app")  # the cwd's layer names APP.md alone, for the whole walk
    assert headers(blob) == ["[file: pkg/app/APP.md]"]
    assert "team guide" not in blob.text and blob.warnings == ()


def test_a_broken_project_codex_config_is_a_warning_and_the_users_names_hold(
    write_tree: WriteTree, isolated_home: Path
) -> None:
    """A project ``.codex/config.toml`` that is not TOML is a warning naming it; the user's names still
    apply."""
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n')
    root = write_tree({".codex/config.toml": "project_doc_fallback_filenames = [\n", "TEAM_GUIDE.md": "team"})
    blob = build(root)
    assert headers(blob) == ["[file: TEAM_GUIDE.md]"]
    (warning,) = blob.warnings
    assert warning.path == str(root / ".codex/config.toml") and "not valid TOML" in warning.message


def test_a_project_codex_folder_that_is_codex_home_is_read_once(write_tree: WriteTree) -> None:
    """Codex skips a project ``.codex`` that is ``CODEX_HOME`` itself: its ``config.toml`` is the user
    layer, read (and reported on) once."""
    root = write_tree({".codex/config.toml": 'project_doc_fallback_filenames = ["GUIDE.md", "../x.md"]\n',
                       "GUIDE.md": "guide"})
    blob = build(root, codex_home=root / ".codex")
    assert headers(blob) == ["[file: GUIDE.md]"]
    assert len(blob.warnings) == 1  # "../x.md", reported for the one layer it is read as


def test_the_system_layer_is_below_the_users_and_the_managed_one_above_all(
    write_tree: WriteTree, isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Unix Codex also reads ``/etc/codex/config.toml`` below the user's config and
    ``/etc/codex/managed_config.toml`` above every layer (0.171.0, checked with ``features.codex_hooks``
    in a real run; the names are merged the same way). The paths point into the test's folder here."""
    from ruleweave.instructions import agent_settings

    system, managed = tmp_path / "etc-config.toml", tmp_path / "etc-managed.toml"
    monkeypatch.setattr(agent_settings, "CODEX_SYSTEM_CONFIG", system)
    monkeypatch.setattr(agent_settings, "CODEX_MANAGED_CONFIG", managed)
    root = write_tree({"SYSTEM.md": "system guide", "TEAM_GUIDE.md": "team guide", "POLICY.md": "policy"})
    system.write_text('project_doc_fallback_filenames = ["SYSTEM.md"]\n')
    assert headers(build(root)) == ["[file: SYSTEM.md]"]
    codex = isolated_home / ".codex"
    codex.mkdir()
    (codex / "config.toml").write_text('project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n')
    assert headers(build(root)) == ["[file: TEAM_GUIDE.md]"]
    managed.write_text('project_doc_fallback_filenames = ["POLICY.md"]\n')
    assert headers(build(root)) == ["[file: POLICY.md]"]
    managed.write_text("project_doc_fallback_filenames = [\n")
    blob = build(root)
    assert headers(blob) == ["[file: TEAM_GUIDE.md]"]
    (warning,) = blob.warnings
    assert warning.path == str(managed) and "not valid TOML" in warning.message
