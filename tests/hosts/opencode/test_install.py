"""OpenCode's installer: the plugin file written once, rewritten for another command, removed, never
written over someone else's plugin; and ``ruleweave install opencode`` on a real project."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ruleweave.config import RuleweaveConfig
from ruleweave.hosts.claude_code.settings import SettingsError
from ruleweave.hosts.opencode.install import change, files, is_ours
from tests.hosts.running import RULEWEAVE, apply

COMMAND = "ruleweave hook opencode"


def _apply(path: Path, *, uninstall: bool = False, command: str = COMMAND) -> list[str]:
    return apply(change, path, command=command, uninstall=uninstall)


def test_scopes_name_the_folders_opencode_loads(tmp_path: Path, isolated_home: Path) -> None:
    """project: <root>/.opencode/plugins/; user: $XDG_CONFIG_HOME/opencode/plugins/ (~/.config)."""
    (tmp_path / ".git").mkdir()
    config = RuleweaveConfig(cwd=tmp_path)
    assert files("project", config) == [tmp_path / ".opencode" / "plugins" / "ruleweave.js"]
    assert files("user", config) == [isolated_home / ".config" / "opencode" / "plugins" / "ruleweave.js"]


def test_install_is_idempotent_and_uninstall_removes_it(tmp_path: Path) -> None:
    path = tmp_path / ".opencode" / "plugins" / "ruleweave.js"
    assert _apply(path) and is_ours(path.read_text(encoding="utf-8"))
    assert '["ruleweave", "hook", "opencode"]' in path.read_text(encoding="utf-8")
    assert _apply(path) == []
    assert _apply(path, command="/opt/rw/bin/ruleweave hook opencode --store 'sqlite:///tmp/a b.db'")
    words = '["/opt/rw/bin/ruleweave", "hook", "opencode", "--store", "sqlite:///tmp/a b.db"]'
    assert words in path.read_text(encoding="utf-8")
    assert _apply(path, uninstall=True) and not path.exists()
    assert _apply(path, uninstall=True) == []


def test_someone_elses_plugin_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ruleweave.js"
    path.write_text("export const Mine = async () => ({})\n", encoding="utf-8")
    for uninstall in (False, True):
        with pytest.raises(SettingsError, match="did not write"):
            _apply(path, uninstall=uninstall)
    assert path.read_text(encoding="utf-8").startswith("export const Mine")


def test_the_cli_installs_into_the_project(tmp_path: Path, isolated_home: Path) -> None:
    """``ruleweave install opencode`` twice, ``--dry-run`` writes nothing, ``--uninstall`` takes it out and
    leaves the project's other plugins alone."""
    (tmp_path / ".git").mkdir()
    other = tmp_path / ".opencode" / "plugins" / "mine.js"
    other.parent.mkdir(parents=True)
    other.write_text("export const Mine = async () => ({})\n", encoding="utf-8")
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([RULEWEAVE, "install", "opencode", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60, check=False)

    plugin = tmp_path / ".opencode" / "plugins" / "ruleweave.js"
    assert run("--dry-run").returncode == 0 and not plugin.exists()
    assert run().returncode == 0 and is_ours(plugin.read_text(encoding="utf-8"))
    again = run()
    assert again.returncode == 0 and "nothing changed" in again.stdout
    assert run("--uninstall").returncode == 0 and not plugin.exists() and other.exists()


def test_the_cli_stores_a_server_in_the_plugin(tmp_path: Path, isolated_home: Path) -> None:
    """``--server URL`` is written into the plugin beside the command (the path ``/mcp`` by default); an
    install without it takes it out again. A URL the plugin could not use is refused before anything is
    written, and so is ``--server`` for an agent whose hooks cannot ask a server."""
    (tmp_path / ".git").mkdir()
    env = {**os.environ, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}

    def run(agent: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([RULEWEAVE, "install", agent, *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60, check=False)

    plugin = tmp_path / ".opencode" / "plugins" / "ruleweave.js"
    done = run("opencode", "--server", "http://127.0.0.1:8765")
    assert done.returncode == 0, done.stderr
    assert "asking http://127.0.0.1:8765/mcp first, else running 'ruleweave hook opencode'" in done.stdout
    text = plugin.read_text(encoding="utf-8")
    assert 'const SERVER = "http://127.0.0.1:8765/mcp"' in text
    assert 'const COMMAND = ["ruleweave", "hook", "opencode"]' in text
    assert run("opencode").returncode == 0
    assert "const SERVER = null" in plugin.read_text(encoding="utf-8")
    for url, said in (("http://192.168.1.5:8765/mcp", "on this machine only"),
                      ("https://127.0.0.1:8765/mcp", "expected http://HOST:PORT/mcp"),
                      ("http://127.0.0.1/mcp", "expected http://HOST:PORT/mcp"),
                      ("http://127.0.0.1:99999/mcp", "expected http://HOST:PORT/mcp")):
        refused = run("opencode", "--server", url)
        assert refused.returncode == 2 and said in refused.stderr, (url, refused.stderr)
    assert "const SERVER = null" in plugin.read_text(encoding="utf-8")
    other = run("codex", "--server", "http://127.0.0.1:8765/mcp")
    assert other.returncode == 2 and "only OpenCode's plugin does" in other.stderr
    assert not (tmp_path / ".codex").exists()
