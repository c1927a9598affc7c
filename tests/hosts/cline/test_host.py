"""Cline's declaration: its hook input read as a ``HookEvent``, answers encoded as Cline 3.0.65 reads them.

Payload shapes were captured from the real CLI (``payloads``); the output keys are ``@cline/core``'s
``HookOutputSchema`` (``contextModification``, ``cancel``, ``errorMessage``, ``overrideInput``), and
where each lands was observed in the requests the CLI sent (docs/hosts/cline.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleweave.hosts import AFTER_TOOL, BEFORE_TOOL, BLOCK, CONTEXT, DENY, NOTE, SESSION_START, host
from ruleweave.hosts.cline import EVENTS, HOST, REFUSED_INPUT_KEY, encode, read_event
from ruleweave.hosts.cline.paths import read_files_paths, run_commands_paths
from ruleweave.session.tool_names import ToolNames
from tests.hosts.cline.payloads import base, post, pre, read

ROOT = Path("/p")


def test_the_host_is_registered_under_its_command_line_name() -> None:
    """``ruleweave hook cline`` finds this declaration; only the two awaited events are answered."""
    assert host("cline") is HOST
    assert (HOST.name, HOST.title) == ("cline", "Cline")
    assert EVENTS == {"TaskStart": SESSION_START, "PreToolUse": BEFORE_TOOL, "PostToolUse": AFTER_TOOL}
    assert HOST.native_provider == "cline" and HOST.native_files == {"AGENTS.md"}


def test_a_read_reads_as_post_tool_use_with_the_structured_input() -> None:
    """``tool_result.input`` (objects), not ``postToolUse.parameters`` (JSON strings), gives the args;
    the session is ``sessionContext.rootSessionId``; the cwd is the hook process's own."""
    got = read_event(read(ROOT, "src/a.ts", call_id="call_7"))
    assert (got.name, got.kind, got.tool, got.call_id) == ("PostToolUse", AFTER_TOOL, "read_files", "call_7")
    assert dict(got.args) == {"files": [{"path": "src/a.ts"}]}
    assert got.session_id == "1796146504384_81hco" and got.cwd == os.getcwd()
    assert got.result == [{"query": "src/a.ts", "result": "1 | x", "success": True}]
    assert got.agent_id is None  # the main agent: its agent_id changes with every run


def test_a_pre_tool_call_and_a_subagent() -> None:
    """``tool_call`` is PreToolUse; a call with a ``parent_agent_id`` is a subagent's."""
    got = read_event(pre(ROOT, "editor", {"path": "a.ts", "new_text": "x"}, "c1", agent="a2", parent="a1"))
    assert (got.name, got.kind, got.tool, got.call_id, got.agent_id) == (
        "PreToolUse", BEFORE_TOOL, "editor", "c1", "a2")
    assert dict(got.args) == {"path": "a.ts", "new_text": "x"}


def test_a_failed_call_reports_its_error_as_the_result() -> None:
    payload = post(ROOT, "editor", {"path": "a.ts"}, "c1", output={"error": "boom"})
    payload["tool_result"]["error"] = "boom"
    assert read_event(payload).result == "boom"


def test_a_bare_list_input_belongs_to_the_main_argument() -> None:
    """Cline accepts ``read_files`` input as a bare list or string (its lenient schema)."""
    assert dict(read_event(post(ROOT, "read_files", ["a.ts"], "c1")).args) == {"files": ["a.ts"]}
    assert dict(read_event(post(ROOT, "run_commands", "ls", "c1")).args) == {"commands": "ls"}
    assert dict(read_event(post(ROOT, "ask_question", "x", "c1")).args) == {}


def test_other_events_and_wrong_types_read_as_absent() -> None:
    """Never raises: unknown hook names have no kind, keys of the wrong type are absent."""
    for hook in ("prompt_submit", "pre_compact", "agent_end"):
        assert read_event(base(ROOT, hook)).kind is None
    assert read_event(base(ROOT, "agent_start")).kind == SESSION_START  # TaskStart: held, see test_hook
    got = read_event({"hookName": 3, "sessionContext": "x", "taskId": 5, "tool_call": [], "agent_id": 1})
    assert (got.name, got.kind, got.session_id, got.tool, dict(got.args), got.call_id) == (
        None, None, "", "", {}, None)
    fallback = read_event({"hookName": "tool_result", "taskId": "conv_1", "tool_result": {"name": 7}})
    assert (fallback.session_id, fallback.tool) == ("conv_1", "")


def test_context_is_a_context_modification_at_both_events() -> None:
    for payload in (read(ROOT, "a.ts"), pre(ROOT, "read_files", {"files": ["a.ts"]}, "c1")):
        assert encode(read_event(payload), CONTEXT, "RULE") == {"contextModification": "RULE"}
    assert encode(read_event(base(ROOT, "agent_start")), CONTEXT, "RULE") is None


def test_a_refusal_of_a_built_in_tool_replaces_its_input() -> None:
    """Cline's ``cancel`` ends the whole task; a built-in tool run with an input it rejects does
    nothing, and the reason reaches the model as context (observed with 3.0.65)."""
    call = read_event(pre(ROOT, "editor", {"path": "a.ts", "new_text": "eval(1)"}, "c1"))
    assert encode(call, DENY, "NO-EVAL") == {
        "overrideInput": {REFUSED_INPUT_KEY: "NO-EVAL"}, "contextModification": "NO-EVAL"}
    assert encode(call, DENY, " ")["contextModification"]  # type: ignore[index]
    mcp = read_event(pre(ROOT, "github__create_issue", {"title": "x"}, "c2"))
    assert encode(mcp, DENY, "NO") == {"cancel": True, "errorMessage": "NO"}
    assert encode(read_event(read(ROOT, "a.ts")), DENY, "NO") is None  # after the call: too late


def test_no_block_and_no_note() -> None:
    """Cline has no streamed-reply event and no user-facing message field for file hooks."""
    for payload in (read(ROOT, "a.ts"), pre(ROOT, "editor", {"path": "a"}, "c1")):
        assert encode(read_event(payload), BLOCK, "x") is None
        assert encode(read_event(payload), NOTE, "x") is None


@pytest.mark.parametrize(
    ("args", "paths"),
    [
        ({"files": [{"path": "a.ts"}, {"path": "b.ts", "start_line": 2}]}, ["a.ts", "b.ts"]),
        ({"files": ["a.ts", {"file_path": "b.ts"}, {"filePath": "c.ts"}]}, ["a.ts", "b.ts", "c.ts"]),
        ({"files": {"path": "a.ts"}}, ["a.ts"]),
        ({"files": "a.ts"}, ["a.ts"]),
        ({"file_paths": ["a.ts"], "paths": "b.ts"}, ["a.ts", "b.ts"]),
        ({"path": "a.ts"}, ["a.ts"]),
        ({"files": [3, None, {"path": 5}]}, []),
    ],
)
def test_read_files_paths_follow_every_input_shape(args: dict[str, object], paths: list[str]) -> None:
    assert list(read_files_paths("read_files", args)) == paths


def test_run_commands_paths_are_the_path_like_words() -> None:
    got = run_commands_paths("run_commands", {
        "commands": ["cat src/a.ts | head", {"command": "sed", "args": ["-n", "1p", "src/b.ts"]}, 7]})
    assert list(got) == ["src/a.ts", "src/b.ts"]
    assert list(run_commands_paths("run_commands", {"command": "cat b.py"})) == ["b.py"]
    assert HOST.extractor_for("READ_FILES") is read_files_paths and HOST.extractor_for("editor") is None


def test_cline_tools_have_their_kinds() -> None:
    """``tool:edit``/``tool:read``/``tool:bash`` scopes match Cline's tools."""
    names = ToolNames()
    assert [names.canonical(t) for t in ("read_files", "editor", "apply_patch", "run_commands",
                                         "search_codebase", "fetch_web_content")] == [
        "read", "edit", "edit", "bash", "search", "fetch"]


def test_the_declaration_imports_no_typing() -> None:
    """The hook's fast path imports these modules: standard library only, no ``typing``."""
    code = ("import sys; import ruleweave.hosts.cline, ruleweave.hosts.cline.paths; "
            "print(sorted(m for m in ('typing', 'pydantic', 'yaml', 'dataclasses', 'argparse') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
