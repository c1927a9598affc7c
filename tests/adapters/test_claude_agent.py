"""RuleweaveClaudeAgent: options built for the real Claude Agent SDK; its callbacks, called as the CLI does.

The whole loop through the bundled CLI is in ``tests/claude_code/test_e2e_cli.py``.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, HookMatcher

from ruleweave import ConfigError, RuleSet, RuleweaveConfig
from ruleweave.adapters.claude_agent import RuleweaveClaudeAgent
from ruleweave.adapters.claude_agent_stream import stream_delta
from tests.adapters.fixtures import SPEC
from tests.conftest import WriteTree

RULES = {
    ".cursor/rules/py.mdc": (
        "---\ndescription: Python style\nglobs: src/**/*.py\n---\nPY-NOTICE: annotate functions.\n"
    ),
    ".cursor/rules/small.mdc": "---\nalwaysApply: true\n---\nSMALL: keep every change small.\n",
    ".ruleweave/skill.spec.yml": SPEC.replace("forbid: [delete_file]", "forbid: [delete_file, rm_rf]"),
    "CLAUDE.md": "CLAUDE-MD: run the tests.\n",
    "src/app.py": "x = 1\n",
}
EVENTS = {
    "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "Stop", "PreCompact",
}
"""Every event the command hook answers (the CLI sends the SDK SessionStart only for compact and clear),
and PreCompact."""


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    """A project with a scoped and an always-apply Cursor rule, a SkillSpec and a CLAUDE.md."""
    return write_tree(RULES)


def call(options: ClaudeAgentOptions, event: str, payload: dict[str, Any]) -> Any:
    """Run ruleweave's callback for ``event`` (the last matcher) as the SDK does, on ``payload``."""
    assert options.hooks is not None
    callback = options.hooks[event][-1].hooks[0]  # type: ignore[index]
    data = {"hook_event_name": event, "session_id": options.session_id, "cwd": str(options.cwd), **payload}
    return asyncio.run(callback(data, payload.get("tool_use_id"), {"signal": None}))  # type: ignore[arg-type]


def read(root: Path, rel: str, call_id: str) -> dict[str, Any]:
    """A Read tool event's payload, as Claude Code sends it."""
    args = {"file_path": str(root / rel)}
    return {"tool_name": "Read", "tool_input": args, "tool_use_id": call_id, "tool_response": {}}


def context(answer: Any) -> str:
    """The ``additionalContext`` of a hook answer ('' when none)."""
    return str(answer.get("hookSpecificOutput", {}).get("additionalContext", "")) if answer else ""


def test_options_add_hooks_prompt_and_stream_events_without_touching_the_callers(root: Path) -> None:
    """The copy has the caller's hooks, then ruleweave's; the preset with the rules appended; a UUID id."""

    async def own(payload: Any, tool_use_id: str | None, ctx: Any) -> Any:
        return {}

    mine = HookMatcher(matcher="Read", hooks=[own])
    base = ClaudeAgentOptions(cwd=root, hooks={"PostToolUse": [mine]}, allowed_tools=["Read"])
    options = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root)).options(base)
    assert options.hooks is not None and set(options.hooks) == EVENTS
    assert options.hooks["PostToolUse"][0] is mine and len(options.hooks["PostToolUse"]) == 2
    assert options.include_partial_messages is True
    assert str(uuid.UUID(str(options.session_id))) == options.session_id
    prompt = options.system_prompt
    assert isinstance(prompt, dict) and prompt["type"] == "preset" and prompt["preset"] == "claude_code"
    assert "SMALL: keep every change small." in prompt["append"]
    assert "<domain-rules>" in prompt["append"]
    assert base.hooks == {"PostToolUse": [mine]} and base.system_prompt is None and base.session_id is None
    assert options.allowed_tools == ["Read"] and options.cwd == root


def test_system_prompt_keeps_the_callers_own_text_first(root: Path) -> None:
    """A string or custom prompt, or a preset's own append, comes before the rules; a file prompt is kept."""
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root))
    sid = str(uuid.uuid4())
    text = rw.system_prompt(sid, "Be brief.")
    assert text.startswith("Be brief.\n\n") and "SMALL:" in text
    own = {"type": "preset", "preset": "claude_code", "append": "Mine.", "snapshot": False}
    preset = rw.system_prompt(sid, own)
    assert preset["append"].startswith("Mine.\n\n") and "SMALL:" in preset["append"]
    assert preset["snapshot"] is False
    custom = rw.system_prompt(sid, {"type": "custom", "prompt": "Own."})
    assert custom["prompt"].startswith("Own.\n\n") and "SMALL:" in custom["prompt"]
    file_prompt = {"type": "file", "path": "/somewhere/prompt.md"}
    assert rw.system_prompt(sid, file_prompt) == file_prompt
    # The same files give byte-identical text.
    assert rw.system_prompt(sid, "Be brief.") == text


@pytest.mark.parametrize(
    ("sources", "leave_out", "included"),
    [
        (None, None, False), (["project"], None, False), (["user"], None, True), ([], None, True),
        ([], True, False),
    ],
)
def test_claude_md_is_left_out_only_when_the_cli_loads_it(
    root: Path, sources: list[Any] | None, leave_out: bool | None, included: bool
) -> None:
    """CLAUDE.md joins the prompt unless the CLI loads project settings (which load it), or as configured."""
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root), leave_out_native=leave_out)
    options = rw.options(ClaudeAgentOptions(cwd=root, setting_sources=sources))
    prompt: Any = options.system_prompt
    assert isinstance(prompt, dict)
    assert ("CLAUDE-MD: run the tests." in prompt["append"]) is included


def test_session_id_is_the_callers_the_resumed_one_or_new(root: Path) -> None:
    """A given UUID is used, a resumed session keeps its id, a fork gets a new one; a non-UUID is an error."""
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root))
    given = str(uuid.uuid4())
    assert rw.options(session_id=given).session_id == given
    resumed = rw.options(ClaudeAgentOptions(resume=given))
    assert resumed.session_id is None and resumed.resume == given
    forked = rw.options(ClaudeAgentOptions(resume=given, fork_session=True))
    assert forked.session_id not in (None, given)
    with pytest.raises(ConfigError, match="must be a UUID"):
        rw.options(session_id="conversation-1")
    with pytest.raises(ConfigError, match="config or a ruleset"):
        RuleweaveClaudeAgent(RuleweaveConfig(cwd=root), ruleset=RuleSet.load(RuleweaveConfig(cwd=root)))


def test_post_tool_use_callback_answers_as_the_command_hook_does(root: Path, isolated_home: Path) -> None:
    """The in-process callback gives the notice once, with the same JSON as ``ruleweave hook claude-code``."""
    options = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root)).options(ClaudeAgentOptions(cwd=root))
    first = call(options, "PostToolUse", read(root, "src/app.py", "toolu_1"))
    assert "PY-NOTICE: annotate functions." in context(first)
    assert call(options, "PostToolUse", read(root, "src/app.py", "toolu_2")) == {}

    payload = {"hook_event_name": "PostToolUse", "session_id": "cli-1", "cwd": str(root),
               **read(root, "src/app.py", "toolu_1")}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "ruleweave"), "hook", "claude-code"], input=json.dumps(payload),
        cwd=root, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == first


def test_steering_refuses_a_forbidden_call_before_it_runs(root: Path) -> None:
    """UserPromptSubmit adds the steering block; PreToolUse then denies a forbidden call with the rule."""
    options = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root)).options(ClaudeAgentOptions(cwd=root))
    prompt = {"prompt": "Please clean up the old files", "prompt_id": "p1"}
    steering = call(options, "UserPromptSubmit", prompt)
    assert "<steering>" in context(steering) and "never_delete_files" in context(steering)
    denied = call(options, "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "rm -rf build"},
                                          "tool_use_id": "toolu_9"})
    output = denied["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny"
    assert "never_delete_files" in output["permissionDecisionReason"]
    assert call(options, "PreToolUse", read(root, "src/app.py", "toolu_10")) == {}


def test_pre_compact_lets_notices_come_again(root: Path) -> None:
    """After PreCompact, a notice the summary may have dropped is injected again on the next touch."""
    options = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root)).options(ClaudeAgentOptions(cwd=root))
    assert "PY-NOTICE" in context(call(options, "PostToolUse", read(root, "src/app.py", "toolu_1")))
    assert call(options, "PreCompact", {"trigger": "auto", "custom_instructions": None}) == {}
    assert "PY-NOTICE" in context(call(options, "PostToolUse", read(root, "src/app.py", "toolu_2")))


def test_stream_delta_reads_prose_only() -> None:
    """Text and thinking deltas are watched; tool input, block starts and empty deltas are not."""

    def delta(body: dict[str, Any]) -> dict[str, Any]:
        return {"type": "content_block_delta", "index": 0, "delta": body}

    assert stream_delta(delta({"type": "text_delta", "text": "hi"})) == ("text", "hi")
    assert stream_delta(delta({"type": "thinking_delta", "thinking": "hm"})) == ("thinking", "hm")
    assert stream_delta(delta({"type": "input_json_delta", "partial_json": "{\"a\""})) is None
    assert stream_delta(delta({"type": "text_delta", "text": ""})) is None
    start = {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}}
    assert stream_delta(start) is None


def test_receive_needs_a_client_made_with_options(root: Path) -> None:
    """A client whose options carry no session id is a clear error, before anything is read."""
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=root))

    async def first() -> Any:
        return await rw.receive(ClaudeSDKClient(ClaudeAgentOptions(cwd=root))).__anext__()

    with pytest.raises(ConfigError, match=r"rw\.options"):
        asyncio.run(first())
