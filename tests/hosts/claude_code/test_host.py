"""Claude Code's host declaration: its events read, its answers encoded, its tools, its hook process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    BLOCK,
    CONTEXT,
    DENY,
    HOSTS,
    SESSION_CLEAR,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
    host,
)
from ruleweave.hosts._command import run
from ruleweave.hosts.claude_code import HOST, encode, read_event
from ruleweave.hosts.claude_code.paths import CLAUDE_CODE_EXTRACTORS
from ruleweave.hosts.claude_code.settings import HOOK_EVENTS, TOOL_EVENTS
from ruleweave.session.touch import TouchExtractors
from tests.conftest import WriteTree
from tests.hosts.claude_code.conftest import RULEWEAVE, HookResult, RunHook, context_of, event
from tests.hosts.claude_code.conftest import read_event as post_read
from tests.hosts.claude_code.test_hook_cold import imported_modules
from tests.hosts.claude_code.test_hook_snapshot import PLAIN_FILES, backdate, warm


def test_the_registry_finds_claude_code() -> None:
    """``claude-code`` is this module's declaration, and its installer adds exactly its events."""
    assert host("claude-code") is HOST
    assert tuple(HOST.events) == HOOK_EVENTS
    assert {"PreToolUse", "PostToolUse"} == TOOL_EVENTS


@pytest.mark.parametrize(
    ("source", "kind"),
    [("startup", SESSION_START), ("resume", SESSION_RESUME), ("clear", SESSION_CLEAR),
     ("compact", SESSION_COMPACT), (None, SESSION_START), ("new-in-2027", SESSION_START), (7, SESSION_START)],
)
def test_session_start_sources_are_kinds(source: object, kind: str) -> None:
    """SessionStart's source says which session kind it is (anything unknown is a start)."""
    assert read_event({"hook_event_name": "SessionStart", "session_id": "s", "source": source}).kind == kind


def test_a_tool_event_reads_its_call() -> None:
    """A PostToolUse carries its tool, input, call id and result; a PreToolUse has no result."""
    after = read_event({
        "hook_event_name": "PostToolUse", "session_id": "s", "cwd": "/p", "tool_name": "Read",
        "tool_input": {"file_path": "/p/a.py"}, "tool_use_id": "toolu_1", "tool_response": {"type": "text"},
        "agent_id": "sub-1",
    })
    assert (after.kind, after.tool, dict(after.args)) == (AFTER_TOOL, "Read", {"file_path": "/p/a.py"})
    assert after.call_id == "toolu_1"
    assert (after.result, after.agent_id, after.text) == ({"type": "text"}, "sub-1", "")
    before = read_event({"hook_event_name": "PreToolUse", "session_id": "s", "tool_name": "Bash"})
    assert (before.kind, before.tool, dict(before.args), before.call_id, before.result) == (
        BEFORE_TOOL, "Bash", {}, None, None
    )


def test_prompt_and_stop_read_their_text() -> None:
    """UserPromptSubmit's text is the prompt (with its id); Stop's is the last reply."""
    prompt = read_event({"hook_event_name": "UserPromptSubmit", "session_id": "s", "prompt": "fix it",
                         "prompt_id": "p1", "last_assistant_message": "not this"})
    assert (prompt.kind, prompt.text, prompt.turn_id) == (USER_PROMPT, "fix it", "p1")
    stop = read_event({"hook_event_name": "Stop", "session_id": "s", "last_assistant_message": "done",
                       "stop_hook_active": True, "prompt": "not this"})
    assert (stop.kind, stop.text, stop.stop_active) == (STOP, "done", True)


def test_keys_of_the_wrong_type_read_as_absent() -> None:
    """Input Claude Code would never send reads as missing keys, never raises."""
    odd = read_event({"hook_event_name": 5, "session_id": ["s"], "tool_name": None, "tool_input": [1],
                      "tool_use_id": "", "prompt_id": 3, "stop_hook_active": "yes", "source": {}})
    assert (odd.name, odd.kind, odd.session_id, odd.tool, dict(odd.args)) == (None, None, "", "", {})
    assert (odd.call_id, odd.turn_id, odd.stop_active, odd.source) == (None, None, False, None)
    assert read_event({"cwd": 5}).cwd == "<not a string>"  # kept, so that the runner refuses it


def test_answers_are_encoded_where_claude_code_takes_them() -> None:
    """Context at any event, a denial at PreToolUse, a block at Stop; nothing elsewhere."""
    pre = read_event({"hook_event_name": "PreToolUse", "session_id": "s"})
    post = read_event({"hook_event_name": "PostToolUse", "session_id": "s"})
    stop = read_event({"hook_event_name": "Stop", "session_id": "s"})
    assert encode(post, CONTEXT, "x") == {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                                  "additionalContext": "x"}}
    assert encode(pre, DENY, "no") == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}
    assert encode(stop, BLOCK, "again") == {"decision": "block", "reason": "again"}
    assert encode(post, DENY, "no") is None and encode(pre, BLOCK, "x") is None
    assert encode(read_event({}), CONTEXT, "x") is None


@pytest.mark.parametrize(("tool", "path_args"), list(HOST.tools.items()))
def test_each_declared_path_argument_is_read(tool: str, path_args: tuple[str, ...]) -> None:
    """A path in each argument the declaration names is a path the full path's extractors find."""
    extractors = TouchExtractors(CLAUDE_CODE_EXTRACTORS)
    for arg in path_args:
        value = "cat /p/src/a.py" if arg == "command" else "/p/src/a.py"
        args: dict[str, Any] = {arg: value, "pattern": "TODO"} if tool == "Grep" else {arg: value}
        assert "/p/src/a.py" in extractors.path_strings(tool, args, "/p"), (tool, arg)


def test_options_before_the_agent_go_through_argparse_to_the_same_answer(
    project: Path, hook_env: dict[str, str]
) -> None:
    """``hook --no-snapshot claude-code`` (argparse hands its options over) answers as the hook's own
    reader of ``hook claude-code --no-snapshot`` does."""
    def answer(*argv: str, session: str) -> HookResult:
        payload = json.dumps(post_read(project, "src/app.py", "t1", session=session)).encode()
        done = subprocess.run(
            [RULEWEAVE, *argv], input=payload, capture_output=True, env=hook_env, check=False
        )
        return done.returncode, done.stdout.decode(), done.stderr.decode()

    light = answer("hook", "claude-code", "--no-snapshot", "--root", str(project), session="a")
    heavy = answer("hook", "--no-snapshot", "--root", str(project), "claude-code", session="b")
    assert light == heavy
    assert "Use type hints everywhere." in context_of(light[1])


def test_the_runner_answers_in_process_from_given_options(project: Path, state_dir: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``run`` takes parsed options (no argv), reads stdin within its cap and prints one JSON line."""
    from ruleweave.hosts._options import HookOptions

    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state_dir))
    out = io.StringIO()
    payload = json.dumps(post_read(project, "src/app.py", "t1")).encode()
    assert run("claude-code", options=HookOptions(snapshot=False), stdin=io.BytesIO(payload), stdout=out) == 0
    assert "Use type hints everywhere." in context_of(out.getvalue())
    assert out.getvalue().count("\n") == 1


def test_usage_errors_and_bad_cwds_are_logged_per_agent(
    project: Path, run_hook: RunHook, state_dir: Path
) -> None:
    """An unknown option and a cwd that is not a string exit 0 silently, logged in claude-code-hook.jsonl."""
    assert run_hook(post_read(project, "src/app.py", "t1"), "--cwd")[:2] == (0, "")
    assert run_hook({**event(project, "PostToolUse"), "cwd": 5})[:2] == (0, "")
    log = [json.loads(line) for line in (state_dir / "claude-code-hook.jsonl").read_text().splitlines()]
    assert [(entry["hook_event"], entry["error"].split(" ")[0]) for entry in log] == [
        ("", "usage:"), ("PostToolUse", "the")
    ]
    assert "needs a value" in log[0]["error"] and "cwd" in log[1]["error"]


OFF_THE_WARM_PATH = (
    "typing", "argparse", "dataclasses", "importlib", "textwrap", "ruleweave.errors",
    "ruleweave.cli.hook", "ruleweave.cli.common", "ruleweave.hosts.claude_code.handlers",
    "ruleweave.hosts.claude_code.native", "ruleweave.hosts.claude_code.settings",
    "ruleweave.hosts._core.snapshot_build",
)
"""What the host machinery must not add to a warm hook process: the parser, the error tree, the
declaration's cold-path helpers, and no other host's module."""


def test_the_warm_path_loads_one_host_and_no_parser(
    write_tree: WriteTree, run_hook: RunHook, hook_env: dict[str, str]
) -> None:
    """A warm PostToolUse imports the runner, the option declaration and Claude Code's declaration only:
    no argparse, typing or error tree, and no module of another host."""
    root = write_tree(PLAIN_FILES)
    backdate(root)
    warm(run_hook, root)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", RULEWEAVE, "hook", "claude-code"],
        input=json.dumps(post_read(root, "src/app.py", "t1", session="fresh")).encode(),
        capture_output=True, env=hook_env, check=True,
    )
    assert "Use type hints everywhere." in context_of(done.stdout.decode())
    imported = imported_modules(done.stderr)
    assert {"ruleweave.hosts._command", "ruleweave.hosts._options", "ruleweave.hosts.claude_code"} <= imported
    assert imported & set(OFF_THE_WARM_PATH) == set()
    others = {f"ruleweave.hosts.{name.replace('-', '_')}" for name in HOSTS if name != "claude-code"}
    assert not {m for m in imported if m.split(".")[:3] in [o.split(".") for o in others]}
