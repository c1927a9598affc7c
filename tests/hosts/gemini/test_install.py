"""Gemini CLI's installer: the files it writes, the named hooks it adds there, and ``ruleweave install``.

Merging, idempotence, uninstall and refused shapes are the shared installer's
(``tests/hosts/test_hooks_json.py``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.gemini import HOST
from ruleweave.hosts.gemini.install import HOOK_NAME, change, files
from tests.hosts.running import RULEWEAVE, apply, settings_layers

COMMAND = "ruleweave hook gemini"


def test_scopes_name_the_files_gemini_reads(tmp_path: Path, isolated_home: Path) -> None:
    """project: <root>/.gemini/settings.json (Gemini's workspace settings); user: ~/.gemini/settings.json."""
    (tmp_path / ".git").mkdir()
    config = RuleweaveConfig(cwd=tmp_path)
    assert files("project", config) == [tmp_path / ".gemini" / "settings.json"]
    assert files("user", config) == [isolated_home / ".gemini" / "settings.json"]


def test_the_user_scope_follows_gemini_cli_home(tmp_path: Path, isolated_home: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini CLI reads its user settings in ``$GEMINI_CLI_HOME/.gemini`` when that is set (0.61.0,
    ``Storage.getGlobalGeminiDir`` over ``homedir()``): a ``--user`` install writes there, not in ``~``."""
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gemini-home"))
    settings = tmp_path / "gemini-home" / ".gemini" / "settings.json"
    assert files("user", RuleweaveConfig(cwd=tmp_path)) == [settings]


def test_install_writes_named_hooks(tmp_path: Path) -> None:
    """A new file gets one named command hook per event: tool events match every tool, PreCompress only
    ``/compress`` (``manual``), the rest every occurrence."""
    path = tmp_path / ".gemini" / "settings.json"
    changes = apply(change, path, command=COMMAND)
    assert len(changes) == len(HOST.events)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert list(hooks) == list(HOST.events)
    entry = {"type": "command", "command": COMMAND, "name": HOOK_NAME}
    assert hooks["AfterTool"] == hooks["BeforeTool"] == [{"matcher": "*", "hooks": [entry]}]
    assert hooks["PreCompress"] == [{"matcher": "manual", "hooks": [entry]}]
    assert hooks["AfterModel"] == hooks["SessionStart"] == [{"hooks": [entry]}]


def test_the_install_command_writes_the_project_settings(tmp_path: Path) -> None:
    """``ruleweave install gemini`` merges into ``.gemini/settings.json``; ``--uninstall`` takes it out."""
    (tmp_path / ".git").mkdir()
    run = [RULEWEAVE, "install", "gemini"]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    settings = tmp_path / ".gemini" / "settings.json"
    assert list(json.loads(settings.read_text(encoding="utf-8"))["hooks"]) == list(HOST.events)
    done = subprocess.run([*run, "--uninstall"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0 and not settings.exists()


def test_hooks_off_reads_hooks_config_as_gemini_merges_it(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hooksConfig.enabled: false`` from the layer that decides it (system defaults < user <
    ``<cwd>/.gemini`` < system), or ``ruleweave`` in any layer's ``hooksConfig.disabled`` (a union list,
    ``settingsSchema``); real runs (0.61.0): each, in the user's or the project's settings, ran no hook."""
    from ruleweave.hosts.gemini.install import hooks_off

    config, user, project, system = settings_layers(
        tmp_path, isolated_home / ".gemini" / "settings.json", ".gemini", "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
        monkeypatch,
    )
    assert hooks_off(config) is None
    user.write_text('{"hooksConfig": {"enabled": false}}')
    assert hooks_off(config) == f"hooksConfig.enabled is false in {user}"
    project.write_text('{"hooksConfig": {"enabled": true, "disabled": ["prettier"]}}')
    assert hooks_off(config) is None
    system.write_text('{"hooksConfig": {"disabled": ["ruleweave"]}}')
    assert hooks_off(config) == f"hooksConfig.disabled names 'ruleweave' in {system}"


def test_a_workspace_settings_file_linking_out_of_the_project_is_not_read(
    tmp_path: Path, isolated_home: Path
) -> None:
    """The repository's ``.gemini/settings.json`` is the repository's voice: one that links outside the
    project (here to a file that would switch the hooks off) is not read, and counts as empty."""
    from ruleweave.hosts.gemini.install import hooks_off

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / ".gemini").mkdir()
    outside = tmp_path / "outside.json"
    outside.write_text('{"hooksConfig": {"enabled": false}}')
    (project / ".gemini" / "settings.json").symlink_to(outside)
    assert hooks_off(RuleweaveConfig(cwd=project)) is None
    (project / ".gemini" / "settings.json").unlink()
    (project / ".gemini" / "settings.json").write_text(outside.read_text())
    assert hooks_off(RuleweaveConfig(cwd=project)) is not None
