"""The installers of Claude-style hook settings (``ruleweave.hosts._hooks_json``), on real files, for every
host that uses one: merged, idempotent, taken out again, wrong shapes refused.

What each agent's file looks like after an install (its matchers, handler fields, scopes) is in
``tests/hosts/<agent>/test_install.py``, with the agent's source or docs.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ruleweave.errors import RuleweaveError
from ruleweave.hosts import host
from ruleweave.hosts.codex import install as codex
from ruleweave.hosts.gemini import install as gemini
from ruleweave.hosts.qwen import install as qwen
from tests.hosts.running import apply

INSTALLERS: dict[str, ModuleType] = {"codex": codex, "gemini": gemini, "qwen": qwen}

THEIRS: dict[str, dict[str, Any]] = {
    "codex": {  # the root may hold only description and hooks
        "description": "team hooks",
        "hooks": {
            "PostToolUse": [
                {"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 5}]},
            ],
            "PreCompact": [{"hooks": [{"type": "command", "command": "notify-send compacting"}]}],
        },
    },
    "gemini": {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "hooksConfig": {"enabled": True},
        "hooks": {
            "AfterTool": [
                {"matcher": "write_file|replace", "hooks": [{"type": "command", "command": "lint.sh"}]},
            ],
            "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
        },
    },
    "qwen": {
        "model": {"name": "qwen3-coder"},
        "hooks": {
            "enabled": True,  # one of Qwen's HOOKS_CONFIG_FIELDS, not an event
            "PostToolUse": [{"matcher": "edit", "hooks": [{"type": "command", "command": "lint.sh"}]}],
            "Notification": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/n"}]}],
        },
    },
}
"""A settings file of the user's own per agent: other keys, hooks and matcher groups."""

AGENTS = sorted(INSTALLERS)


def _command(agent: str) -> str:
    return f"ruleweave hook {agent}"


def _apply(agent: str, path: Path, *, uninstall: bool = False, command: str | None = None) -> list[str]:
    return apply(INSTALLERS[agent].change, path, command=command or _command(agent), uninstall=uninstall)


@pytest.mark.parametrize("agent", AGENTS)
def test_install_adds_one_hook_per_event_once(agent: str, tmp_path: Path) -> None:
    """A new file gets ruleweave's hook on every event, in order; a second install changes no byte."""
    path = tmp_path / "hooks.json"
    changes = _apply(agent, path)
    events = list(host(agent).events)
    assert changes == [f"{event}: added {_command(agent)!r}" for event in events]
    assert list(json.loads(path.read_text(encoding="utf-8"))["hooks"]) == events
    before = path.read_bytes()
    assert _apply(agent, path) == [] and path.read_bytes() == before


@pytest.mark.parametrize("agent", AGENTS)
def test_install_keeps_theirs_and_uninstall_restores_it(agent: str, tmp_path: Path) -> None:
    """Other keys, hooks and matcher groups stay in their order; uninstall gives back the original data,
    and a second uninstall changes nothing."""
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(THEIRS[agent], indent=4), encoding="utf-8")
    _apply(agent, path)
    merged = json.loads(path.read_text(encoding="utf-8"))
    for key, value in THEIRS[agent]["hooks"].items():  # their groups first, then ruleweave's
        kept = merged["hooks"][key]
        assert (kept[: len(value)] if isinstance(value, list) else kept) == value
    assert {key: merged[key] for key in THEIRS[agent] if key != "hooks"} == {
        key: value for key, value in THEIRS[agent].items() if key != "hooks"
    }
    removed = _apply(agent, path, uninstall=True)
    assert len(removed) == len(host(agent).events)
    assert json.loads(path.read_text(encoding="utf-8")) == THEIRS[agent]
    assert _apply(agent, path, uninstall=True) == []


@pytest.mark.parametrize("agent", AGENTS)
def test_uninstall_keeps_an_empty_event_of_theirs(agent: str, tmp_path: Path) -> None:
    """An event list that was empty before the install, and a ``hooks`` key that is no event, stay: the
    uninstall removes only what ruleweave's removal empties."""
    original: dict[str, Any] = {"hooks": {"Notification": []}}
    if agent != "codex":  # Codex's hooks hold events only
        original["hooks"]["disabled"] = ["lint.sh"]
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(original), encoding="utf-8")
    _apply(agent, path)
    _apply(agent, path, uninstall=True)
    assert json.loads(path.read_text(encoding="utf-8")) == original


@pytest.mark.parametrize("agent", AGENTS)
def test_uninstall_of_a_file_holding_only_ours_removes_it(agent: str, tmp_path: Path) -> None:
    """Nothing left but an empty object: the file goes; uninstalling again is a no-op."""
    path = tmp_path / "settings.json"
    _apply(agent, path)
    _apply(agent, path, uninstall=True)
    assert not path.exists()
    assert INSTALLERS[agent].change(path, None, command=_command(agent), uninstall=True) == (None, [])


@pytest.mark.parametrize("agent", AGENTS)
def test_a_moved_ruleweave_is_respelled_not_added_twice(agent: str, tmp_path: Path) -> None:
    """An entry running ruleweave by another path (quoted, as the installer writes a path with a space)
    is ours: re-spelled in place; another agent's hook is not ours."""
    path = tmp_path / "settings.json"
    moved = f"'/opt/my tools/ruleweave' hook {agent}"
    _apply(agent, path, command=moved)
    changes = _apply(agent, path)
    first = next(iter(host(agent).events))
    assert changes[0] == f"{first}: re-spelled {moved!r} as {_command(agent)!r}"
    assert len(changes) == len(host(agent).events)
    hooks = json.loads(path.read_text(encoding="utf-8"))["hooks"]
    assert all(len(groups) == 1 and groups[0]["hooks"][0]["command"] == _command(agent)
               for groups in hooks.values())
    assert not INSTALLERS[agent].is_ours({"type": "command", "command": "ruleweave hook claude-code"})


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("text", [
    "[]", '{"hooks": []}', '{"hooks": {"PostToolUse": {}}}', '{"hooks": {"Stop": [{"hooks": 1}]}}',
    '{"hooks": {"Stop": [1]}}', '{// a comment\n"hooks": {}}', "{",
])
def test_a_file_of_the_wrong_shape_is_refused(agent: str, text: str, tmp_path: Path) -> None:
    """JSON that is not the agent's hook settings shape, or JSON with comments (which a rewrite would
    lose): the installer's ``SettingsError``, for install and uninstall alike."""
    error = INSTALLERS[agent].SettingsError
    assert issubclass(error, RuleweaveError) and issubclass(error, ValueError)
    for uninstall in (False, True):
        with pytest.raises(error):
            INSTALLERS[agent].change(tmp_path / "settings.json", text, command=_command(agent),
                                     uninstall=uninstall)
