"""End to end: the real Claude Code CLI (bundled in claude-agent-sdk), offline against a mock Messages API.

The CLI runs real tools and real hooks; the assertions read what the model
would have seen: the request bodies the mock received.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import claude_agent_sdk
import pytest
from claude_agent_sdk import ClaudeAgentOptions, ClaudeSDKClient, Message, ResultMessage

from ruleweave import RuleweaveConfig
from ruleweave.adapters.claude_agent import RuleweaveClaudeAgent
from tests.hosts.claude_code.mock_messages import MockMessages, pause, reply, text, tool
from tests.hosts.claude_code.scenario import (
    MODEL,
    STEERING_REFUSAL,
    TURN_1,
    TURN_2,
    dumped,
    tool_ids,
    tool_results,
    turn_1,
    turn_2,
    user_texts,
    write_project,
)

CLAUDE = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
RULEWEAVE = Path(sys.executable).parent / "ruleweave"
TOOLS = "Read,Write,Edit,Bash,Glob,Grep"
CLI_TIMEOUT = 60


@pytest.fixture
def scenario_project(tmp_path: Path) -> Path:
    """The scenario's project in a temp dir."""
    return write_project(tmp_path / "project")


@pytest.fixture
def cli_env(isolated_home: Path) -> Iterator[dict[str, str]]:
    """The CLI's environment: the temp HOME, no network beyond the mock (URL filled in per test)."""
    assert CLAUDE.is_file(), f"the Claude Code CLI bundled with claude-agent-sdk is missing at {CLAUDE}"
    yield {
        # ``ruleweave`` on the PATH, as after ``pip install ruleweave``.
        "PATH": os.pathsep.join([str(RULEWEAVE.parent), os.environ.get("PATH", "/usr/bin:/bin")]),
        "HOME": str(isolated_home),
        "ANTHROPIC_API_KEY": "test",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }


def install_hooks(project: Path, env: dict[str, str]) -> None:
    """Install ruleweave's hooks the way a user does: ``ruleweave install claude-code --project``."""
    done = subprocess.run(
        ["ruleweave", "install", "claude-code", "--project"],
        cwd=project, env=env, capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False,
    )
    assert done.returncode == 0, done.stderr
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    assert {"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} <= set(settings["hooks"])


def run_cli(
    project: Path, env: dict[str, str], *prompts: str, args: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    """One ``claude -p`` process, one user turn per prompt (each sent once the previous one's result is out);
    ``args`` go on its command line (``--resume <id>``).

    Returns:
        The stream-json output lines.
    """
    with tempfile.TemporaryFile(mode="w+") as errors:
        process = subprocess.Popen(
            [str(CLAUDE), "-p", "--input-format", "stream-json", "--output-format", "stream-json",
             "--verbose", "--model", MODEL, "--allowedTools", TOOLS, *args],
            cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True,
        )
        watchdog = threading.Timer(CLI_TIMEOUT, process.kill)  # a hung CLI fails the test, never hangs it
        watchdog.start()
        try:
            lines = _turns(process, prompts)
        finally:
            watchdog.cancel()
            process.kill()
            process.wait()
            errors.seek(0)
            stderr = errors.read()
    assert process.returncode == 0, stderr
    return lines


def _turns(process: subprocess.Popen[str], prompts: tuple[str, ...]) -> list[dict[str, Any]]:
    """Send each prompt once the previous turn's result is out; every output line, parsed."""
    assert process.stdin is not None and process.stdout is not None
    lines: list[dict[str, Any]] = []
    for prompt in prompts:
        message = {"type": "user", "message": {"role": "user", "content": prompt}}
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()
        for raw in process.stdout:
            if raw.startswith("{"):
                lines.append(json.loads(raw))
                if lines[-1].get("type") == "result":
                    break
        assert lines and lines[-1].get("type") == "result", "the CLI ended without a result"
        assert lines[-1]["subtype"] == "success", lines[-1]
    process.stdin.close()
    process.wait(timeout=CLI_TIMEOUT)
    return lines


def counted(bodies: list[dict[str, Any]], needle: str) -> int:
    """How often ``needle`` occurs in the tool results of the last request (the whole conversation)."""
    return sum(found.count(needle) for _, _, found in tool_results(bodies[-1]))


def result_of(body: dict[str, Any], call_id: str) -> tuple[bool, str]:
    """``(is_error, text)`` of one tool result in a request."""
    for found, is_error, body_text in tool_results(body):
        if found == call_id:
            return is_error, body_text
    raise AssertionError(f"no tool result for {call_id}")


def assert_turn_1(project: Path, bodies: list[dict[str, Any]], script: list[Any]) -> None:
    """Notices once each (a file read twice, two parallel reads), the prompt contribution, CLAUDE.md once."""
    first = dumped(bodies[0])
    assert "ALWAYS-RULE: keep changes small." in first  # ruleweave's prompt contribution
    assert first.count("CLAUDE-MD: run the tests") == 1  # loaded by Claude Code, not doubled by the hook
    last = bodies[-1]
    assert counted(bodies, "PY-RULE: annotate every function.") == 1
    assert "PY-RULE" in result_of(last, tool_ids(script[0])[0])[1]
    assert "PY-RULE" not in result_of(last, tool_ids(script[1])[0])[1]
    assert counted(bodies, "DOCS-RULE: docs use sentence case headings.") == 1
    parallel = [result_of(last, call)[1] for call in tool_ids(script[2])]
    assert sum("DOCS-RULE" in text for text in parallel) == 1
    # The notice rides inside the tool result, as the hook's system reminder.
    notice = "<system-reminder>\nPostToolUse:Read hook additional context: [rule: python]\nPY-RULE"
    assert notice in result_of(last, tool_ids(script[0])[0])[1]


def assert_turn_2(project: Path, bodies: list[dict[str, Any]], script: list[Any]) -> None:
    """Steering in the turn's context, the refusals' texts, the retried write, the tree unharmed."""
    last = bodies[-1]
    steering = [t for t in user_texts(last) if "<steering>" in t and "never_delete_files" in t]
    assert len(steering) == 1 and steering[0].startswith("<system-reminder>")
    is_error, refused = result_of(last, tool_ids(script[0])[0])
    assert is_error and STEERING_REFUSAL in refused
    assert (project / "build" / "out.txt").is_file()
    is_error, refused = result_of(last, tool_ids(script[1])[0])
    assert is_error and "NO-EVAL: never call eval() on input" in refused
    assert not result_of(last, tool_ids(script[2])[0])[0]
    assert (project / "src" / "new.py").read_text(encoding="utf-8") == "value = int(raw)\n"
    assert counted(bodies, "PY-RULE") == 1 and counted(bodies, "NO-EVAL") == 1


def test_claude_code_cli_session_with_installed_hooks(
    scenario_project: Path, cli_env: dict[str, str]
) -> None:
    """Two CLI turns with the installed command hooks: notices once, steering, refusals, the Stop check."""
    project = scenario_project
    install_hooks(project, cli_env)
    first, second = turn_1(project), turn_2(project)
    with MockMessages([*first, *second]) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, TURN_1, TURN_2)
    bodies = mock.loop_requests
    assert len(bodies) == len(first) + len(second)
    assert_turn_1(project, bodies[: len(first)], first)
    assert_turn_2(project, bodies[len(first) :], second)
    # The prose caught by the streamed rule: the Stop hook blocked once, with the rule as the reason.
    last = dumped(bodies[-1])
    assert last.count("Stop hook feedback") == 1 and "NO-HACKS: do not ship hacks" in last
    # The prompt contribution went in once, as SessionStart context.
    assert last.count("ALWAYS-RULE: keep changes small.") == 1
    assert "SessionStart hook additional context: <generic-rules>" in last


def test_claude_code_with_disable_all_hooks_runs_none_of_ruleweaves(
    scenario_project: Path, cli_env: dict[str, str], tmp_path: Path
) -> None:
    """``disableAllHooks: true`` in the local settings: the real CLI runs no hook (no start context, no
    snapshot written), and ``ruleweave install`` says so up front (``native.hooks_off``)."""
    project = scenario_project
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude/settings.local.json").write_text('{"disableAllHooks": true}', encoding="utf-8")
    env = {**cli_env, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(["ruleweave", "install", "claude-code", "--project"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=CLI_TIMEOUT, check=False)
    assert done.returncode == 0 and "Claude Code runs no hooks here (disableAllHooks in" in done.stderr
    with MockMessages([reply(text("Hello."))]) as mock:
        run_cli(project, {**env, "ANTHROPIC_BASE_URL": mock.url}, "hello")
    assert "ALWAYS-RULE" not in dumped(mock.loop_requests[0])
    assert not (tmp_path / "state" / "snapshots").exists()


async def _sdk_turn(rw: RuleweaveClaudeAgent, client: ClaudeSDKClient, prompt: str) -> list[Message]:
    await client.query(prompt)
    return [message async for message in rw.receive(client)]


def test_claude_agent_sdk_session_through_the_adapter(
    scenario_project: Path, cli_env: dict[str, str]
) -> None:
    """The scenario through the SDK adapter: hooks in process, the prompt appended, interrupt-and-correct."""
    project = scenario_project
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=project))
    first, second = turn_1(project), turn_2(project, pause_after_prose=30.0)
    with MockMessages([*first, *second]) as mock:
        options = rw.options(
            ClaudeAgentOptions(
                cwd=project, model=MODEL, allowed_tools=TOOLS.split(","), cli_path=CLAUDE,
                env={**cli_env, "ANTHROPIC_BASE_URL": mock.url},
            )
        )

        async def run() -> tuple[list[Message], list[Message]]:
            async with ClaudeSDKClient(options) as client:
                one = await _sdk_turn(rw, client, TURN_1)
                two = await _sdk_turn(rw, client, TURN_2)
            return one, two

        one, two = asyncio.run(asyncio.wait_for(run(), timeout=CLI_TIMEOUT))
    bodies = mock.loop_requests
    assert isinstance(one[-1], ResultMessage) and isinstance(two[-1], ResultMessage)
    assert len(bodies) == len(first) + len(second)
    # No SessionStart through the SDK: the contribution is in the system prompt, not a reminder.
    assert "ALWAYS-RULE: keep changes small." in mock.system_text(0)
    assert "ALWAYS-RULE" not in json.dumps(bodies[0]["messages"])
    assert_turn_1(project, bodies[: len(first)], first)
    assert_turn_2(project, bodies[len(first) :], second)
    # Interrupt-and-correct: the caught prose stays in history, the rule follows as a user message,
    # and the Stop hook did not block a second time.
    last = bodies[-1]
    assert "This is a quick hack." in dumped(last)
    corrections = [t for t in user_texts(last) if "NO-HACKS: do not ship hacks" in t]
    assert len(corrections) == 1 and "Stop hook" not in corrections[0]
    assert dumped(last).count("NO-HACKS: do not ship hacks") == 1
    assert sum(isinstance(m, ResultMessage) for m in two) == 2
    # The correction continues the user's turn: steering ran for the two user prompts only.
    assert dumped(last).count("UserPromptSubmit hook additional context") == 2


def test_claude_agent_sdk_prose_rule_that_does_not_interrupt_goes_with_the_next_tool_result(
    scenario_project: Path, cli_env: dict[str, str]
) -> None:
    """A prose rule with ``interruptMode: never`` does not interrupt: the next tool result reminds of it."""
    project = scenario_project
    rule = project / ".ruleweave/rules/no-hacks.md"
    never = rule.read_text(encoding="utf-8").replace("scope: text\n", "scope: text\ninterruptMode: never\n")
    rule.write_text(never, encoding="utf-8")
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=project))
    app = str(project / "src/app.py")
    # The pause lets the stream watcher see the prose before the tool's hooks run.
    script = [
        reply(text("A quick hack first."), pause(2.0), tool("Read", file_path=app)),
        reply(text("Done.")),
    ]
    with MockMessages(script) as mock:
        options = rw.options(
            ClaudeAgentOptions(
                cwd=project, model=MODEL, allowed_tools=TOOLS.split(","), cli_path=CLAUDE,
                env={**cli_env, "ANTHROPIC_BASE_URL": mock.url},
            )
        )

        async def run() -> list[Message]:
            async with ClaudeSDKClient(options) as client:
                one = await _sdk_turn(rw, client, TURN_1)
            return one

        messages = asyncio.run(asyncio.wait_for(run(), timeout=CLI_TIMEOUT))
    assert sum(isinstance(m, ResultMessage) for m in messages) == 1  # no interrupt, no follow-up
    assert len(mock.loop_requests) == 2
    result = result_of(mock.loop_requests[-1], tool_ids(script[0])[0])[1]
    assert "PY-RULE: annotate every function." in result and "NO-HACKS: do not ship hacks" in result
