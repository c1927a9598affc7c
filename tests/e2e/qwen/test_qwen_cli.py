"""End to end: the real Qwen Code CLI (``@qwen-code/qwen-code``), offline against a mock Chat Completions API.

``ruleweave install qwen`` writes the project's ``.qwen/settings.json``; one
non-interactive ``qwen`` run then reads a ``.ts`` file twice, a file under a
nested ``AGENTS.md``, is compacted (a reply reporting a full context window makes
Qwen compress before its next request), reads the ``.ts`` file again and
writes code a streamed rule refuses. The assertions read what the model saw:
the request bodies the mock received. Facts: docs/hosts/qwen.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.mock_chat import MockChat, Reply, pause, reply, text, tool
from tests.e2e.npm_agents import agent_cli

pytestmark = pytest.mark.e2e

RULEWEAVE = Path(sys.executable).parent / "ruleweave"
MODEL = "mock-model"
CLI_TIMEOUT = 80
FULL = 195_000
"""Prompt tokens that pass the auto-compaction threshold of the 200,000-token window Qwen assumes for an
unknown model (``ChatCompressionService.compress``)."""

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never call eval() on input; parse it instead.\n",
    "AGENTS.md": "ROOT-AGENTS: Qwen loads this itself.\n",
    "QWEN.md": "ROOT-QWEN: Qwen loads this itself.\n",
    "pkg/AGENTS.md": "NESTED-AGENTS: Qwen never loads this one (below its cwd).\n",
    ".qwen/rules/qwen-ts.md": "---\npaths: ['src/**/*.ts']\n---\nQWEN-PATHS-RULE: Qwen injects it.\n",
    ".qwen/QWEN.local.md": "QWEN-LOCAL: Qwen loads this itself.\n",
    "pkg/sub/b.py": "x = 1\n",
    "src/a.ts": "export const a = 1;\n",
}


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    for rel, body in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body, encoding="utf-8")
    return root


def _env(home: Path, state: Path, url: str = "") -> dict[str, str]:
    return {
        "PATH": os.pathsep.join([str(RULEWEAVE.parent), os.environ.get("PATH", "/usr/bin:/bin")]),
        "HOME": str(home),
        "RULEWEAVE_STATE_DIR": str(state),
        "OPENAI_BASE_URL": url,
        "OPENAI_API_KEY": "test",
        "OPENAI_MODEL": MODEL,
        "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
    }


def _script(root: Path) -> list[Reply]:
    ts, nested = str(root / "src/a.ts"), str(root / "pkg/sub/b.py")
    return [
        reply(tool("read_file", file_path=ts)),
        reply(tool("read_file", file_path=ts)),
        reply(tool("read_file", file_path=nested), prompt_tokens=FULL),  # Qwen compacts before the next
        # Qwen fires SessionStart(compact) without waiting for it: give its hook time to re-arm.
        reply(pause(3), tool("read_file", file_path=ts)),
        reply(tool("write_file", file_path=str(root / "src/c.ts"), content="const v = eval(raw);\n")),
        reply(text("Done.")),
    ]


def _results(body: dict[str, Any]) -> dict[str, str]:
    """Each tool message of a request: call id → its text."""
    found = {}
    for message in body.get("messages", []):
        if message.get("role") == "tool":
            content = message.get("content")
            parts = content if isinstance(content, list) else [{"text": content}]
            found[str(message.get("tool_call_id"))] = "".join(str(p.get("text", "")) for p in parts)
    return found


def test_qwen_session_gets_each_notice_once_and_the_refusal(tmp_path: Path) -> None:
    """Notices ride on tool results once (again after a compaction), nested AGENTS.md arrives, native
    files and Qwen's own rules are not repeated, and a streamed rule refuses the write with its text."""
    qwen = agent_cli("qwen")
    root = _project(tmp_path / "project")
    home, state = tmp_path / "home", tmp_path / "state"
    home.mkdir()
    done = subprocess.run([str(RULEWEAVE), "install", "qwen"], cwd=root, env=_env(home, state),
                          capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert done.returncode == 0, done.stderr
    hooks = json.loads((root / ".qwen/settings.json").read_text(encoding="utf-8"))["hooks"]
    assert {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} <= set(hooks)

    script = _script(root)
    ids = [[b["id"] for b in step.blocks if b["type"] == "tool_call"] for step in script]
    # The compaction side request must report its input as large as the history, or Qwen judges the
    # summary inflated and keeps the old history (``COMPRESSION_FAILED_INFLATED_TOKEN_COUNT``).
    side = reply(text("<state_snapshot>Read a.ts and b.py.</state_snapshot>"), prompt_tokens=FULL)
    with MockChat(script, side=side) as mock:
        run = subprocess.run([str(qwen), "--auth-type", "openai", "--yolo", "Review the code."], cwd=root,
                             env=_env(home, state, mock.url), capture_output=True, text=True,
                             timeout=CLI_TIMEOUT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    assert len(mock.loop_requests) == len(script), [r["path"] for r in mock.requests]
    assert any("state_snapshot" in json.dumps(body) for body in mock.side_requests), "no compaction"

    # Qwen's own rules and local file reach the model from Qwen alone, once (its hooks add neither).
    first_request, before_compaction = json.dumps(mock.loop_requests[0]), json.dumps(mock.loop_requests[2])
    assert first_request.count("QWEN-LOCAL") == 1 and before_compaction.count("QWEN-LOCAL") == 1
    assert "QWEN-PATHS-RULE" not in first_request and before_compaction.count("QWEN-PATHS-RULE") == 1
    before = _results(mock.loop_requests[2])  # the last request before the compaction
    first, second = before[ids[0][0]], before[ids[1][0]]
    assert first.count("TS-RULE") == 1 and "TS-RULE" not in second
    # The first request after it: the summary, and the trailing call Qwen keeps with its result.
    assert "NESTED-AGENTS" in _results(mock.loop_requests[3])[ids[2][0]]
    after = _results(mock.loop_requests[4])  # re-armed: the rule comes again, once
    assert after[ids[3][0]].count("TS-RULE") == 1
    last = mock.loop_requests[-1]
    refused = _results(last)[ids[4][0]]
    assert "NO-EVAL" in refused and not (root / "src/c.ts").exists()
    seen = json.dumps(last)
    assert seen.count("ROOT-AGENTS") == 1 and seen.count("ROOT-QWEN") == 1  # Qwen's own copy, once each
