"""``QWEN_HOME`` and ``GEMINI_CLI_HOME`` move those agents' user tiers, and ruleweave reads them there.

Qwen Code 0.24.4: ``Storage.getGlobalQwenDir`` is ``$QWEN_HOME``, else ``~/.qwen`` (bundle
``chunks/chunk-EL2S73QY.js``); its ``QWEN.md``, ``rules/`` and ``settings.json`` live there. Gemini CLI
0.61.0: ``homedir()`` is ``$GEMINI_CLI_HOME``, else the home (``bundle/chunk-JDPZ4CE3.js``, from
``packages/core/src/utils/paths.ts``), and ``getGlobalMemoryPaths`` reads ``<that>/.gemini/<name>``;
``Storage.getGlobalGeminiDir`` holds its ``settings.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.hosts import host
from ruleweave.hosts._core.native import hook_config
from tests.conftest import WriteTree


@pytest.mark.parametrize(
    ("variable", "folder", "name", "agent"),
    [("QWEN_HOME", "", "QWEN.md", "qwen"), ("GEMINI_CLI_HOME", ".gemini", "GEMINI.md", "gemini")],
)
def test_the_user_tier_follows_the_agent_s_home_variable(
    variable: str, folder: str, name: str, agent: str, write_tree: WriteTree, tmp_path: Path,
    isolated_home: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The moved file and its ``context.fileName`` setting are read; the home's copy is not; the agent's
    own hooks leave the moved files out, as it loads them itself."""
    moved = tmp_path / "agent-home" / folder if folder else tmp_path / "agent-home"
    moved.mkdir(parents=True)
    (moved / name).write_text("MOVED-TIER\n", encoding="utf-8")
    (moved / "EXTRA.md").write_text("MOVED-EXTRA\n", encoding="utf-8")
    (moved / "settings.json").write_text(json.dumps({"context": {"fileName": [name, "EXTRA.md"]}}),
                                         encoding="utf-8")
    stale = isolated_home / (".qwen" if agent == "qwen" else ".gemini")
    stale.mkdir()
    (stale / name).write_text("HOME-TIER\n", encoding="utf-8")
    monkeypatch.setenv(variable, str(tmp_path / "agent-home"))
    root = write_tree({".git/HEAD": "", "README.md": "x\n"})
    config = RuleweaveConfig(cwd=root)
    prompt = RuleSet.load(config).session("s").system_prompt()
    assert "MOVED-TIER" in prompt and "MOVED-EXTRA" in prompt and "HOME-TIER" not in prompt
    left_out = set(hook_config(config, host(agent)).native_user_files)
    assert {str(moved / name), str(moved / "EXTRA.md")} <= left_out
