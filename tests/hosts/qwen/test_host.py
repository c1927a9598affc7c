"""Qwen Code's declaration: its hook input read as events, answers encoded as it reads them, its tools' paths.

Payload shapes are the CLI's own (``payloads``, captured from real runs of 0.24.4);
output fields follow ``packages/core/src/hooks/types.ts`` (``createHookOutput``).
"""

from __future__ import annotations

from pathlib import Path

from ruleweave._kernel.paths import call_paths, default_paths
from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    BLOCK,
    CONTEXT,
    DENY,
    NOTE,
    SESSION_COMPACT,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
    host,
)
from ruleweave.hosts.qwen import HOST, encode, read_event
from tests.hosts.qwen import payloads

ROOT = Path("/p")


def test_the_registry_names_qwen() -> None:
    """``ruleweave hook qwen`` finds this declaration."""
    assert host("qwen") is HOST and HOST.title == "Qwen Code"


def test_a_post_tool_use_reads_its_tool_arguments_result_and_the_models_call_id() -> None:
    """PostToolUse: the tool, its input, its response and the model's call id (not Qwen's toolu_ id)."""
    event = read_event(payloads.post_tool(ROOT, "read_file", {"file_path": "/p/a.ts"}, "call_1", "x"))
    assert (event.kind, event.tool, dict(event.args)) == (AFTER_TOOL, "read_file", {"file_path": "/p/a.ts"})
    assert event.call_id == "call_1" and event.result == {"llmContent": "x", "returnDisplay": ""}
    assert (event.session_id, event.cwd, event.turn_id) == (payloads.SESSION, "/p", payloads.PROMPT_ID)


def test_session_start_sources_read_as_their_kinds() -> None:
    """startup, resume and compact (Qwen's SessionStart after a compaction) map as Claude Code's do."""
    kinds = [read_event(payloads.session_start(ROOT, s)).kind for s in ("startup", "resume", "compact")]
    assert kinds == [SESSION_START, SESSION_RESUME, SESSION_COMPACT]


def test_an_empty_prompt_is_no_event() -> None:
    """Qwen fires UserPromptSubmit with ``prompt: ""`` before every follow-up request; only a real prompt
    is a user.prompt (else the steering would be appended again every tool round)."""
    assert read_event(payloads.user_prompt(ROOT, "Fix the bug.")).kind == USER_PROMPT
    assert read_event(payloads.user_prompt(ROOT, "Fix the bug.")).text == "Fix the bug."
    assert read_event(payloads.user_prompt(ROOT, "")).kind is None


def test_keys_of_the_wrong_type_read_as_absent() -> None:
    """A hostile or broken payload never raises."""
    event = read_event({"hook_event_name": "PostToolUse", "session_id": 3, "cwd": 5, "tool_name": [],
                        "tool_input": "x", "tool_call_id": 7, "tool_use_id": "toolu_9"})
    assert (event.kind, event.session_id, event.tool, dict(event.args)) == (AFTER_TOOL, "", "", {})
    assert event.cwd == "<not a string>" and event.call_id == "toolu_9"
    assert read_event({"hook_event_name": 1}).name is None


def test_context_encodes_only_where_it_reaches_the_model() -> None:
    """additionalContext for SessionStart, UserPromptSubmit, PostToolUse, SubagentStart; PreToolUse drops it
    (``firePreToolUseHook`` parses it, no request carries it), so nothing is encoded there."""
    post = read_event(payloads.post_tool(ROOT, "read_file", {}, "c"))
    assert encode(post, CONTEXT, "Rule.") == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Rule."}
    }
    pre = read_event(payloads.pre_tool(ROOT, "write_file", {}, "c"))
    assert pre.kind == BEFORE_TOOL and encode(pre, CONTEXT, "Rule.") is None


def test_a_deny_a_block_and_a_note() -> None:
    """PreToolUse denies with the reason the model gets as the tool result; Stop blocks; a note is a
    systemMessage; a deny at any other event cannot be said."""
    pre = read_event(payloads.pre_tool(ROOT, "write_file", {}, "c"))
    assert encode(pre, DENY, "No eval.") == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "No eval."}}
    halt = read_event(payloads.stop(ROOT, "done", active=True))
    assert halt.kind == STOP and halt.stop_active and halt.text == "done"
    assert encode(halt, BLOCK, "Fix it.") == {"decision": "block", "reason": "Fix it."}
    assert encode(halt, NOTE, "Store down.") == {"systemMessage": "Store down."}
    assert encode(read_event(payloads.post_tool(ROOT, "read_file", {}, "c")), DENY, "x") is None


def test_tool_paths() -> None:
    """read/write/edit/list read by the default keys; glob and grep_search their pattern under path; a shell
    command its path-like words, relative ones under ``directory``."""
    def touched(tool: str, args: dict[str, object]) -> list[str]:
        return call_paths(tool, args, "/p", default_paths, HOST.extractor_for(tool))

    assert touched("read_file", {"file_path": "/p/src/a.ts"}) == ["/p/src/a.ts"]
    assert touched("list_directory", {"path": "/p/src"}) == ["/p/src"]
    assert touched("glob", {"pattern": "**/*.ts", "path": "/p/src"}) == ["/p/src", "/p/src/**/*.ts"]
    assert touched("grep_search", {"pattern": "any", "glob": "*.ts", "path": "/p/lib"}) == [
        "/p/lib", "/p/lib/*.ts"]
    assert touched("run_shell_command", {"command": "cat a.ts -n", "directory": "/p/web"}) == [
        "/p/web", "/p/web/a.ts"]
    assert touched("run_shell_command", {"command": "cat src/a.ts"}) == ["/p/src/a.ts"]
    assert touched("tool_call", {"name": "list_directory", "arguments": {"path": "/p/docs"}}) == ["/p/docs"]
