"""The examples run offline as documented and show what they claim."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_demo() -> None:
    """make demo's script shows the scan, the prompt with its budget, and once-only notices."""
    out = run("demo.py")
    assert "1. ruleweave scan" in out and "python-style" in out
    assert "<generic-rules>" in out and "-- prompt:" in out and "-- instructions:" in out
    assert "call 2: read_file services/api/handlers.py -> python-style" in out
    assert "call 3: read_file services/api/store.py -> nothing new" in out
    assert "call 6: write_file db/migrations/0004_drop_legacy.sql -> sql-migrations" in out
    last = out.rstrip().split("\n\n")[-1].splitlines()  # make demo ends with what to try next
    assert last[0] == "What to try next:"
    assert any(line.split()[:3] == [".venv/bin/ruleweave", "lint", "--cwd"] for line in last)
    assert any(".venv/bin/ruleweave install claude-code --project" in line for line in last)


def test_quickstart() -> None:
    """The README's snippet (examples/quickstart.py) runs as written and gets its notice."""
    out = run("quickstart.py")
    assert "system prompt: " in out and "refused: no" in out
    assert "[rule: typescript]" in out


def test_readme_snippet_is_the_quickstart() -> None:
    """The Python snippet at the top of the README is examples/quickstart.py, line for line."""
    readme = (EXAMPLES.parent / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("```python\n", 1)[1].split("```\n", 1)[0]
    assert snippet in (EXAMPLES / "quickstart.py").read_text(encoding="utf-8")


def test_custom_loop(tmp_path: Path) -> None:
    """Both wire formats get notices on the first touch only, and the log replays clean."""
    log = tmp_path / "events.jsonl"
    out = run("custom_loop.py", "--event-log", str(log))
    assert "tool_result toolu_1: [rule: python-style]" in out
    assert "tool_result toolu_2: no notice" in out
    assert "tool call_1: [rule: typescript]" in out
    from ruleweave.testing import assert_replays

    assert_replays(log)


@pytest.mark.parametrize(
    "name", ["langchain_agent.py", "openai_agents_agent.py", "pydantic_ai_agent.py", "mcp_client.py"]
)
def test_framework_examples(name: str, tmp_path: Path) -> None:
    """The framework examples run offline with their scripted models."""
    out = run(name, "--event-log", str(tmp_path / "events.jsonl"))
    assert "[rule:" in out


def test_claude_agent_sdk_example() -> None:
    """The Agent SDK example shows the options ruleweave builds, a notice once, and a refusal."""
    out = run("claude_agent_sdk_agent.py")
    assert (
        "hook events: PostToolUse, PreCompact, PreToolUse, SessionStart, Stop, SubagentStart, "
        "UserPromptSubmit" in out
    )
    assert "session_id: 0c8f6f0e-5d2b-4c43-9a57-3d1f1b6a2e11" in out
    assert "include_partial_messages: True" in out
    assert "system_prompt: preset 'claude_code', append (" in out and "    | <generic-rules>" in out
    notice = out.split("PostToolUse, Read services/api/handlers.py:\n", 1)[1].split("\nPostToolUse", 1)[0]
    # .claude/rules (api-handlers) is Claude Code's own: left out
    assert notice.splitlines() == ["    | [rule: python-style]", "    | [rule: api-design]"]
    assert "PostToolUse, Read services/api/store.py: nothing new (once per session)" in out
    assert "    permissionDecision: deny" in out and "matches rule `no-float-money`" in out
    assert out == run("claude_agent_sdk_agent.py")  # deterministic, fixed session id included


def test_claude_code_hooks_example() -> None:
    """A dry run writes nothing, install is idempotent, and a notice comes once across hook processes."""
    out = run("claude_code_hooks.py")
    dry_run = out.split("$ ruleweave install claude-code --project\n", 1)[0]
    assert "+++ $TMP/project/.claude/settings.json" in dry_run
    assert '"command": "ruleweave hook claude-code"' in dry_run
    assert "settings.json written: False" in dry_run
    assert "Installed in $TMP/project/.claude/settings.json." in out
    assert "hook events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, SubagentStart, Stop" in out
    assert "already installed in $TMP/project/.claude/settings.json and $TMP/project/.mcp.json" in out
    assert "SessionStart: additionalContext, " in out and "starting '<generic-rules>'" in out
    assert "PostToolUse Read src/app.ts: additionalContext, 4 lines, starting '[rule: typescript]'" in out
    assert "PostToolUse Read src/app.ts again: no output (nothing new)" in out
    assert "PreToolUse Write float(amount): deny — " in out and "`no-float-money`" in out
    assert "Removed $TMP/project/.claude/settings.json (ruleweave had created it)." in out
