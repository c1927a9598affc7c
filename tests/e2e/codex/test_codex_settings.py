"""End to end: Codex's own config turning its hooks off, and ``ruleweave install`` saying so.

``features.codex_hooks = false`` in the user's ``config.toml`` (Codex 0.171.0's ``CodexHooks`` feature,
on by default): the real CLI runs no hook, so the project's always-on rule reaches no request, while its
``AGENTS.md`` (Codex's own) still does; ``ruleweave install codex`` then warns. The control, the same
project with the feature left on, is every other Codex e2e test.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.codex.driving import run_turn
from tests.e2e.mock_responses import reply, text
from tests.hosts.running import RULEWEAVE

pytestmark = pytest.mark.e2e


def test_codex_hooks_feature_off_runs_no_hook_and_the_install_says_so(tmp_path: Path) -> None:
    turn = run_turn(tmp_path, {
        ".github/copilot-instructions.md": "COPILOT-ALWAYS: keep commits small.\n",
        "AGENTS.md": "ROOT-AGENTS: Codex loads this itself.\n",
    }, [reply(text("Done."))], "Say done.", user_config="features.codex_hooks = false\n")
    seen = json.dumps(turn.mock.loop_requests[0])
    assert seen.count("ROOT-AGENTS") == 1 and "COPILOT-ALWAYS" not in seen
    env = {**os.environ, "HOME": str(tmp_path / "home"), "CODEX_HOME": str(turn.codex_home),
           "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    again = subprocess.run([RULEWEAVE, "install", "codex", "--cwd", str(turn.project), "--absolute"],
                           capture_output=True, text=True, env=env, timeout=60, check=False)
    assert again.returncode == 0 and "already installed" in again.stdout
    assert "Codex runs no hooks here (features.codex_hooks is false in" in again.stderr
