"""Gemini CLI's declaration: its hook inputs read as ``HookEvent``s, its answers encoded as it reads them.

The shapes are those of Gemini CLI 0.61.0 (``payloads``, captured from real runs);
what each answer does there is in docs/hosts/gemini.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleweave._kernel.paths import call_paths, default_paths
from ruleweave.hosts import (
    AFTER_TOOL,
    BEFORE_TOOL,
    BLOCK,
    CHUNK,
    CONTEXT,
    DENY,
    NOTE,
    PRE_COMPACT,
    SESSION_CLEAR,
    SESSION_RESUME,
    SESSION_START,
    STOP,
    USER_PROMPT,
    host,
)
from ruleweave.hosts.gemini import HOST, encode, read_event
from tests.hosts.gemini import payloads

ROOT = Path("/p")


def test_the_registry_names_gemini() -> None:
    """``ruleweave hook gemini`` finds this declaration."""
    assert host("gemini") is HOST and HOST.title == "Gemini CLI"


@pytest.mark.parametrize(("payload", "kind"), [
    (payloads.session_start(ROOT), SESSION_START),
    (payloads.session_start(ROOT, "resume"), SESSION_RESUME),
    (payloads.session_start(ROOT, "clear"), SESSION_CLEAR),
    (payloads.before_agent(ROOT, "hi"), USER_PROMPT),
    (payloads.before_tool(ROOT, "read_file", {"file_path": "a.ts"}), BEFORE_TOOL),
    (payloads.after_tool(ROOT, "read_file", {"file_path": "a.ts"}), AFTER_TOOL),
    (payloads.after_model(ROOT, "x", payloads.request("hi")), CHUNK),
    (payloads.after_agent(ROOT, "hi", "done"), STOP),
    (payloads.pre_compress(ROOT, "manual"), PRE_COMPACT),
])
def test_each_event_reads_as_its_kind(payload: dict[str, object], kind: str) -> None:
    """Every event ruleweave answers has its kind, the session and the cwd."""
    event = read_event(payload)
    assert (event.kind, event.session_id, event.cwd) == (kind, payloads.SESSION, "/p")


def test_automatic_precompress_is_no_event() -> None:
    """PreCompress ``auto`` fires before every model request whether or not Gemini compresses (its
    ``ChatCompressionService.compress`` fires it before the threshold check): it re-arms nothing."""
    assert read_event(payloads.pre_compress(ROOT, "auto")).kind is None
    assert read_event({**payloads.pre_compress(ROOT, "manual"), "trigger": None}).kind is None


def test_tool_events_carry_the_call_as_sent() -> None:
    """Tool name, raw arguments and the tool's response; Gemini sends no call id."""
    event = read_event(payloads.after_tool(ROOT, "replace", {"file_path": "src/a.ts"}, "ok"))
    assert (event.tool, dict(event.args), event.call_id) == ("replace", {"file_path": "src/a.ts"}, None)
    assert event.result == {"llmContent": "ok", "returnDisplay": ""}


def test_prompt_and_reply_texts() -> None:
    """BeforeAgent's ``prompt`` and AfterAgent's ``prompt_response`` are the event's text; a continuation
    (``stop_hook_active``) is marked."""
    assert read_event(payloads.before_agent(ROOT, "Fix it")).text == "Fix it"
    event = read_event(payloads.after_agent(ROOT, "Fix it", "Done.", active=True))
    assert (event.text, event.stop_active) == ("Done.", True)


def test_a_chunk_is_its_delta_with_the_replys_key_and_finish() -> None:
    """AfterModel's text is the chunk alone; every chunk of one reply has one key (the request is the
    same), the next reply another; the last chunk carries the finish reason."""
    first_request = payloads.request("Read a.ts")
    one = read_event(payloads.after_model(ROOT, "This is a quick ", first_request))
    two = read_event(payloads.after_model(ROOT, "hack.", first_request, last=True))
    next_request = payloads.request("Read a.ts", "This is a quick hack.", "Go on")
    later = read_event(payloads.after_model(ROOT, "More.", next_request))
    assert (one.text, one.result, two.text, two.result) == ("This is a quick ", None, "hack.", "STOP")
    assert one.turn_id == two.turn_id != later.turn_id
    call_only = read_event(payloads.after_model(ROOT, "", first_request))
    assert call_only.kind == CHUNK and call_only.text == ""


def test_wrong_types_read_as_absent() -> None:
    """A key of the wrong type is absent, never an error."""
    event = read_event({"hook_event_name": "AfterModel", "session_id": 3, "cwd": 4, "llm_request": [],
                        "llm_response": {"text": 5, "candidates": [{"content": {"parts": ["a", 1, "b"]}}]}})
    read = (event.kind, event.session_id, event.cwd, event.text, event.turn_id)
    assert read == (CHUNK, "", "<not a string>", "ab", None)
    assert read_event({"hook_event_name": "AfterTool", "tool_input": "x"}).args == {}
    assert read_event({"hook_event_name": ["x"]}).name is None


def test_encode_where_gemini_takes_each_answer() -> None:
    """Context at SessionStart, BeforeAgent and AfterTool (``hookSpecificOutput.additionalContext``);
    ``decision: deny`` for a refusal (BeforeTool) and a block (AfterAgent, AfterModel); ``systemMessage``
    for a note; nothing where Gemini would drop it."""
    after = read_event(payloads.after_tool(ROOT, "read_file", {}))
    assert encode(after, CONTEXT, "R") == {"hookSpecificOutput": {"hookEventName": "AfterTool",
                                                                  "additionalContext": "R"}}
    for payload in (payloads.session_start(ROOT), payloads.before_agent(ROOT, "x")):
        assert encode(read_event(payload), CONTEXT, "R") is not None
    before = read_event(payloads.before_tool(ROOT, "write_file", {}))
    assert encode(before, DENY, "no") == {"decision": "deny", "reason": "no"}
    assert encode(before, CONTEXT, "R") is None  # BeforeTool's output has no additionalContext
    ends = (payloads.after_agent(ROOT, "x", "y"), payloads.after_model(ROOT, "y", payloads.request()))
    for payload in ends:
        event = read_event(payload)
        assert encode(event, BLOCK, "rule") == {"decision": "deny", "reason": "rule"}
        assert encode(event, CONTEXT, "R") is None
    assert encode(read_event(payloads.pre_compress(ROOT, "manual")), CONTEXT, "R") is None  # ignored there
    assert encode(after, DENY, "no") is None and encode(after, BLOCK, "no") is None
    assert encode(after, NOTE, "store down") == {"systemMessage": "store down"}


@pytest.mark.parametrize(("tool", "args", "expected"), [
    ("read_file", {"file_path": "src/a.ts"}, ["/p/src/a.ts"]),
    ("write_file", {"file_path": "/p/b.ts", "content": "x"}, ["/p/b.ts"]),
    ("replace", {"file_path": "c.ts", "old_string": "a", "new_string": "b", "instruction": "i"}, ["/p/c.ts"]),
    ("list_directory", {"dir_path": "src"}, ["/p/src"]),
    ("glob", {"pattern": "**/*.ts", "dir_path": "src"}, ["/p/src", "/p/src/**/*.ts"]),
    ("grep_search", {"pattern": "eval\\(", "dir_path": "lib", "include_pattern": "*.py"},
     ["/p/lib", "/p/lib/*.py"]),
    ("run_shell_command", {"command": "cat a.ts", "dir_path": "web"}, ["/p/web", "/p/web/a.ts"]),
    ("read_many_files", {"include": ["docs/*.md", "!x.md", "../up.md", "README.md"]}, ["/p/docs/*.md",
                                                                                       "/p/README.md"]),
])
def test_the_paths_each_tool_touches(tool: str, args: dict[str, object], expected: list[str]) -> None:
    """Each file tool's arguments name the paths it touched, relative ones under the cwd (Gemini's tool
    declarations: ``file_path``, ``dir_path``, ``pattern``, ``include_pattern``, ``command``, ``include``)."""
    assert tool in HOST.tools
    extractor = HOST.extractor_for(tool) or default_paths
    assert call_paths(tool, args, "/p", extractor) == expected
