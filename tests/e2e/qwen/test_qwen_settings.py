"""End to end: what Qwen Code's own settings change for its hooks, with the real CLI.

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


def test_a_system_settings_context_file_name_is_qwens_and_the_defaults_come_from_the_hooks(
    tmp_path: Path,
) -> None:
    """The system settings (``$QWEN_CODE_SYSTEM_SETTINGS_PATH``, the highest layer) set ``context.fileName``
    to ``TEAM.md``: Qwen loads that instead of ``QWEN.md`` and ``AGENTS.md``, so the hooks deliver those
    two (before, they read only the project's and the user's settings, left both out as Qwen's own, and
    they reached nobody). Each arrives once."""
    qwen = agent_cli("qwen")
    root = _project(tmp_path / "project")
    (root / "TEAM.md").write_text("TEAM-MD: named by the system settings.\n", encoding="utf-8")
    home, state, system = tmp_path / "home", tmp_path / "state", tmp_path / "etc" / "settings.json"
    home.mkdir()
    system.parent.mkdir()
    system.write_text(json.dumps({"context": {"fileName": ["TEAM.md"]}}), encoding="utf-8")
    env = {**_env(home, state), "QWEN_CODE_SYSTEM_SETTINGS_PATH": str(system)}
    installed = subprocess.run([str(RULEWEAVE), "install", "qwen"], cwd=root, env=env,
                               capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert installed.returncode == 0, installed.stderr
    with MockChat([reply(text("Done."))], side=reply(text("ok"))) as mock:
        run_env = {**_env(home, state, mock.url), "QWEN_CODE_SYSTEM_SETTINGS_PATH": str(system)}
        run = subprocess.run([str(qwen), "--auth-type", "openai", "--yolo", "Say done."], cwd=root,
                             env=run_env, capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.dumps(mock.loop_requests[0])
    assert {marker: seen.count(marker) for marker in ("TEAM-MD", "ROOT-AGENTS", "ROOT-QWEN")} == {
        "TEAM-MD": 1, "ROOT-AGENTS": 1, "ROOT-QWEN": 1,
    }
