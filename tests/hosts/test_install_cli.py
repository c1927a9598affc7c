"""``ruleweave install <agent>`` for every host with a file installer, through the command itself: the
diff first, the files, nothing twice, the user scope, a clean uninstall, and no write through a link out
of the project (a cloned repository must not make the installer rewrite a file elsewhere)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from ruleweave import RuleweaveConfig
from ruleweave.cli import main
from ruleweave.hosts import HOSTS, host
from tests.conftest import WriteTree

AGENTS = [name for name in HOSTS if hasattr(importlib.import_module(host(name).installer), "change")]


@pytest.fixture
def repo(write_tree: WriteTree) -> Path:
    return write_tree({".git/HEAD": "ref: refs/heads/main\n", "src/app.ts": "export const a = 1;\n"})


def files(agent: str, scope: str, repo: Path) -> list[Path]:
    module = importlib.import_module(host(agent).installer)
    found: list[Path] = module.files(scope, RuleweaveConfig(cwd=repo))
    return found


def install(agent: str, repo: Path, *args: str) -> int:
    return main(["install", agent, "--cwd", str(repo), *args])


def test_every_file_installer_is_covered() -> None:
    assert set(AGENTS) == {"codex", "gemini", "qwen", "cline", "opencode"}


@pytest.mark.parametrize("agent", AGENTS)
def test_dry_run_install_again_and_uninstall(
    agent: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--dry-run prints the new files as diffs and writes nothing; install writes each file naming the
    hook command; a second install changes nothing; --uninstall leaves no file it created."""
    paths = files(agent, "project", repo)
    assert paths and all(str(path).startswith(str(repo)) for path in paths)
    assert install(agent, repo, "--dry-run") == 0
    diff = capsys.readouterr().out
    assert all(f"+++ {path}" in diff for path in paths) and not any(path.exists() for path in paths)
    assert install(agent, repo) == 0
    written = {path: path.read_bytes() for path in paths}
    assert all(b"hook" in text and agent.encode() in text for text in written.values())
    capsys.readouterr()
    assert install(agent, repo) == 0
    assert "already installed" in capsys.readouterr().out
    assert {path: path.read_bytes() for path in paths} == written
    assert install(agent, repo, "--uninstall") == 0
    assert not any(path.exists() for path in paths)
    assert install(agent, repo, "--uninstall") == 0
    assert "not installed" in capsys.readouterr().out


@pytest.mark.parametrize("agent", AGENTS)
def test_user_scope_writes_only_under_home(agent: str, repo: Path, isolated_home: Path) -> None:
    paths = files(agent, "user", repo)
    assert paths and all(str(path).startswith(str(isolated_home)) for path in paths)
    assert install(agent, repo, "--user") == 0
    assert all(path.exists() for path in paths)
    assert not any(path.exists() for path in files(agent, "project", repo))


@pytest.mark.parametrize("agent", AGENTS)
def test_a_config_folder_linking_out_of_the_project_is_refused(
    agent: str, repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The agent's config folder in a cloned repository links elsewhere: exit 2, nothing written there."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = files(agent, "project", repo)[0].parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.symlink_to(elsewhere, target_is_directory=True)
    assert install(agent, repo) == 2
    assert "links outside the project" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("agent", AGENTS)
def test_mcp_hooks_are_refused_where_the_agent_runs_commands_only(
    agent: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install(agent, repo, "--hook-type", "mcp") == 2
    assert "runs hook commands only" in capsys.readouterr().err
    assert not any(path.exists() for path in files(agent, "project", repo))
