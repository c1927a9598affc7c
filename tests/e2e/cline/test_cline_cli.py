"""End to end: the real Cline CLI (``cline``), offline against a mock Chat Completions API.

``ruleweave install cline`` writes the project's ``.cline/hooks/PreToolUse`` and
``PostToolUse``; one ``cline --json`` task then reads a ``.ts`` file twice, a file
under a nested ``AGENTS.md``, and writes code a streamed rule refuses. The
assertions read what the model saw: the request bodies the mock received. Cline
puts every hook context of a turn into one user message after the tool results,
each in a ``<hook_context … tool_call_id="…">`` block (its ids with ``_`` doubled).
No compaction step: Cline 3.0.65 never runs a PreCompact hook (it maps that file to
no event), so nothing of ruleweave's can run at a compaction. Facts: docs/hosts/cline.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.mock_chat import MockChat, reply, text, tool
from tests.e2e.npm_agents import agent_cli

pytestmark = pytest.mark.e2e

RULEWEAVE = Path(sys.executable).parent / "ruleweave"
MODEL = "mock-model"
CLI_TIMEOUT = 80

FILES = {
    ".cursor/rules/ts.mdc": '---\nglobs: "**/*.ts"\n---\nTS-RULE: no `any` in TypeScript.\n',
    ".ruleweave/rules/no-eval.md": "---\ncondition: 'eval\\('\nscope: 'tool:edit'\n---\n"
    "NO-EVAL: never call eval() on input; parse it instead.\n",
    ".clinerules/style.md": "CLINE-RULE: Cline loads this itself.\n",
    "AGENTS.md": "ROOT-AGENTS: Cline loads this itself.\n",
    "pkg/AGENTS.md": "NESTED-AGENTS: Cline never loads this one (below its cwd).\n",
    "pkg/sub/b.py": "x = 1\n",
    "src/a.ts": "export const a = 1;\n",
}

_BLOCK = re.compile(
    r'<hook_context source="(\w+)" tool_name="[^"]*" tool_call_id="([^"]*)">\n(.*?)\n</hook_context>', re.S
)


def _project(root: Path) -> Path:
    for rel, body in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=30)
    return root


def _env(home: Path, state: Path) -> dict[str, str]:
    return {
        "PATH": os.pathsep.join([str(RULEWEAVE.parent), os.environ.get("PATH", "/usr/bin:/bin")]),
        "HOME": str(home),
        "RULEWEAVE_STATE_DIR": str(state),
        "CLINE_NO_AUTO_UPDATE": "1",
    }


def _contexts(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every ``(source, tool call id, text)`` hook-context block of a request, in order."""
    found = []
    for message in body.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, str):
            found += [(s, i.replace("__", "_"), t) for s, i, t in _BLOCK.findall(content)]
    return found


def _tool_results(body: dict[str, Any]) -> dict[str, str]:
    messages = body.get("messages", [])
    return {m["tool_call_id"]: str(m.get("content")) for m in messages if m.get("role") == "tool"}


def _task(cline: Path, root: Path, env: dict[str, str], calls: list[dict[str, Any]],
          prompt: str) -> tuple[MockChat, subprocess.CompletedProcess[str]]:
    """``cline auth`` against a mock that answers with ``calls`` (one per reply) and then text, and one
    ``cline --json`` task; the mock and the finished task (which must have succeeded)."""
    with MockChat([*(reply(call) for call in calls), reply(text("Done."))]) as mock:
        auth = subprocess.run(
            [str(cline), "auth", "-p", "openai-compatible", "-k", "test", "-m", MODEL, "-b", mock.url],
            cwd=root, env=env, capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False,
        )
        assert auth.returncode == 0, auth.stderr
        run = subprocess.run([str(cline), "--json", prompt], cwd=root, env=env,
                             capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return mock, run


def test_cline_gets_each_notice_once_next_to_its_call_and_the_refusal(tmp_path: Path) -> None:
    cline = agent_cli("cline")
    root, home, state = _project(tmp_path / "project"), tmp_path / "home", tmp_path / "state"
    settings = home / ".cline/data/settings"
    settings.mkdir(parents=True)
    (settings / "global-settings.json").write_text('{"telemetryOptOut": true, "autoUpdateEnabled": false}')
    env = _env(home, state)
    done = subprocess.run([str(RULEWEAVE), "install", "cline"], cwd=root, env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert (root / ".cline/hooks/PostToolUse").is_file()

    calls = [
        tool("read_files", files=[{"path": "src/a.ts"}]),
        tool("read_files", files=[{"path": "src/a.ts"}]),
        tool("read_files", files=[{"path": "pkg/sub/b.py"}]),
        tool("editor", path="src/c.ts", new_text="export const c = eval(input);\n"),
    ]
    mock, run = _task(cline, root, env, calls, "read the files and write c.ts")
    assert len(mock.loop_requests) == len(calls) + 1, run.stdout[-3000:]
    ids = [call["id"] for call in calls]
    last = mock.loop_requests[-1]
    blocks = _contexts(last)
    by_call = {call_id: body for source, call_id, body in blocks if source == "PostToolUse"}

    # The .ts rule: once, with the first read, in the block after that call's result.
    assert "TS-RULE" in by_call[ids[0]] and ids[1] not in by_call
    assert json.dumps(last).count("TS-RULE") == 1
    # The nested AGENTS.md Cline never loads comes with the file under it.
    assert "NESTED-AGENTS" in by_call[ids[2]]
    # The refusal: the editor never ran, its result is the rejected input, the rule is the context.
    refused = [body for source, call_id, body in blocks if source == "PreToolUse" and call_id == ids[3]]
    assert refused and "NO-EVAL" in refused[0] and not (root / "src/c.ts").exists()
    assert "Invalid input" in _tool_results(last)[ids[3]]
    # What Cline reads itself (its system prompt's # Rules) is there once, never from ruleweave.
    seen = json.dumps(last)
    assert seen.count("ROOT-AGENTS") == 1 and seen.count("CLINE-RULE") == 1
    assert "ROOT-AGENTS" in str(last["messages"][0]["content"])


def test_a_user_install_follows_cline_dir(tmp_path: Path) -> None:
    """With ``$CLINE_DIR`` set, Cline reads the user's hooks, rules and settings there (``@cline/shared``'s
    storage paths): ``ruleweave install cline --user`` writes its hooks in ``$CLINE_DIR/hooks``, and the
    notice arrives (before, they went to ``~/.cline/hooks``, which that Cline never runs). The user's
    rule in ``$CLINE_DIR/rules`` is Cline's own: it comes once, from Cline."""
    cline = agent_cli("cline")
    root, home, state = _project(tmp_path / "project"), tmp_path / "home", tmp_path / "state"
    cline_dir = tmp_path / "cline-dir"
    settings = cline_dir / "data/settings"
    settings.mkdir(parents=True)
    (settings / "global-settings.json").write_text('{"telemetryOptOut": true, "autoUpdateEnabled": false}')
    (cline_dir / "rules").mkdir()
    (cline_dir / "rules/mine.md").write_text("USER-CLINE-RULE: from $CLINE_DIR.\n", encoding="utf-8")
    home.mkdir()
    env = {**_env(home, state), "CLINE_DIR": str(cline_dir)}
    done = subprocess.run([str(RULEWEAVE), "install", "cline", "--user"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert (cline_dir / "hooks/PostToolUse").is_file() and not (home / ".cline").exists()
    call = tool("read_files", files=[{"path": "src/a.ts"}])
    mock, _ = _task(cline, root, env, [call], "read src/a.ts")
    last = mock.loop_requests[-1]
    by_call = {call_id: body for source, call_id, body in _contexts(last) if source == "PostToolUse"}
    assert "TS-RULE" in by_call[call["id"]]
    seen = json.dumps(last)
    assert seen.count("TS-RULE") == 1 and seen.count("USER-CLINE-RULE") == 1
