"""End to end: Gemini CLI's own settings turning ruleweave's hooks off, and ``ruleweave install`` saying so.

``hooksConfig.disabled: ["ruleweave"]`` in the user's settings (what ``/hooks disable ruleweave`` does;
Gemini 0.61.0 matches a hook by its ``name``): the install still goes through but warns, and a real
headless run gets Gemini's own ``GEMINI.md`` and none of ruleweave's rules. The control is
``test_gemini_cli.py``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.e2e.gemini.test_gemini_cli import RULEWEAVE, _env, _gemini, _home, _project
from tests.e2e.mock_gemini import reply, text, tool
from tests.e2e.npm_agents import agent_cli

pytestmark = pytest.mark.e2e


def test_a_hook_disabled_by_name_runs_not_and_the_install_says_so(tmp_path: Path) -> None:
    cli = agent_cli("gemini")
    project = _project(tmp_path / "project")
    home = _home(tmp_path / "home", project)
    settings = home / ".gemini" / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text(encoding="utf-8")),
                                    "hooksConfig": {"disabled": ["ruleweave"]}}), encoding="utf-8")
    env = _env(home, tmp_path / "state")
    installed = subprocess.run([str(RULEWEAVE), "install", "gemini", "--user"], cwd=project, env=env,
                               capture_output=True, text=True, timeout=60, check=False)
    assert installed.returncode == 0, installed.stderr
    assert "Gemini CLI runs no hooks here (hooksConfig.disabled names 'ruleweave' in" in installed.stderr
    script = [reply(tool("read_file", file_path=str(project / "src/a.ts"))), reply(text("Done."))]
    mock, _ = _gemini(cli, project, env, script, "Review src/a.ts")
    seen = json.dumps(mock.loop_requests[-1])
    assert seen.count("ROOT-GEMINI") == 1  # Gemini's own file, loaded as ever
    assert "ALWAYS-RULE" not in seen and "TS-RULE" not in seen and "ROOT-AGENTS" not in seen
