"""Qwen Code's installer on real settings files: merged, idempotent, taken out again, wrong shapes refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.qwen import HOST
from ruleweave.hosts.qwen.install import SettingsError, change, files, is_ours

COMMAND = "ruleweave hook qwen"


def _apply(path: Path, *, uninstall: bool = False, command: str = COMMAND) -> list[str]:
    text = path.read_text(encoding="utf-8") if path.exists() else None
    new, changes = change(path, text, command=command, uninstall=uninstall)
    if new is None:
        path.unlink(missing_ok=True)
    elif new != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new, encoding="utf-8")
    return changes


def test_scopes_name_the_files_qwen_reads(tmp_path: Path, isolated_home: Path) -> None:
    """project: <root>/.qwen/settings.json (Qwen's workspace settings); user: ~/.qwen/settings.json."""
    (tmp_path / ".git").mkdir()
    config = RuleweaveConfig(cwd=tmp_path)
    assert files("project", config) == [tmp_path / ".qwen" / "settings.json"]
    assert files("user", config) == [isolated_home / ".qwen" / "settings.json"]


def test_install_writes_claude_style_hooks_once(tmp_path: Path) -> None:
    """A new file gets one command hook per event (tool events with matcher ``*``); twice changes nothing."""
    path = tmp_path / ".qwen" / "settings.json"
    changes = _apply(path)
    assert len(changes) == len(HOST.events)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert list(hooks) == list(HOST.events)
    assert hooks["PostToolUse"] == [{"matcher": "*", "hooks": [{"type": "command", "command": COMMAND}]}]
    assert hooks["SessionStart"] == [{"hooks": [{"type": "command", "command": COMMAND}]}]
    before = path.read_bytes()
    assert _apply(path) == [] and path.read_bytes() == before


def test_install_keeps_everything_else_and_uninstall_takes_only_ours(tmp_path: Path) -> None:
    """Other settings, hooks and matcher groups stay in their order; uninstall restores the original data."""
    path = tmp_path / "settings.json"
    original: dict[str, Any] = {
        "model": {"name": "qwen3-coder"},
        "hooks": {
            "enabled": True,
            "PostToolUse": [{"matcher": "edit", "hooks": [{"type": "command", "command": "lint.sh"}]}],
            "Notification": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/n"}]}],
        },
    }
    path.write_text(json.dumps(original, indent=4), encoding="utf-8")
    _apply(path)
    merged = json.loads(path.read_text(encoding="utf-8"))
    assert merged["model"] == original["model"] and merged["hooks"]["enabled"] is True
    assert merged["hooks"]["PostToolUse"][0] == original["hooks"]["PostToolUse"][0]
    assert is_ours(merged["hooks"]["PostToolUse"][1]["hooks"][0])
    removed = _apply(path, uninstall=True)
    assert len(removed) == len(HOST.events)
    assert json.loads(path.read_text(encoding="utf-8")) == original


def test_uninstall_of_a_file_holding_only_ours_removes_it(tmp_path: Path) -> None:
    """Nothing left but an empty object: the file goes; uninstalling again is a no-op."""
    path = tmp_path / "settings.json"
    _apply(path)
    _apply(path, uninstall=True)
    assert not path.exists()
    assert change(path, None, command=COMMAND, uninstall=True) == (None, [])


def test_a_moved_ruleweave_is_respelled_not_added_twice(tmp_path: Path) -> None:
    """An entry running ruleweave by another path is ours: re-spelled in place."""
    path = tmp_path / "settings.json"
    _apply(path, command="'/opt/my tools/ruleweave' hook qwen")
    changes = _apply(path)
    assert changes and all("re-spelled" in line for line in changes)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert all(len(groups) == 1 and groups[0]["hooks"][0]["command"] == COMMAND for groups in hooks.values())
    assert not is_ours({"type": "command", "command": "ruleweave hook claude-code"})


@pytest.mark.parametrize("text", [
    "[]", '{"hooks": []}', '{"hooks": {"PostToolUse": {}}}', '{"hooks": {"Stop": [{"hooks": 1}]}}',
    '{// a comment\n"hooks": {}}',
])
def test_a_file_of_the_wrong_shape_is_refused(tmp_path: Path, text: str) -> None:
    """JSON that is not Qwen's settings shape, or JSON with comments (which a rewrite would lose)."""
    with pytest.raises(SettingsError):
        change(tmp_path / "settings.json", text, command=COMMAND, uninstall=False)
