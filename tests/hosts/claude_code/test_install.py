"""``ruleweave install claude-code``: merging the hooks into Claude Code's settings files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import main
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RULEWEAVE

EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "Stop"]
THEIRS: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(ls:*)"]},
    "hooks": {
        "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "prettier --write"}]}],
        "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
    },
}


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree({"src/app.py": "x = 1\n"})


def install(repo: Path, *args: str) -> int:
    return main(["install", "claude-code", "--cwd", str(repo), *args])


def ours(settings: dict[str, Any]) -> dict[str, list[str]]:
    """Per event, the commands of ruleweave's entries."""
    return {
        event: [h["command"] for g in groups for h in g["hooks"] if "ruleweave" in h["command"]]
        for event, groups in settings.get("hooks", {}).items()
    }


def test_install_into_a_new_project_settings_file(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--project (the default) creates .claude/settings.json with the hook on every event."""
    assert install(repo) == 0
    settings = json.loads((repo / ".claude/settings.json").read_text())
    assert ours(settings) == {event: ["ruleweave hook claude-code"] for event in EVENTS}
    assert settings["hooks"]["PreToolUse"][0]["matcher"] == "*"
    assert "PostToolUse: added" in capsys.readouterr().out


def test_install_keeps_the_rest_and_is_idempotent(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Other keys and hooks stay in order; a second install changes nothing and writes nothing."""
    path = repo / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS))
    assert install(repo) == 0
    once = path.read_text()
    settings = json.loads(once)
    assert list(settings) == ["model", "permissions", "hooks"]
    # The user's allow rules first, then the registered MCP server's read_rule (reading changes nothing).
    assert settings["permissions"] == {"allow": ["Bash(ls:*)", "mcp__ruleweave__read_rule"]}
    assert settings["hooks"]["PostToolUse"][0] == THEIRS["hooks"]["PostToolUse"][0]
    assert settings["hooks"]["Notification"] == THEIRS["hooks"]["Notification"]
    mtime = path.stat().st_mtime_ns
    capsys.readouterr()
    assert install(repo) == 0
    assert path.read_text() == once and path.stat().st_mtime_ns == mtime
    assert "already installed" in capsys.readouterr().out


def test_uninstall_removes_only_ours(repo: Path) -> None:
    """Install then uninstall gives back the user's settings exactly (as JSON)."""
    path = repo / ".claude/settings.json"
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS))
    assert install(repo) == 0
    assert install(repo, "--uninstall") == 0
    assert json.loads(path.read_text()) == THEIRS


def test_dry_run_prints_a_diff_and_writes_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--dry-run prints a unified diff of the change and leaves the file as it was."""
    path = repo / ".claude/settings.local.json"
    path.parent.mkdir()
    path.write_text(json.dumps(THEIRS))
    assert install(repo, "--local", "--dry-run") == 0
    out = capsys.readouterr().out
    assert out.startswith(f"--- {path}\n+++ {path}\n")
    assert '+            "command": "ruleweave hook claude-code"' in out
    assert json.loads(path.read_text()) == THEIRS


def test_user_scope_writes_the_claude_config_dir(repo: Path, isolated_home: Path) -> None:
    """--user writes ~/.claude/settings.json."""
    assert install(repo, "--user") == 0
    assert ours(json.loads((isolated_home / ".claude/settings.json").read_text()))["Stop"]


@pytest.mark.parametrize(
    "text", ["{not json", "[1, 2]", '{"hooks": []}', '{"hooks": {"Stop": {"a": 1}}}', "\xff"]
)
def test_a_malformed_settings_file_is_left_untouched(
    repo: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A settings file that is not a JSON object of hook lists: exit 2, one sentence, file unchanged."""
    path = repo / ".claude/settings.json"
    path.parent.mkdir()
    path.write_bytes(text.encode("latin-1"))
    assert install(repo) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nothing was changed" in err
    assert path.read_bytes() == text.encode("latin-1")


def test_the_console_script_installs(repo: Path) -> None:
    """The real ruleweave command installs, and a second run reports nothing to change."""
    run = [RULEWEAVE, "install", "claude-code", "--project", "--cwd", str(repo)]
    first = subprocess.run(run, capture_output=True, text=True, check=True)
    second = subprocess.run(run, capture_output=True, text=True, check=True)
    assert "Installed in" in first.stdout and "nothing changed" in second.stdout


def test_absolute_spelling_replaces_the_bare_one(repo: Path) -> None:
    """Installing with --absolute re-spells the existing entries instead of adding more."""
    assert install(repo) == 0
    assert install(repo, "--absolute") == 0
    commands = ours(json.loads((repo / ".claude/settings.json").read_text()))
    assert all(len(c) == 1 and c[0].endswith("ruleweave hook claude-code") and c[0].startswith("/")
               for c in commands.values())


def test_a_project_settings_file_linking_outside_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cloned repository whose .claude/settings.json (or .claude) links elsewhere is never rewritten."""
    outside = tmp_path / "elsewhere.json"
    outside.write_text('{"keep": true}\n')
    (repo / ".claude").mkdir(exist_ok=True)
    (repo / ".claude" / "settings.json").symlink_to(outside)
    assert install(repo, "--project") == 2
    assert "links outside the project" in capsys.readouterr().err
    assert outside.read_text() == '{"keep": true}\n'
    (repo / ".claude" / "settings.json").unlink()
    (repo / ".claude").rmdir()
    (repo / ".claude").symlink_to(tmp_path, target_is_directory=True)
    assert install(repo, "--local") == 2
    assert not (tmp_path / "settings.local.json").exists()


def test_hooks_off_reads_claude_codes_settings_as_it_does(
    repo: Path, tmp_path: Path, isolated_home: Path
) -> None:
    """Claude Code 2.1.332 ran no hook with ``disableAllHooks: true`` in the user's, the project's, the
    local or the managed settings, nor with ``allowManagedHooksOnly: true`` in the managed ones, while
    ``allowManagedHooksOnly`` in the user's or the project's settings did nothing (real runs;
    ``test_e2e_cli.py`` pins one). The most specific settings file that sets ``disableAllHooks``
    decides; the managed one over all."""
    from ruleweave import RuleweaveConfig
    from ruleweave.hosts.claude_code.native import hooks_off

    managed = tmp_path / "managed"
    config = RuleweaveConfig(cwd=repo, claude_managed_dir=managed)
    user, project, local = (isolated_home / ".claude/settings.json", repo / ".claude/settings.json",
                            repo / ".claude/settings.local.json")
    for path in (user, project, local):
        path.parent.mkdir(parents=True, exist_ok=True)
    assert hooks_off(config) is None
    user.write_text('{"disableAllHooks": true, "allowManagedHooksOnly": true}')
    assert hooks_off(config) == f"disableAllHooks in {user}"
    project.write_text('{"disableAllHooks": false}')
    assert hooks_off(config) is None
    local.write_text('{"disableAllHooks": true}')
    assert hooks_off(config) == f"disableAllHooks in {local}"
    managed.mkdir()
    (managed / "managed-settings.json").write_text('{"disableAllHooks": false}')
    assert hooks_off(config) is None
    (managed / "managed-settings.json").write_text('{"allowManagedHooksOnly": true}')
    assert hooks_off(config) == f"allowManagedHooksOnly in {managed / 'managed-settings.json'}"
    (managed / "managed-settings.json").write_text("{ broken")
    assert hooks_off(config) == f"disableAllHooks in {local}"


def test_install_says_when_claude_code_runs_no_hooks(
    repo: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The install goes through (exit 0), but says its hooks will not run, and why."""
    (repo / ".claude").mkdir()
    (repo / ".claude/settings.local.json").write_text('{"disableAllHooks": true}')
    assert install(repo) == 0
    assert "Claude Code runs no hooks here (disableAllHooks in" in capsys.readouterr().err
    (repo / ".claude/settings.local.json").write_text("{}")
    assert install(repo) == 0
    assert "runs no hooks" not in capsys.readouterr().err
