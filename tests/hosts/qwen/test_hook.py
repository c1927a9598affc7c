"""``ruleweave hook qwen`` end to end: a subprocess per event, real files, the real SQLite store.

The payloads are Qwen Code's own shapes (``payloads``); what each answer does in Qwen
is in docs/hosts/qwen.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import context_of
from tests.hosts.qwen import payloads
from tests.hosts.running import hook

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n",
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never eval.\n",
    "AGENTS.md": "ROOT-AGENTS: Qwen loads this itself.\n",
    "QWEN.md": "ROOT-QWEN: Qwen loads this itself.\n",
    "src/a.ts": "export const a = 1;\n",
}


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    """The project (a git root)."""
    found = write_tree(FILES)
    (found / ".git").mkdir(exist_ok=True)
    return found


def _hook(payload: dict[str, Any] | str, state: Path) -> tuple[int, str]:
    done = hook("qwen", payload, state)
    return done.returncode, done.stdout.decode()


def test_a_session_through_the_hook(root: Path, tmp_path: Path) -> None:
    """Start context without what Qwen loads itself; a notice once; nothing for Qwen's empty follow-up
    prompt; a streamed rule's deny; after a compaction the notice comes again."""
    state = tmp_path / "state"
    ts = {"file_path": str(root / "src/a.ts")}
    code, out = _hook(payloads.session_start(root), state)
    start = context_of(out)
    assert code == 0 and "ALWAYS-RULE" in start and "ROOT-AGENTS" not in start and "ROOT-QWEN" not in start
    first = context_of(_hook(payloads.post_tool(root, "read_file", ts, "call_1"), state)[1])
    assert first.count("TS-RULE") == 1
    assert _hook(payloads.post_tool(root, "read_file", ts, "call_2"), state) == (0, "")
    assert _hook(payloads.user_prompt(root, ""), state) == (0, "")
    args = {"file_path": str(root / "src/c.ts"), "content": "const v = eval(raw);\n"}
    denied = json.loads(_hook(payloads.pre_tool(root, "write_file", args, "call_3"), state)[1])
    decision = denied["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny" and "NO-EVAL" in decision["permissionDecisionReason"]
    compact = context_of(_hook(payloads.session_start(root, "compact"), state)[1])
    assert "ALWAYS-RULE" in compact
    again = context_of(_hook(payloads.post_tool(root, "read_file", ts, "call_4"), state)[1])
    assert again.count("TS-RULE") == 1


def test_an_event_without_a_session_never_fails_qwen(tmp_path: Path) -> None:
    """Qwen's own shape with nothing in it: exit 0 and nothing Qwen would act on (exit 2 would block;
    garbage of any shape: ``tests/hosts/test_hook_input.py``)."""
    code, out = _hook('{"hook_event_name": "PostToolUse"}', tmp_path / "state")
    assert code == 0 and not out.strip().startswith('{"decision"')


def test_what_qwen_reads_itself_is_left_to_it(write_tree: WriteTree, tmp_path: Path) -> None:
    """Qwen Code injects its own ``.qwen/rules`` (conditional ones when a file matches) and loads
    ``.qwen/QWEN.local.md`` (tests/discovery/test_qwen.py cites its source): its hook adds neither,
    while the Cursor rule on the same file still comes."""
    root = write_tree({
        **FILES,
        ".qwen/rules/qwen-ts.md": "---\npaths: ['src/**/*.ts']\n---\nQWEN-PATHS-RULE: Qwen injects it.\n",
        ".qwen/rules/qwen-always.md": "QWEN-ALWAYS: in Qwen's own prompt.\n",
        ".qwen/QWEN.local.md": "QWEN-LOCAL: Qwen loads this itself.\n",
    })
    (root / ".git").mkdir(exist_ok=True)
    state = tmp_path / "state"
    start = context_of(_hook(payloads.session_start(root), state)[1])
    assert "ALWAYS-RULE" in start
    assert "QWEN-ALWAYS" not in start and "QWEN-LOCAL" not in start
    read = payloads.post_tool(root, "read_file", {"file_path": str(root / "src/a.ts")}, "c1")
    notice = context_of(_hook(read, state)[1])
    assert "TS-RULE" in notice and "QWEN-PATHS-RULE" not in notice
    # Another agent's hooks (Claude Code's) deliver the Qwen rules, which Claude Code does not read.
    claude = hook("claude-code", {
        "session_id": "other", "cwd": str(root), "hook_event_name": "PostToolUse", "tool_name": "Read",
        "tool_input": {"file_path": str(root / "src/a.ts")}, "tool_use_id": "t1", "tool_response": {},
    }, state)
    assert "QWEN-PATHS-RULE" in claude.stdout.decode()
