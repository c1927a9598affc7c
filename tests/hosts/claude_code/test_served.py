"""``ruleweave mcp --host claude-code``: the server beside the hooks repeats nothing, and answers them.

Its ``hook`` tool gets the hook input as Claude Code's ``mcp_tool`` hooks send
it (every ``${key}`` interpolated to text, objects as JSON; seen with the CLI in
``test_e2e_mcp.py``) and must answer byte for byte what the command hook prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from ruleweave import RuleweaveConfig
from ruleweave.adapters.mcp import HOSTED_INSTRUCTIONS, create_server
from ruleweave.hosts.claude_code.served import HOOK_INPUT, READ_RULE, payload_from
from tests.hosts.claude_code.conftest import RunHook, context_of, event, read_event


def interpolated(payload: Mapping[str, Any]) -> dict[str, str]:
    """``HOOK_INPUT`` as Claude Code fills it from ``payload`` (strings as is, others as compact JSON)."""
    out: dict[str, str] = {}
    for key in HOOK_INPUT:
        value = payload.get(key)
        if value is None:
            out[key] = ""
        elif isinstance(value, str):
            out[key] = value
        else:
            out[key] = json.dumps(value, separators=(",", ":"))
    return out


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def hosted(project: Path) -> Any:
    return create_server(RuleweaveConfig(cwd=project), host="claude-code")


async def test_beside_the_hooks_the_server_repeats_nothing(project: Path) -> None:
    """Its instructions hold no rule nor instruction file; rules_for_paths is gone; hook takes HOOK_INPUT."""
    async with Client(hosted(project)) as client:
        instructions = client.instructions or ""
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert instructions == HOSTED_INSTRUCTIONS
    assert "Be concise." not in instructions and "Agents" not in instructions
    assert set(tools) == {"read_rule", "explain", "hook"}
    assert set(tools["hook"].input_schema["properties"]) == set(HOOK_INPUT)


def test_the_input_is_rebuilt_as_claude_code_sent_it(project: Path) -> None:
    """Empty strings read as absent, tool_input as its object, stop_hook_active as a boolean."""
    sent = read_event(project, "src/app.py", "t1")
    sent["stop_hook_active"] = False
    rebuilt = payload_from(interpolated(sent))
    del sent["tool_response"]  # not passed: the handlers never read it
    assert rebuilt == sent


async def test_the_hook_tool_answers_as_the_command_hook(
    project: Path, run_hook: RunHook, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same events give byte-identical answers through the tool and through `ruleweave hook`."""
    session = [
        event(project, "SessionStart", source="startup"),
        event(project, "UserPromptSubmit", prompt="Fix the app", prompt_id="p1"),
        read_event(project, "src/app.py", "t1"),
        read_event(project, "src/app.py", "t2"),  # once per session: nothing the second time
        read_event(project, "src/ui.ts", "t3"),
        event(project, "PreToolUse", tool_name="Write",
              tool_input={"file_path": str(project / "src/x.py"), "content": "eval(x)"}, tool_use_id="t4"),
        event(project, "Stop", last_assistant_message="Done.", stop_hook_active=False),
    ]
    by_command = [run_hook(payload)[1].rstrip("\n") for payload in session]
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "server-state"))  # a store of its own
    async with Client(hosted(project)) as client:
        by_server = [text_of(await client.call_tool("hook", interpolated(p))) for p in session]
    assert by_server == by_command
    assert "Use type hints everywhere." in context_of(by_server[2]) and by_server[3] == ""
    assert "permissionDecision" in by_server[5]  # the streamed rule refused the eval


async def test_the_server_sees_edited_rules(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A rule edited during the session is what the next answer carries (the snapshot says it changed)."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "state"))
    rule = project / ".cursor/rules/python.mdc"
    async with Client(hosted(project)) as client:
        sooner = interpolated(read_event(project, "src/app.py", "1", "a"))
        first = text_of(await client.call_tool("hook", sooner))
        rule.write_text('---\nglobs: "**/*.py"\n---\nPrefer dataclasses.\n', encoding="utf-8")
        later = interpolated(read_event(project, "src/app.py", "2", "b"))
        second = text_of(await client.call_tool("hook", later))
    assert "Use type hints everywhere." in first
    assert "Prefer dataclasses." in second and "type hints" not in second


def test_hook_notices_name_the_read_rule_tool(project: Path, run_hook: RunHook) -> None:
    """A notice cut for size says the whole rule is read with mcp__ruleweave__read_rule, not rule://."""
    big = "\n".join(f"Line {n}: keep every Python function small and typed." for n in range(400))
    rule = project / ".cursor/rules/python.mdc"
    rule.write_text(f'---\nglobs: "**/*.py"\n---\n{big}\n', encoding="utf-8")
    _, out, _ = run_hook(read_event(project, "src/app.py", "t1"))
    notice = context_of(out)
    assert f'whole text at {READ_RULE} name="python"]' in notice
    assert "rule://" not in notice


def test_the_start_context_says_how_to_read_a_listed_rule(project: Path, run_hook: RunHook) -> None:
    """<domain-rules> is followed by how to read a rule in this host: the MCP tool."""
    (project / ".cursor/rules/deploy.mdc").write_text("---\ndescription: How we deploy\n---\nUse make.\n")
    _, out, _ = run_hook(event(project, "SessionStart", source="startup"))
    start = context_of(out)
    assert "- deploy: How we deploy" in start
    assert f"read in full with the tool {READ_RULE}" in start and "rule://" not in start
