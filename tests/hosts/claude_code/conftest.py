"""Fixtures for the Claude Code hook tests: a real project and the real ``ruleweave`` console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import WriteTree

RULEWEAVE = str(Path(sys.executable).parent / "ruleweave")
"""The console script the package installs (what Claude Code runs)."""

PROJECT_FILES = {
    ".cursor/rules/python.mdc": '---\nglobs: "**/*.py"\n---\nUse type hints everywhere.\n',
    ".cursor/rules/general.mdc": "---\nalwaysApply: true\n---\nBe concise.\n",
    ".github/instructions/ts.instructions.md": '---\napplyTo: "src/**/*.ts"\n---\nNo `any` in TypeScript.\n',
    ".claude/rules/claude-only.md": "---\npaths: ['**/*.py']\n---\nClaude Code loads this itself.\n",
    "AGENTS.md": "# Agents\nClaude Code loads this itself too.\n",
    ".ruleweave/rules/no-eval.md": (
        "---\ncondition: 'eval\\('\ninterrupt_mode: always\n---\nNever call eval.\n"
    ),
    "src/app.py": "print('hi')\n",
    "src/ui.ts": "export const x = 1;\n",
}

HookResult = tuple[int, str, str]
RunHook = Callable[..., HookResult]


@pytest.fixture
def project(write_tree: WriteTree) -> Path:
    """A project with Cursor, Copilot, Claude and ruleweave rules and an AGENTS.md."""
    return write_tree(PROJECT_FILES)


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    """The hook's state directory (SQLite store, snapshots, hook log)."""
    return tmp_path / "state"


@pytest.fixture
def hook_env(state_dir: Path) -> dict[str, str]:
    """The environment the hook process runs with (the isolated HOME, its own state dir)."""
    return {**os.environ, "RULEWEAVE_STATE_DIR": str(state_dir)}


@pytest.fixture
def run_hook(hook_env: dict[str, str]) -> RunHook:
    """Run ``ruleweave hook claude-code`` with a payload on stdin; return (exit code, stdout, stderr)."""

    def run(payload: Mapping[str, Any] | str | bytes, *args: str) -> HookResult:
        if isinstance(payload, Mapping):
            data = json.dumps(payload).encode()
        else:
            data = payload.encode() if isinstance(payload, str) else payload
        done = subprocess.run(
            [RULEWEAVE, "hook", "claude-code", *args], input=data, capture_output=True, env=hook_env,
            timeout=120, check=False,
        )
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    return run


def event(root: Path, name: str, session: str = "s1", **fields: Any) -> dict[str, Any]:
    """A hook payload as Claude Code sends it."""
    return {
        "session_id": session, "transcript_path": str(root / "t.jsonl"), "cwd": str(root),
        "hook_event_name": name, **fields,
    }


def read_event(root: Path, path: str, call: str, session: str = "s1") -> dict[str, Any]:
    """A PostToolUse payload for Claude Code's Read of ``path`` (relative to ``root``)."""
    return event(
        root, "PostToolUse", session, tool_name="Read", tool_input={"file_path": str(root / path)},
        tool_use_id=call, tool_response={"type": "text"},
    )


def context_of(stdout: str) -> str:
    """The additionalContext of a hook answer ('' when it printed nothing)."""
    if not stdout:
        return ""
    answer = json.loads(stdout)
    return str(answer["hookSpecificOutput"]["additionalContext"])
