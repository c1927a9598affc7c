"""What each host reads itself stays out of what its hooks deliver: the walk's files, the user tier's,
and nothing more (nested files an agent never loads still go out as notices)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.hosts import host
from ruleweave.hosts._core.native import hook_config
from tests.conftest import WriteTree

USER_FILES = {
    ".claude/CLAUDE.md": "USER-CLAUDE",
    ".codex/AGENTS.md": "USER-CODEX",
    ".qwen/QWEN.md": "USER-QWEN",
}
"""User-tier instruction files, each read by one agent only (its own docs and source: docs/hosts/)."""

OWN = {"claude-code": "USER-CLAUDE", "codex": "USER-CODEX", "qwen": "USER-QWEN"}


@pytest.mark.parametrize("name", sorted(OWN))
def test_the_user_tier_file_an_agent_reads_itself_is_left_out(
    name: str, write_tree: WriteTree, tmp_path: Path
) -> None:
    """Claude Code reads ``~/.claude/CLAUDE.md``, Codex ``$CODEX_HOME/AGENTS.md``, Qwen Code
    ``~/.qwen/QWEN.md`` itself: each host's start context leaves its own out and keeps the others'."""
    home = tmp_path / "home"
    for rel, text in USER_FILES.items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text + "\n")
    root = write_tree({".git/HEAD": "", "CLAUDE.md": "ROOT-CLAUDE\n"})
    base = RuleweaveConfig(cwd=root, home=home, codex_home=home / ".codex",
                           claude_config_dir=home / ".claude")
    text = RuleSet.load(hook_config(base, host(name))).prompt_parts().text
    assert OWN[name] not in text
    assert all(marker in text for agent, marker in OWN.items() if agent != name)
    kept = RuleSet.load(hook_config(base, host(name), leave_out_native=False)).prompt_parts().text
    assert OWN[name] in kept  # --include-native


@pytest.mark.parametrize("name", ["codex", "qwen"])
def test_walk_only_agents_get_nested_agents_md_below_their_cwd(name: str, write_tree: WriteTree) -> None:
    """Codex 0.171.0 and Qwen Code 0.24.4 load ``AGENTS.md`` from the root to the cwd and never below
    (real runs: docs/hosts/codex.md, docs/hosts/qwen.md): the walk's copy stays out of the start context,
    a nested one comes with a file below it."""
    root = write_tree({".git/HEAD": "", "AGENTS.md": "ROOT-AGENTS\n", "pkg/AGENTS.md": "PKG-AGENTS\n",
                       "pkg/a.ts": ""})
    rules = RuleSet.load(hook_config(RuleweaveConfig(cwd=root), host(name)))
    assert "ROOT-AGENTS" not in rules.prompt_parts().text
    session = rules.session("s1")
    notice = session.after_tool_call("read_file", {"file_path": str(root / "pkg/a.ts")})
    assert notice is not None and "PKG-AGENTS" in notice.text
