"""``ruleweave install claude-code`` also registers ``ruleweave mcp --host claude-code``; the hook type.

Where each scope keeps MCP servers is what ``claude mcp add --scope …`` of the
bundled CLI 2.1.332 wrote (``<root>/.mcp.json``; ``~/.claude.json`` top-level
``mcpServers`` for user, ``projects[<root>].mcpServers`` for local).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import main
from ruleweave.hosts.claude_code.served import HOOK_INPUT, parse_version, supports_mcp_hooks
from tests.conftest import WriteTree

SERVER = {"type": "stdio", "command": "ruleweave", "args": ["mcp", "--host", "claude-code"], "env": {}}
THEIR_SERVERS: dict[str, Any] = {"mcpServers": {"github": {"type": "http", "url": "https://example.com/mcp"}}}


@pytest.fixture
def repo(write_tree: WriteTree, isolated_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project; the state directory in the temp dir; a PATH without ``claude``."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    return write_tree({"src/app.py": "x = 1\n"})


def install(repo: Path, *args: str) -> int:
    return main(["install", "claude-code", "--cwd", str(repo), *args])


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def fake_claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    """A ``claude`` on PATH that prints ``version`` as ``claude --version`` does."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir(exist_ok=True)
    program = bin_dir / "claude"
    program.write_text(f"#!/bin/sh\necho '{version} (Claude Code)'\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", str(bin_dir))


def test_project_scope_registers_the_server_in_mcp_json(repo: Path) -> None:
    """--project writes .mcp.json beside the settings, merged with the team's own servers, once."""
    (repo / ".mcp.json").write_text(json.dumps(THEIR_SERVERS))
    assert install(repo) == 0
    assert read(repo / ".mcp.json") == {"mcpServers": {**THEIR_SERVERS["mcpServers"], "ruleweave": SERVER}}
    once = (repo / ".mcp.json").read_text()
    assert install(repo) == 0
    assert (repo / ".mcp.json").read_text() == once
    assert install(repo, "--uninstall") == 0
    assert read(repo / ".mcp.json") == THEIR_SERVERS  # a file that was there before stays


def test_user_and_local_scopes_write_claude_json(repo: Path, isolated_home: Path) -> None:
    """--user registers the server at the top of ~/.claude.json, --local under the project; both come out."""
    claude_json = isolated_home / ".claude.json"
    claude_json.write_text(json.dumps({"numStartups": 3, "projects": {"/elsewhere": {"mcpServers": {}}}}))
    assert install(repo, "--user") == 0
    assert install(repo, "--local") == 0
    data = read(claude_json)
    assert data["numStartups"] == 3 and data["mcpServers"] == {"ruleweave": SERVER}
    assert data["projects"][str(repo)] == {"mcpServers": {"ruleweave": SERVER}}
    assert data["projects"]["/elsewhere"] == {"mcpServers": {}}
    assert read(isolated_home / ".claude" / "settings.json")["hooks"]
    assert read(repo / ".claude" / "settings.local.json")["hooks"]
    assert install(repo, "--local", "--uninstall") == 0
    assert install(repo, "--user", "--uninstall") == 0
    assert read(claude_json) == {"numStartups": 3, "projects": {"/elsewhere": {"mcpServers": {}}}}


def test_claude_config_dir_moves_the_user_file(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With CLAUDE_CONFIG_DIR set, the user's MCP servers live in $CLAUDE_CONFIG_DIR/.claude.json."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    assert install(repo, "--user") == 0
    assert read(tmp_path / "cfg" / ".claude.json")["mcpServers"] == {"ruleweave": SERVER}
    assert (tmp_path / "cfg" / "settings.json").is_file()


def test_uninstall_deletes_only_the_files_install_created(repo: Path) -> None:
    """Files the install created and left empty go; none is left behind, and a second run changes nothing."""
    assert install(repo) == 0
    assert install(repo, "--uninstall") == 0
    assert not (repo / ".mcp.json").exists() and not (repo / ".claude" / "settings.json").exists()
    assert install(repo, "--uninstall") == 0


def test_a_file_that_was_there_empty_is_kept(repo: Path) -> None:
    """An .mcp.json holding ``{}`` before the install is left (as ``{}``) by the uninstall."""
    (repo / ".mcp.json").write_text("{}\n")
    assert install(repo) == 0
    assert install(repo, "--uninstall") == 0
    assert read(repo / ".mcp.json") == {}


def test_dry_run_shows_both_files_and_writes_nothing(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--dry-run prints the diff of the settings and of .mcp.json, and writes neither."""
    assert install(repo, "--dry-run") == 0
    out = capsys.readouterr().out
    assert f"+++ {repo / '.mcp.json'}" in out and f"+++ {repo / '.claude' / 'settings.json'}" in out
    assert '"--host",' in out
    assert not (repo / ".mcp.json").exists() and not (repo / ".claude").exists()


def test_an_mcp_json_linking_out_of_the_project_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A committed .mcp.json that is a link out of the project is not rewritten (exit 2), nor is anything."""
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(THEIR_SERVERS))
    os.symlink(outside, repo / ".mcp.json")
    assert install(repo) == 2
    assert "links outside the project" in capsys.readouterr().err
    assert read(outside) == THEIR_SERVERS and not (repo / ".claude").exists()


def test_a_foreign_server_named_ruleweave_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A server called ruleweave that runs something else is not overwritten."""
    foreign = {"mcpServers": {"ruleweave": {"command": "npx", "args": ["x"]}}}
    (repo / ".mcp.json").write_text(json.dumps(foreign))
    assert install(repo) == 2
    assert "runs something else" in capsys.readouterr().err


def test_the_hook_type_follows_the_installed_claude(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A claude with MCP tool hooks gets mcp_tool hooks (SessionStart stays a command); older, commands."""
    fake_claude(tmp_path, monkeypatch, "2.1.332")
    assert install(repo) == 0
    hooks = read(repo / ".claude" / "settings.json")["hooks"]
    assert hooks["SessionStart"][0]["hooks"] == [{"type": "command", "command": "ruleweave hook claude-code"}]
    assert hooks["PostToolUse"][0]["hooks"] == [
        {"type": "mcp_tool", "server": "ruleweave", "tool": "hook", "input": HOOK_INPUT}
    ]
    assert "Hooks: mcp (the installed agent (2.1.332)" in capsys.readouterr().out
    fake_claude(tmp_path, monkeypatch, "2.1.100")
    assert install(repo) == 0
    hooks = read(repo / ".claude" / "settings.json")["hooks"]
    assert all(group["hooks"][0]["type"] == "command" for groups in hooks.values() for group in groups)
    replaced = "PostToolUse: replaced mcp_tool ruleweave/hook by 'ruleweave hook claude-code'"
    assert replaced in capsys.readouterr().out
    assert install(repo, "--hook-type", "mcp") == 0  # forced, whatever the version
    assert read(repo / ".claude" / "settings.json")["hooks"]["Stop"][0]["hooks"][0]["type"] == "mcp_tool"
    assert install(repo, "--uninstall") == 0
    assert not (repo / ".claude" / "settings.json").exists()


def test_versions_read_from_claude() -> None:
    """``claude --version`` output as numbers; MCP tool hooks from 2.1.118 on."""
    assert parse_version("2.1.332 (Claude Code)\n") == (2, 1, 332)
    assert parse_version("claude: command not found") is None
    assert supports_mcp_hooks((2, 1, 118)) and not supports_mcp_hooks((2, 1, 117))
    assert not supports_mcp_hooks(None)
