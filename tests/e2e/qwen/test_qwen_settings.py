"""End to end: Qwen Code's own settings turning its hooks off, and ``ruleweave install`` saying so.

``disableAllHooks: true`` in the project's ``.qwen/settings.json`` (Qwen 0.24.4: ``Config.disableAllHooks``
stops every hook): the install still goes through but warns, and a real run gets Qwen's own ``QWEN.md``
and none of ruleweave's rules. The control (no such setting) is ``test_qwen_cli.py``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.mock_chat import MockChat, reply, text, tool
from tests.e2e.npm_agents import agent_cli
from tests.e2e.qwen.test_qwen_cli import CLI_TIMEOUT, RULEWEAVE, _env, _project

pytestmark = pytest.mark.e2e


def test_disable_all_hooks_runs_no_hook_and_the_install_says_so(tmp_path: Path) -> None:
    qwen = agent_cli("qwen")
    root = _project(tmp_path / "project")
    (root / ".cursor/rules/always.mdc").write_text(
        "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n", encoding="utf-8"
    )
    home, state = tmp_path / "home", tmp_path / "state"
    home.mkdir()
    (root / ".qwen").mkdir(exist_ok=True)
    (root / ".qwen/settings.json").write_text('{"disableAllHooks": true}', encoding="utf-8")
    installed = subprocess.run([str(RULEWEAVE), "install", "qwen"], cwd=root, env=_env(home, state),
                               capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert installed.returncode == 0, installed.stderr
    assert "Qwen Code runs no hooks here (disableAllHooks in" in installed.stderr
    script = [reply(tool("read_file", file_path=str(root / "src/a.ts"))), reply(text("Done."))]
    with MockChat(script, side=reply(text("ok"))) as mock:
        run = subprocess.run([str(qwen), "--auth-type", "openai", "--yolo", "Review the code."], cwd=root,
                             env=_env(home, state, mock.url), capture_output=True, text=True,
                             timeout=CLI_TIMEOUT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.dumps(mock.loop_requests[-1])
    assert seen.count("ROOT-QWEN") == 1  # Qwen's own file, loaded as ever
    assert "ALWAYS-RULE" not in seen and "TS-RULE" not in seen
    assert not (state / "snapshots").exists()  # no hook of ruleweave's ran
