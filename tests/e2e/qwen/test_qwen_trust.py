"""End to end: Qwen Code's folder trust, with ruleweave's hooks installed for the user.

With ``security.folderTrust.enabled`` in the user's settings (in ``$QWEN_HOME``, where Qwen reads them and
where ``ruleweave install qwen --user`` now writes), Qwen Code 0.24.4 loads no ``QWEN.md``,
``AGENTS.md`` or ``.qwen/QWEN.local.md`` in a folder ``trustedFolders.json`` marks ``DO_NOT_TRUST`` or
does not name, but still runs the user's hooks (``ruleweave.hosts.qwen.trust`` cites its source). Before
the hooks read Qwen's trust, those runs delivered the project's always-on and ``.ts`` rules; now the model
gets nothing of the project from either, and in a trusted folder both come as before.
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

MARKERS = ("ROOT-QWEN", "ROOT-AGENTS", "QWEN-LOCAL", "ALWAYS-RULE", "TS-RULE")


def _run(tmp_path: Path, rules: dict[str, str] | None) -> dict[str, int]:
    """One headless Qwen run reading ``src/a.ts`` in a project with folder trust on and ``rules`` (the
    project's own ``ROOT`` spelled out) as ``trustedFolders.json``: how often each marker reached the
    model's last request."""
    qwen = agent_cli("qwen")
    root = _project(tmp_path / "project")
    (root / ".cursor/rules/always.mdc").write_text(
        "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n", encoding="utf-8"
    )
    home, state, qwen_home = tmp_path / "home", tmp_path / "state", tmp_path / "qwen-home"
    home.mkdir()
    # Qwen's user folder moved by $QWEN_HOME: the --user install must write where this Qwen reads.
    env = {**_env(home, state), "QWEN_HOME": str(qwen_home)}
    installed = subprocess.run([str(RULEWEAVE), "install", "qwen", "--user"], cwd=root, env=env,
                               capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert installed.returncode == 0, installed.stderr
    user_settings = qwen_home / "settings.json"
    settings = {**json.loads(user_settings.read_text(encoding="utf-8")),
                "security": {"folderTrust": {"enabled": True}}}
    # JSON with comments, as Qwen reads it.
    user_settings.write_text("// folder trust on\n" + json.dumps(settings), encoding="utf-8")
    if rules is not None:
        named = {path.replace("ROOT", str(root)): level for path, level in rules.items()}
        (qwen_home / "trustedFolders.json").write_text(json.dumps(named), encoding="utf-8")
    script = [reply(tool("read_file", file_path=str(root / "src/a.ts"))), reply(text("Done."))]
    with MockChat(script, side=reply(text("ok"))) as mock:
        run = subprocess.run([str(qwen), "--auth-type", "openai", "--yolo", "Review the code."], cwd=root,
                             env={**_env(home, state, mock.url), "QWEN_HOME": str(qwen_home)},
                             capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(mock.loop_requests) == len(script)
    seen = json.dumps(mock.loop_requests[-1])
    return {marker: seen.count(marker) for marker in MARKERS}


UNTRUSTED = [{"ROOT": "DO_NOT_TRUST"}, None, {"ROOT/..": "TRUST_FOLDER", "ROOT": "DO_NOT_TRUST"}]


@pytest.mark.parametrize("rules", UNTRUSTED, ids=["marked", "not-named", "deeper-rule-wins"])
def test_a_folder_qwen_does_not_trust_gets_nothing_from_the_hooks(
    tmp_path: Path, rules: dict[str, str] | None
) -> None:
    """Qwen loads none of the project's files, and the hooks add none of its rules."""
    assert _run(tmp_path, rules) == dict.fromkeys(MARKERS, 0)


def test_a_trusted_folder_gets_both(tmp_path: Path) -> None:
    """``TRUST_PARENT`` on ``src`` trusts the project: Qwen's files once each, the hooks' rules once."""
    assert _run(tmp_path, {"ROOT/src": "TRUST_PARENT"}) == dict.fromkeys(MARKERS, 1)
