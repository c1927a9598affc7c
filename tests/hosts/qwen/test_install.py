"""Qwen Code's installer: the files it writes and the hooks it adds there.

Merging, idempotence, uninstall and refused shapes are the shared installer's
(``tests/hosts/test_hooks_json.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.qwen import HOST
from ruleweave.hosts.qwen.install import change, files
from tests.hosts.running import apply, settings_layers

COMMAND = "ruleweave hook qwen"


def test_scopes_name_the_files_qwen_reads(tmp_path: Path, isolated_home: Path) -> None:
    """project: <root>/.qwen/settings.json (Qwen's workspace settings); user: ~/.qwen/settings.json."""
    (tmp_path / ".git").mkdir()
    config = RuleweaveConfig(cwd=tmp_path)
    assert files("project", config) == [tmp_path / ".qwen" / "settings.json"]
    assert files("user", config) == [isolated_home / ".qwen" / "settings.json"]


def test_the_user_scope_follows_qwen_home(tmp_path: Path, isolated_home: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Qwen Code reads its user settings in ``$QWEN_HOME`` when that is set (0.24.4,
    ``Storage.getGlobalSettingsPath`` over ``getGlobalQwenDir``): a ``--user`` install writes there, where
    before it wrote ``~/.qwen/settings.json``, which that Qwen never reads (a real run:
    ``tests/e2e/qwen/test_qwen_trust.py`` installs with ``QWEN_HOME`` set)."""
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("QWEN_HOME", str(tmp_path / "qwen-home"))
    assert files("user", RuleweaveConfig(cwd=tmp_path)) == [tmp_path / "qwen-home" / "settings.json"]


def test_install_writes_claude_style_hooks(tmp_path: Path) -> None:
    """A new file gets one command hook per event, in Claude Code's schema: tool events with matcher
    ``*`` (every tool, so steering sees them all), the others without a matcher."""
    path = tmp_path / ".qwen" / "settings.json"
    changes = apply(change, path, command=COMMAND)
    assert len(changes) == len(HOST.events)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert list(hooks) == list(HOST.events)
    assert hooks["PostToolUse"] == [{"matcher": "*", "hooks": [{"type": "command", "command": COMMAND}]}]
    assert hooks["SessionStart"] == [{"hooks": [{"type": "command", "command": COMMAND}]}]


def test_hooks_off_reads_disable_all_hooks_from_the_deciding_layer(
    tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``disableAllHooks`` from the layer that decides it (system defaults < user < ``<cwd>/.qwen`` <
    system), as Qwen merges its settings; real runs (0.24.4): ``true`` in the user's or the project's
    settings ran no hook, and the project's ``false`` over the user's ``true`` ran them."""
    from ruleweave.hosts.qwen.install import hooks_off

    config, user, project, system = settings_layers(
        tmp_path, isolated_home / ".qwen" / "settings.json", ".qwen", "QWEN_CODE_SYSTEM_SETTINGS_PATH",
        monkeypatch,
    )
    assert hooks_off(config) is None
    user.write_text('{"disableAllHooks": true}')
    assert hooks_off(config) == f"disableAllHooks in {user}"
    project.write_text('// JSONC\n{"disableAllHooks": false}')
    assert hooks_off(config) is None
    (system.parent / "system-defaults.json").write_text('{"disableAllHooks": true}')
    assert hooks_off(config) is None  # the lowest layer
    system.write_text('{"disableAllHooks": true}')
    assert hooks_off(config) == f"disableAllHooks in {system}"
