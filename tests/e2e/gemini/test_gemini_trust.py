"""End to end: Gemini CLI runs no hook at all in a folder it does not trust, so its host needs no guard.

Unlike Codex and Qwen Code (whose hosts declare ``distrusted``), Gemini CLI 0.61.0 keeps even the hooks in
the user's settings from running where the folder is untrusted: interactive ``gemini -i`` with
``ruleweave install gemini --user``, in a folder ``trustedFolders.json`` marks ``DO_NOT_TRUST`` or does
not name (folder trust is on by default: ``isFolderTrustEnabled``'s ``?? true``), loaded no ``GEMINI.md``
and ran no ruleweave hook (no state written). Headless runs refuse such a folder outright
(``FatalUntrustedWorkspaceError``), so the interactive CLI is driven in a pseudo-terminal, and stopped
once the model has answered the tool call. A trusted folder is the control: both arrive.
"""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.gemini.test_gemini_cli import MODEL, RULEWEAVE, _env, _gemini, _home, _project
from tests.e2e.mock_gemini import MockGemini, reply, text, tool
from tests.e2e.npm_agents import agent_cli

pytestmark = pytest.mark.e2e

MARKERS = ("ROOT-GEMINI", "ALWAYS-RULE", "ROOT-AGENTS", "TS-RULE")
WAIT = 90.0


def _interactive(cli: Path, project: Path, env: dict[str, str], mock: MockGemini) -> None:
    """``gemini -i`` in a pseudo-terminal until the mock has served the whole script, then killed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the CLI
        os.chdir(project)
        os.execve(str(cli), [str(cli), "-i", "Review src/a.ts", "-m", MODEL], env)
    try:
        end = time.monotonic() + WAIT
        while time.monotonic() < end and len(mock.loop_requests) < 2:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    os.read(fd, 65536)  # drain the screen, or the CLI blocks on a full terminal
                except OSError:
                    break
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


@pytest.mark.parametrize("level", ["DO_NOT_TRUST", None, "TRUST_FOLDER"],
                         ids=["marked", "not-named", "trusted"])
def test_hooks_run_only_where_gemini_trusts_the_folder(tmp_path: Path, level: str | None) -> None:
    """Untrusted (marked, or not named): neither Gemini's ``GEMINI.md`` nor anything of ruleweave's, and no
    hook ran. Trusted: Gemini's own file and the hooks' rules, once each."""
    cli = agent_cli("gemini")
    project = _project(tmp_path / "project")
    home = _home(tmp_path / "home", project)
    folders = home / ".gemini" / "trustedFolders.json"
    if level is None:
        folders.unlink()
    else:
        folders.write_text(json.dumps({str(project): level}), encoding="utf-8")
    state = tmp_path / "state"
    env = {**_env(home, state), "TERM": "xterm-256color"}
    installed = subprocess.run([str(RULEWEAVE), "install", "gemini", "--user"], cwd=project, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert installed.returncode == 0, installed.stderr
    script = [reply(tool("read_file", file_path=str(project / "src/a.ts"))), reply(text("Reviewed."))]
    with MockGemini(script) as mock:
        _interactive(cli, project, {**env, "GOOGLE_GEMINI_BASE_URL": mock.url}, mock)
    assert len(mock.loop_requests) == 2, [r["path"] for r in mock.requests]
    seen = json.dumps(mock.loop_requests[-1])
    counts = {marker: seen.count(marker) for marker in MARKERS}
    hooks_ran = (state / "snapshots").exists()
    if level == "TRUST_FOLDER":
        assert counts == dict.fromkeys(MARKERS, 1) and hooks_ran
    else:
        assert counts == dict.fromkeys(MARKERS, 0) and not hooks_ran


def test_a_user_install_follows_gemini_cli_home(tmp_path: Path) -> None:
    """With ``$GEMINI_CLI_HOME`` set, Gemini CLI reads its user settings (and trusted folders) in
    ``$GEMINI_CLI_HOME/.gemini``: ``ruleweave install gemini --user`` writes its hooks there, and a
    headless run gets the rules from them (before, they went to ``~/.gemini``, which it never reads)."""
    cli = agent_cli("gemini")
    project = _project(tmp_path / "project")
    gemini_home = _home(tmp_path / "gemini-home", project)
    (tmp_path / "home").mkdir()
    env = {**_env(tmp_path / "home", tmp_path / "state"), "GEMINI_CLI_HOME": str(gemini_home)}
    installed = subprocess.run([str(RULEWEAVE), "install", "gemini", "--user"], cwd=project, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert installed.returncode == 0, installed.stderr
    assert "ruleweave hook gemini" in (gemini_home / ".gemini" / "settings.json").read_text(encoding="utf-8")
    script = [reply(tool("read_file", file_path=str(project / "src/a.ts"))), reply(text("Reviewed."))]
    mock, _ = _gemini(cli, project, env, script, "Review src/a.ts")
    seen = json.dumps(mock.loop_requests[-1])
    assert {marker: seen.count(marker) for marker in MARKERS} == dict.fromkeys(MARKERS, 1)
