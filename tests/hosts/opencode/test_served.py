"""``ruleweave mcp --host opencode``: the server OpenCode's plugin asks instead of the hook command.

Its ``hook`` tool takes the plugin's event as one object (the argument ``event``, the JSON the
command reads on stdin: ``payloads``) and must answer byte for byte what ``ruleweave hook
opencode`` prints, over the same store.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from ruleweave import RuleweaveConfig
from ruleweave.adapters.mcp import HOSTED_INSTRUCTIONS, create_server
from ruleweave.hosts._core.served import EVENT_ARGUMENT, HOOK_TOOL
from tests.conftest import WriteTree
from tests.hosts.opencode import payloads
from tests.hosts.opencode.test_hook import FILES
from tests.hosts.running import hook


@pytest.fixture
def root(write_tree: WriteTree) -> Path:
    """The project (a git root) of ``test_hook``: rules of several agents, files OpenCode reads itself."""
    found = write_tree(FILES)
    (found / ".git").mkdir(exist_ok=True)
    return found


def text_of(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def session(root: Path) -> list[dict[str, Any]]:
    """A session as the plugin sends it: start, a prompt, a read twice, a read under a nested AGENTS.md,
    a write a streamed rule refuses, a compaction, the read again, a bash call in a workdir."""
    ts = {"filePath": str(root / "src/a.ts")}
    return [
        payloads.session_start(root),
        payloads.chat_message(root, "Fix the app"),
        payloads.after(root, "read", ts, "call_1", output="export const a = 1;"),
        payloads.after(root, "read", ts, "call_2"),
        payloads.after(root, "read", {"filePath": str(root / "pkg/b.ts")}, "call_3"),
        payloads.before(root, "write", {"filePath": str(root / "src/c.ts"), "content": "eval(x)"}, "call_4"),
        payloads.compacting(root),
        payloads.after(root, "read", ts, "call_5"),
        payloads.after(root, "bash", {"command": "cat a.ts", "workdir": str(root / "src")}, "call_6"),
    ]


async def test_beside_the_plugin_the_server_repeats_nothing(root: Path) -> None:
    """Its instructions hold no rule; rules_for_paths is gone; hook takes the event as one object."""
    async with Client(create_server(RuleweaveConfig(cwd=root), host="opencode")) as client:
        instructions = client.instructions or ""
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert instructions == HOSTED_INSTRUCTIONS and "ALWAYS-RULE" not in instructions
    assert set(tools) == {"read_rule", "explain", HOOK_TOOL}
    schema = tools[HOOK_TOOL].input_schema
    assert list(schema["properties"]) == [EVENT_ARGUMENT] and schema["required"] == [EVENT_ARGUMENT]
    assert schema["properties"][EVENT_ARGUMENT]["type"] == "object"


async def test_the_hook_tool_answers_as_the_command(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same events give byte-identical answers through the tool and through `ruleweave hook opencode`
    (each over a state directory of its own, so each starts the session afresh)."""
    events = session(root)
    state = tmp_path / "command-state"
    by_command = [hook("opencode", e, state).stdout.decode().rstrip("\n") for e in events]
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "server-state"))
    async with Client(create_server(RuleweaveConfig(cwd=root), host="opencode")) as client:
        by_server = [text_of(await client.call_tool(HOOK_TOOL, {EVENT_ARGUMENT: e})) for e in events]
    assert by_server == by_command
    answers: list[Any] = [json.loads(text) if text else None for text in by_server]
    assert "ALWAYS-RULE" in answers[0]["context"] and "ROOT-AGENTS" not in answers[0]["context"]
    assert answers[2]["context"].count("TS-RULE") == 1 and answers[3] is None  # once per session
    assert answers[4] is None  # OpenCode appends the nested AGENTS.md to the read itself
    assert "NO-EVAL" in answers[5]["deny"]
    assert answers[6]["context"].startswith("[ruleweave: the conversation was compacted.")
    assert answers[7]["context"].count("TS-RULE") == 1  # re-armed by the compaction
    assert (tmp_path / "server-state" / "state.db").is_file()  # the command's store, sqlite://


async def test_the_server_and_the_command_share_one_session(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the server gave, the command (the plugin's fallback) does not give again, and the other way
    round: one store, one ledger."""
    state = tmp_path / "state"
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(state))
    ts = {"filePath": str(root / "src/a.ts")}

    def read(session: str, call: str) -> dict[str, Any]:
        return {**payloads.after(root, "read", ts, call), "session_id": session}

    async with Client(create_server(RuleweaveConfig(cwd=root), host="opencode")) as client:
        served_first = text_of(await client.call_tool(HOOK_TOOL, {EVENT_ARGUMENT: read("ses_a", "1")}))
        command_then = hook("opencode", read("ses_a", "2"), state).stdout
        command_first = hook("opencode", read("ses_b", "1"), state).stdout
        served_then = text_of(await client.call_tool(HOOK_TOOL, {EVENT_ARGUMENT: read("ses_b", "2")}))
    assert "TS-RULE" in served_first and command_then == b""
    assert b"TS-RULE" in command_first and served_then == ""


async def test_an_event_it_cannot_use_gets_no_answer(root: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative cwd, an unknown event, a wrong shape: no answer (as the command prints nothing), and a
    call without the event is an error result naming the argument."""
    monkeypatch.setenv("RULEWEAVE_STATE_DIR", str(tmp_path / "state"))
    relative = {**payloads.session_start(root), "cwd": "project"}
    async with Client(create_server(RuleweaveConfig(cwd=root), host="opencode")) as client:
        answers = [
            text_of(await client.call_tool(HOOK_TOOL, {EVENT_ARGUMENT: e}))
            for e in (relative, {"event": "session.idle", "session_id": "s"}, {"event": 7, "args": "x"})
        ]
        wrong = await client.call_tool(HOOK_TOOL, {"payload": payloads.session_start(root)})
    assert answers == ["", "", ""]
    said = text_of(wrong)
    assert wrong.is_error and f"takes {EVENT_ARGUMENT} (" in said and "given payload" in said
