"""Gemini CLI's installer on real settings files: merged, idempotent, taken out, wrong shapes refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.gemini import HOST
from ruleweave.hosts.gemini.install import HOOK_NAME, SettingsError, change, files, is_ours

COMMAND = "ruleweave hook gemini"
RULEWEAVE = str(Path(sys.executable).parent / "ruleweave")


def _apply(path: Path, *, uninstall: bool = False, command: str = COMMAND) -> list[str]:
    text = path.read_text(encoding="utf-8") if path.exists() else None
    new, changes = change(path, text, command=command, uninstall=uninstall)
    if new is None:
        path.unlink(missing_ok=True)
    elif new != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(new, encoding="utf-8")
    return changes


def test_scopes_name_the_files_gemini_reads(tmp_path: Path, isolated_home: Path) -> None:
    """project: <root>/.gemini/settings.json (Gemini's workspace settings); user: ~/.gemini/settings.json."""
    (tmp_path / ".git").mkdir()
    config = RuleweaveConfig(cwd=tmp_path)
    assert files("project", config) == [tmp_path / ".gemini" / "settings.json"]
    assert files("user", config) == [isolated_home / ".gemini" / "settings.json"]


def test_install_writes_named_hooks_once(tmp_path: Path) -> None:
    """A new file gets one named command hook per event: tool events match every tool, PreCompress only
    ``/compress`` (``manual``), the rest every occurrence; installing twice changes nothing."""
    path = tmp_path / ".gemini" / "settings.json"
    changes = _apply(path)
    assert len(changes) == len(HOST.events)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert list(hooks) == list(HOST.events)
    entry = {"type": "command", "command": COMMAND, "name": HOOK_NAME}
    assert hooks["AfterTool"] == hooks["BeforeTool"] == [{"matcher": "*", "hooks": [entry]}]
    assert hooks["PreCompress"] == [{"matcher": "manual", "hooks": [entry]}]
    assert hooks["AfterModel"] == hooks["SessionStart"] == [{"hooks": [entry]}]
    before = path.read_bytes()
    assert _apply(path) == [] and path.read_bytes() == before


def test_install_keeps_everything_else_and_uninstall_takes_only_ours(tmp_path: Path) -> None:
    """Other settings, hooks and definitions stay in their order; uninstall restores the original data."""
    path = tmp_path / "settings.json"
    original: dict[str, Any] = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "hooksConfig": {"enabled": True},
        "hooks": {
            "AfterTool": [
                {"matcher": "write_file|replace", "hooks": [{"type": "command", "command": "lint.sh"}]},
            ],
            "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
        },
    }
    path.write_text(json.dumps(original, indent=4), encoding="utf-8")
    _apply(path)
    merged = json.loads(path.read_text(encoding="utf-8"))
    assert merged["security"] == original["security"] and merged["hooksConfig"] == {"enabled": True}
    assert merged["hooks"]["AfterTool"][0] == original["hooks"]["AfterTool"][0]
    assert is_ours(merged["hooks"]["AfterTool"][1]["hooks"][0])
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
    _apply(path, command="'/opt/my tools/ruleweave' hook gemini")
    changes = _apply(path)
    assert changes and all("re-spelled" in line for line in changes)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert all(len(groups) == 1 and groups[0]["hooks"][0]["command"] == COMMAND for groups in hooks.values())
    assert not is_ours({"type": "command", "command": "ruleweave hook qwen"})


@pytest.mark.parametrize("text", [
    "[]", '{"hooks": []}', '{"hooks": {"AfterTool": {}}}', '{"hooks": {"AfterAgent": [{"hooks": 1}]}}',
    '{// a comment\n"hooks": {}}',
])
def test_a_file_of_the_wrong_shape_is_refused(tmp_path: Path, text: str) -> None:
    """JSON that is not Gemini's settings shape, or JSON with comments (which a rewrite would lose)."""
    with pytest.raises(SettingsError):
        change(tmp_path / "settings.json", text, command=COMMAND, uninstall=False)


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
