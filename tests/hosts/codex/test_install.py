"""Codex's installer: ruleweave's hooks merged into ``hooks.json`` files, and taken out again.

Codex 0.171.0 reads ``<root>/.codex/hooks.json`` and ``$CODEX_HOME/hooks.json`` (beside ``[hooks]`` in
``config.toml``); the file's root holds only ``description`` and ``hooks`` (docs/hosts/codex.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.claude_code.settings import SettingsError
from ruleweave.hosts.codex import install
from tests.conftest import WriteTree

EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "Stop"]
THEIRS: dict[str, Any] = {
    "description": "team hooks",
    "hooks": {
        "PostToolUse": [
            {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 5}]},
        ],
        "PreCompact": [{"hooks": [{"type": "command", "command": "notify-send compacting"}]}],
    },
}


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree({"src/a.ts": "export const a = 1;\n"})


def apply(path: Path, *, uninstall: bool = False, command: str = install.COMMAND) -> list[str]:
    """Run the installer's ``change`` on the real file, writing (or deleting) what it returns."""
    text = path.read_text(encoding="utf-8") if path.exists() else None
    after, changes = install.change(path, text, command=command, uninstall=uninstall)
    if after is None:
        path.unlink(missing_ok=True)
    elif after != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(after, encoding="utf-8")
    return changes


def ours(data: dict[str, Any]) -> dict[str, list[str]]:
    """Per event, the commands of ruleweave's entries."""
    return {event: [h["command"] for g in groups for h in g["hooks"] if install.is_ours(h)]
            for event, groups in data.get("hooks", {}).items()}


def test_scopes_name_the_project_and_codex_home_files(repo: Path, tmp_path: Path) -> None:
    """project → <root>/.codex/hooks.json; user → $CODEX_HOME/hooks.json."""
    config = RuleweaveConfig(cwd=repo / "src", codex_home=tmp_path / "codex-home")
    assert install.files("project", config) == [repo / ".codex/hooks.json"]
    assert install.files("user", config) == [tmp_path / "codex-home/hooks.json"]


def test_install_into_a_new_file(repo: Path) -> None:
    """A missing file is created with one matcher-less group per event (every tool) and a timeout."""
    path = repo / ".codex/hooks.json"
    changes = apply(path)
    data = json.loads(path.read_text())
    assert ours(data) == {event: ["ruleweave hook codex"] for event in EVENTS}
    group = data["hooks"]["PostToolUse"][0]
    entry = {"type": "command", "command": "ruleweave hook codex", "timeout": install.TIMEOUT}
    assert group == {"hooks": [entry]} and set(data) == {"hooks"}
    assert changes == [f"{event}: added 'ruleweave hook codex'" for event in EVENTS]


def test_install_keeps_theirs_and_is_idempotent(repo: Path) -> None:
    """Other groups and the description stay, in order; a second install changes no byte."""
    path = repo / ".codex/hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS))
    apply(path)
    once = path.read_text()
    data = json.loads(once)
    assert data["description"] == "team hooks"
    assert data["hooks"]["PostToolUse"][0] == THEIRS["hooks"]["PostToolUse"][0]
    assert data["hooks"]["PreCompact"] == THEIRS["hooks"]["PreCompact"]
    assert apply(path) == [] and path.read_text() == once


def test_a_moved_command_is_respelled_not_doubled(repo: Path) -> None:
    """An entry running ruleweave by another path is ours: re-spelled, never added twice."""
    path = repo / ".codex/hooks.json"
    apply(path, command="'/opt/my tools/ruleweave' hook codex")
    changes = apply(path)
    assert ours(json.loads(path.read_text())) == {event: ["ruleweave hook codex"] for event in EVENTS}
    moved = "'/opt/my tools/ruleweave' hook codex"
    assert changes[0] == f"SessionStart: re-spelled {moved!r} as 'ruleweave hook codex'"
    assert not install.is_ours({"type": "command", "command": "ruleweave hook claude-code"})


def test_uninstall_removes_only_ours(repo: Path) -> None:
    """Uninstall takes out ruleweave's entries (and groups they leave empty); theirs stay byte-equal."""
    path = repo / ".codex/hooks.json"
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS))
    apply(path)
    changes = apply(path, uninstall=True)
    assert json.loads(path.read_text()) == THEIRS
    assert len(changes) == len(EVENTS) and apply(path, uninstall=True) == []


def test_uninstall_deletes_a_file_left_empty(repo: Path) -> None:
    """A file that held only ruleweave's hooks goes away; uninstalling from no file does nothing."""
    path = repo / ".codex/hooks.json"
    apply(path)
    apply(path, uninstall=True)
    assert not path.exists()
    assert install.change(path, None, command=install.COMMAND, uninstall=True) == (None, [])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1]", "not an object"),
        ('{"$schema": "x", "hooks": {}}', "Codex refuses a hooks.json whose root holds"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"Stop": {}}}', "not a list of matcher groups"),
        ('{"hooks": {"Stop": [{"hooks": 1}]}}', '"hooks" that is not a list'),
        ("{", "is not JSON"),
    ],
)
def test_a_file_codex_would_not_read_is_refused(repo: Path, text: str, message: str) -> None:
    """A file of the wrong shape raises SettingsError (a RuleweaveError) and is left alone."""
    with pytest.raises(SettingsError, match=message):
        install.change(repo / ".codex/hooks.json", text, command=install.COMMAND, uninstall=False)
