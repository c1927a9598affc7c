"""End to end: 40 KB of rules for one file reach the model through the real Claude Code CLI (2.1.332,
bundled in claude-agent-sdk) over several answers, each under its 10,000-character limit, each rule once.

What the CLI does with a longer answer (read from its bundled JavaScript, function ``jEe``): an
``additionalContext`` whose ``length`` (UTF-16 code units) is over ``1e4`` is saved to a file and the
model is shown a pointer and a 2,000-character preview. A rule's last line reaching the model is the
proof it arrived whole. Through the SDK the CLI sends no ``SessionStart`` of a new session but does
send ``source: compact`` (seen with a probe callback), so the adapter's compaction goes through the
same handler as the command hook's.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, Message, ResultMessage

from ruleweave import RuleweaveConfig
from ruleweave._kernel.delivery import read_entry, utf16_len
from ruleweave.adapters.claude_agent import RuleweaveClaudeAgent
from ruleweave.hosts.claude_code import CONTEXT_LIMIT
from tests.hosts.claude_code.mock_messages import MockMessages, Reply, reply, text, tool
from tests.hosts.claude_code.scenario import MODEL, dumped, tool_ids
from tests.hosts.claude_code.test_e2e_cli import CLAUDE, CLI_TIMEOUT, TOOLS, cli_env, install_hooks, run_cli

__all__ = ["cli_env"]  # the CLI environment fixture, shared with test_e2e_cli

RULES = 8

CONTEXT = re.compile(
    r"<system-reminder>\n(\w+)(?::\w+)? hook additional context: (.*?)\n</system-reminder>", re.S
)
"""A hook's context as the CLI puts it in a request."""


def last_line(n: int) -> str:
    return f"RULE-{n} line 71: "


def write_project(root: Path) -> Path:
    """Eight Cursor rules of about 5 KB for ``src/**/*.py`` (40 KB for ``src/app.py``), and plain files."""
    (root / ".git").mkdir(parents=True)
    for n in range(1, RULES + 1):
        lines = "\n".join(f"RULE-{n} line {i}: " + "x" * 60 for i in range(72))
        path = root / f".cursor/rules/r{n}.mdc"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nglobs: src/**/*.py\n---\n{lines}\n", encoding="utf-8")
    (root / ".cursor/rules/always.mdc").write_text("---\nalwaysApply: true\n---\nALWAYS: be brief.\n")
    (root / "src").mkdir()
    (root / "src/app.py").write_text("def main() -> None:\n    pass\n", encoding="utf-8")
    (root / "notes.txt").write_text("plain\n", encoding="utf-8")
    return root


def script(root: Path) -> list[Reply]:
    """Read ``src/app.py``, then a plain file a few times (each result can carry what waits), then answer."""
    reads = [reply(tool("Read", file_path=str(root / "notes.txt"))) for _ in range(RULES)]
    return [reply(tool("Read", file_path=str(root / "src/app.py"))), *reads, reply(text("Read them all."))]


def contexts(body: dict[str, Any]) -> list[tuple[str, str]]:
    """Every hook context of a request: ``(event, text)``, in order."""
    return CONTEXT.findall(dumped_texts(body))


def dumped_texts(body: Mapping[str, Any]) -> str:
    """The texts of a request's messages, joined (tool results as their text)."""
    out: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key in ("text", "content"):
                if key in value:
                    walk(value[key])

    walk(body.get("messages", []))
    return "\n".join(out)


def assert_every_rule_once_and_whole(body: dict[str, Any]) -> None:
    """The whole conversation of a request: each rule's last line exactly once, no answer over the limit."""
    found = [hook for event, hook in contexts(body) if event in ("PostToolUse", "PreToolUse")]
    assert len(found) >= 4  # 40 KB cannot go in fewer answers of 10,000 characters
    assert all(utf16_len(hook) <= CONTEXT_LIMIT for hook in found)
    conversation = dumped(body)
    assert all(conversation.count(last_line(n)) == 1 for n in range(1, RULES + 1))
    assert "saved to" not in " ".join(found)  # no answer replaced by a file pointer


def test_forty_kilobytes_of_rules_through_the_cli(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """The installed command hooks: several answers, none over 10,000 characters, each rule once, whole."""
    project = write_project(tmp_path / "project")
    install_hooks(project, cli_env)
    steps = script(project)
    with MockMessages(steps) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "Read the app.")
    assert_every_rule_once_and_whole(mock.loop_requests[-1])
    # The first answer, to the Read of app.py, holds whole rules only; the rest came with later reads.
    first = [hook for event, hook in contexts(mock.loop_requests[1]) if event == "PostToolUse"]
    assert len(first) == 1 and first[0].startswith("[rule: r1]") and last_line(1) in first[0]


def test_claude_agent_sdk_shares_the_queue_record_and_compaction(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    """A real ClaudeSDKClient session: the same queue and record in process, and ``/compact`` re-arms
    the rules under the header that they outrank the summary."""
    from ruleweave.hosts._core.hooks import COMPACTED_HEADER

    project = write_project(tmp_path / "project")
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=project))
    steps = script(project)
    reread = tool("Read", file_path=str(project / "src/app.py"))

    def later(body: Mapping[str, Any]) -> Reply:
        """After the first turn: a summary for the compaction's requests, then one more read of app.py."""
        last = dumped_texts({"messages": body["messages"][-1:]})
        if "TEXT ONLY" in last:
            return reply(text("Summary: the rules of app.py were read."))
        if "Read it again." in last:
            return reply(reread)
        return reply(text("Again."))

    with MockMessages([*steps, *[later] * 6]) as mock:
        options = rw.options(
            ClaudeAgentOptions(
                cwd=project, model=MODEL, allowed_tools=TOOLS.split(","), cli_path=CLAUDE,
                env={**cli_env, "ANTHROPIC_BASE_URL": mock.url}, setting_sources=[],
            )
        )

        async def run() -> list[Message]:
            messages: list[Message] = []
            async with ClaudeSDKClient(options) as client:
                for prompt in ("Read the app.", "/compact", "Read it again."):
                    await client.query(prompt)
                    messages.extend([m async for m in rw.receive(client)])
            return messages

        messages = asyncio.run(asyncio.wait_for(run(), timeout=CLI_TIMEOUT * 2))
    assert sum(isinstance(m, ResultMessage) for m in messages) == 3
    first_turn = mock.loop_requests[len(steps) - 1]
    assert_every_rule_once_and_whole(first_turn)
    session_id = options.session_id
    assert session_id is not None
    record = [read_entry(e) for e in rw.handlers().pool.store.deliveries(session_id)]
    delivered = [e for e in record if e is not None and e["action"] == "delivered"]
    assert delivered[0]["event"] == "SystemPrompt" and delivered[0]["kind"] == "prompt"
    rules = [e for e in delivered if e["kind"] == "rule"]
    assert [e["name"] for e in rules[:RULES]] == [f"r{n}" for n in range(1, RULES + 1)]
    calls = {call for step in steps for call in tool_ids(step)}
    assert all(e["call"] in calls for e in rules[:RULES])
    assert any(e is not None and e["action"] == "queued" for e in record)
    # /compact: SessionStart(compact) through the handlers; the next read of app.py gets r1 again.
    last = mock.loop_requests[-1]
    events = [event for event, _ in contexts(last)]
    assert "SessionStart" in events
    assert COMPACTED_HEADER in dumped_texts(last)
    again = [hook for event, hook in contexts(last) if event == "PostToolUse"]
    assert again and again[-1].startswith("[rule: r1]") and reread["id"] in dumped(last)
    assert any(e is not None and e["event"] == "SessionStart" for e in record)

