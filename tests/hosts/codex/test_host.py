"""Codex's declaration: its hook input read as a ``HookEvent``, answers encoded as Codex's schemas allow.

The shapes are Codex 0.171.0's: payloads captured from real runs, output fields from the JSON
schemas embedded in its binary (``<event>.command.output``, ``additionalProperties: false``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ruleweave.hosts import (
    AFTER_TOOL,
    AGENT_START,
    BEFORE_TOOL,
    BLOCK,
    CONTEXT,
    DENY,
    NOTE,
    SESSION_CLEAR,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
    host,
)
from ruleweave.hosts.codex import CONTEXT_EVENTS, EVENTS, HOST, encode, read_event
from tests.hosts.codex.payloads import bash, event, patch

ROOT = Path("/p")


def test_the_host_is_registered_under_its_command_line_name() -> None:
    """``ruleweave hook codex`` finds this declaration."""
    assert host("codex") is HOST
    assert (HOST.name, HOST.title) == ("codex", "Codex")
    assert list(EVENTS) == [
        "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart", "Stop",
    ]


@pytest.mark.parametrize(
    ("source", "kind"),
    [("startup", SESSION_START), ("resume", SESSION_RESUME), ("fork", SESSION_RESUME),
     ("clear", SESSION_CLEAR), ("compact", SESSION_COMPACT), ("later", SESSION_START)],
)
def test_session_start_sources_map_to_kinds(source: str, kind: str) -> None:
    """SessionStart's ``source`` (startup|resume|clear|compact|fork) picks the kind; compact re-arms."""
    got = read_event(event(ROOT, "SessionStart", source=source))
    assert (got.name, got.kind, got.source) == ("SessionStart", kind, source)
    assert (got.session_id, got.cwd) == ("s1", "/p")


def test_a_shell_call_reads_as_bash_with_its_command() -> None:
    """``exec_command`` arrives as ``Bash`` + ``tool_input.command``; the call id is ``tool_use_id``."""
    got = read_event(bash(ROOT, "cat src/a.ts", "call_7"))
    assert (got.kind, got.tool, got.call_id) == (AFTER_TOOL, "Bash", "call_7")
    assert dict(got.args) == {"command": "cat src/a.ts"}
    assert got.result == "output\n" and got.turn_id == "turn-1"
    before = read_event(patch(ROOT, "*** Begin Patch\n*** End Patch\n", "call_8", after=False))
    assert (before.kind, before.tool, before.args["command"]) == (BEFORE_TOOL, "apply_patch",
                                                                  "*** Begin Patch\n*** End Patch\n")


def test_prompt_stop_and_subagent_fields() -> None:
    """UserPromptSubmit's ``prompt``, Stop's ``last_assistant_message`` (null allowed) and
    ``stop_hook_active``, a subagent's ``agent_id``/``agent_type``."""
    assert read_event(event(ROOT, "UserPromptSubmit", prompt="fix it")).text == "fix it"
    stop = read_event(event(ROOT, "Stop", last_assistant_message="done", stop_hook_active=True))
    assert (stop.kind, stop.text, stop.stop_active) == (STOP, "done", True)
    assert read_event(event(ROOT, "Stop", last_assistant_message=None, stop_hook_active=False)).text == ""
    sub = read_event(event(ROOT, "SubagentStart", agent_id="a1", agent_type="explorer"))
    assert (sub.kind, sub.agent_id, sub.agent_type) == (AGENT_START, "a1", "explorer")
    assert read_event(event(ROOT, "UserPromptSubmit", prompt="x")).kind == USER_PROMPT


def test_keys_of_the_wrong_type_read_as_absent() -> None:
    """Never raises: a non-string name, non-object tool_input, numeric ids read as absent."""
    got = read_event({"hook_event_name": 3, "session_id": 5, "cwd": 7, "tool_input": ["x"], "tool_use_id": 1,
                      "turn_id": "", "stop_hook_active": "yes"})
    assert (got.name, got.kind, got.session_id, dict(got.args), got.call_id, got.turn_id) == (
        None, None, "", {}, None, None)
    assert got.cwd == "<not a string>" and got.stop_active is False
    assert read_event({"hook_event_name": "PreCompact"}).kind is None  # not answered: it cannot add context


@pytest.mark.parametrize("name", sorted(CONTEXT_EVENTS))
def test_context_goes_out_as_hook_specific_additional_context(name: str) -> None:
    """The five events whose schema has ``additionalContext`` get it, with their own ``hookEventName``."""
    assert encode(read_event(event(ROOT, name)), CONTEXT, "RULE") == {
        "hookSpecificOutput": {"hookEventName": name, "additionalContext": "RULE"}}


def test_stop_and_compaction_events_take_no_context() -> None:
    """Stop, PreCompact and PostCompact have no ``hookSpecificOutput`` in their schemas: no context."""
    for name in ("Stop", "PreCompact", "PostCompact", "SubagentStop"):
        assert encode(read_event(event(ROOT, name)), CONTEXT, "RULE") is None


def test_a_refusal_is_a_deny_with_its_reason() -> None:
    """PreToolUse DENY → ``permissionDecision: deny`` + a non-empty reason (Codex fails one without it)."""
    pre = read_event(bash(ROOT, "rm -rf build", "c1", after=False))
    assert encode(pre, DENY, "no rm") == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no rm"}}
    assert encode(pre, DENY, " ")["hookSpecificOutput"]["permissionDecisionReason"]  # type: ignore[index]
    assert encode(read_event(bash(ROOT, "ls", "c2")), DENY, "no") is None  # after the call: too late


def test_block_only_at_stop_and_notes_everywhere() -> None:
    """BLOCK is Stop's ``decision: block`` + reason; NOTE is the universal ``systemMessage``."""
    stop = read_event(event(ROOT, "Stop", last_assistant_message="x", stop_hook_active=False))
    assert encode(stop, BLOCK, "NO-HACKS") == {"decision": "block", "reason": "NO-HACKS"}
    assert encode(stop, BLOCK, "") is None  # Codex refuses a block without a reason
    assert encode(read_event(event(ROOT, "UserPromptSubmit", prompt="p")), BLOCK, "x") is None
    for name in EVENTS:
        assert encode(read_event(event(ROOT, name)), NOTE, "store down") == {"systemMessage": "store down"}


def test_the_declaration_imports_no_typing() -> None:
    """The hook's fast path imports this module: standard library only, no ``typing``."""
    code = ("import sys; import ruleweave.hosts.codex, ruleweave.hosts.codex.paths; "
            "print(sorted(m for m in ('typing', 'pydantic', 'yaml', 'dataclasses', 'argparse') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
