"""End to end through the real Claude Code CLI: one ``ruleweave install claude-code``, hooks and rule reading.

The installer registers ``ruleweave mcp --host claude-code`` in ``.mcp.json``;
with ``claude`` 2.1.332 on ``PATH`` it writes ``mcp_tool`` hooks that call the
server's ``hook`` tool (SessionStart stays a command hook: the CLI skips an
``mcp_tool`` hook at start-up, before any MCP server is connected — seen here:
the SessionStart context arrives only from the command hook). The assertions
read the request bodies the mock Messages API received.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

from tests.hosts.claude_code.mock_messages import MockMessages, Reply, reply, text
from tests.hosts.claude_code.scenario import (
    TURN_1,
    TURN_2,
    tool_ids,
    tool_results,
    turn_1,
    turn_2,
    write_project,
)
from tests.hosts.claude_code.test_e2e_cli import CLAUDE, CLI_TIMEOUT, cli_env, run_cli

__all__ = ["cli_env"]  # the fixture, shared with test_e2e_cli


def with_claude_on_path(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """``env`` with the bundled CLI on ``PATH`` as ``claude`` (what the installer asks for its version)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    link = bin_dir / "claude"
    if not link.exists():
        link.symlink_to(CLAUDE)
    return {**env, "PATH": os.pathsep.join([str(bin_dir), env["PATH"]])}


def install(project: Path, env: dict[str, str], *args: str) -> str:
    """``ruleweave install claude-code`` in ``project``; its output."""
    done = subprocess.run(
        ["ruleweave", "install", "claude-code", *args], cwd=project, env=env, capture_output=True, text=True,
        timeout=CLI_TIMEOUT, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def hook_types(project: Path) -> dict[str, str]:
    """Each event's ruleweave hook type in the project's settings."""
    settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
    return {event: groups[0]["hooks"][0]["type"] for event, groups in settings["hooks"].items()}


def read_rule_call(name: str) -> Reply:
    """The model calling the registered server's ``read_rule`` (as Claude Code names it)."""
    return Reply(({"type": "tool_use", "id": "toolu_read_rule", "name": "mcp__ruleweave__read_rule",
                   "input": {"name": name}},))


def test_the_installed_server_answers_read_rule(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """The model's call of mcp__ruleweave__read_rule gets the whole rule in the next request's tool result.

    Installed ``--local``: the server in ``~/.claude.json`` under the project, and the tool allowed in
    ``settings.local.json`` (the CLI 2.1.332 did not honour that allow rule from the committed
    ``settings.json`` in ``-p`` mode: "Claude requested permissions to use mcp__ruleweave__read_rule").
    """
    project = write_project(tmp_path / "project")
    env = with_claude_on_path(cli_env, tmp_path)
    said = install(project, env, "--local")
    assert "Hooks: mcp" in said and "2.1.332" in said  # the version read from the CLI itself
    user_config = json.loads((Path(env["HOME"]) / ".claude.json").read_text(encoding="utf-8"))
    assert "ruleweave" in user_config["projects"][str(project)]["mcpServers"]
    script = [read_rule_call("python"), reply(text("Read it."))]
    with MockMessages(script) as mock:
        run_cli(project, {**env, "ANTHROPIC_BASE_URL": mock.url}, "Which rule covers Python?")
    results = {call: (error, body) for call, error, body in tool_results(mock.loop_requests[-1])}
    is_error, body = results["toolu_read_rule"]
    assert not is_error, body
    assert body.startswith("[rule: python]\nPY-RULE: annotate every function.")


REMINDER = re.compile(r"\n*<system-reminder>\n(.*?)\n</system-reminder>", re.DOTALL)
HOOK_SAYS = re.compile(r"(SessionStart|UserPromptSubmit|PreToolUse|PostToolUse|Stop)\S* hook ")


def _split(body: str, project: Path) -> tuple[str, list[str]]:
    """A tool result as its own text and the hooks' reminders in it. The CLI's own reminders (the
    server's instructions and tools) come whenever the MCP server happens to connect: left out."""
    said = [m.group(1).replace(str(project), "<project>") for m in REMINDER.finditer(body)
            if HOOK_SAYS.match(m.group(1))]
    return REMINDER.sub("", body).replace(str(project), "<project>").rstrip(), said


def _normalised(bodies: list[dict[str, Any]], script: list[Reply], project: Path) -> list[Any]:
    """What the model saw of ruleweave in a session: each scripted call's result, and the
    system reminders of the user turns, with the project's path and the call ids written out."""
    seen: list[Any] = []
    last = bodies[-1]
    results = {call: (error, body) for call, error, body in tool_results(last)}
    for step in script:
        # Parallel calls race for a notice (either read may carry it): per step, the results and the
        # hooks' reminders, each sorted.
        split = [(results[call][0], *_split(results[call][1], project)) for call in tool_ids(step)]
        seen.append((sorted((error, text) for error, text, _ in split),
                     sorted(said for _, _, reminders in split for said in reminders)))
    for message in last["messages"]:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            seen.extend(
                block["text"].replace(str(project), "<project>") for block in content
                if block.get("type") == "text" and "hook additional context" in block.get("text", "")
            )
    return seen


def _session(tmp_path: Path, cli_env: dict[str, str], hook_type: str) -> tuple[list[Any], dict[str, str]]:
    """The scenario's two turns in a fresh project installed with ``--hook-type``."""
    project = write_project(tmp_path / hook_type / "project")
    state = str(tmp_path / hook_type / "state")
    env = with_claude_on_path({**cli_env, "RULEWEAVE_STATE_DIR": state}, tmp_path)
    install(project, env, "--hook-type", hook_type)
    script = [*turn_1(project), *turn_2(project)]
    with MockMessages(script) as mock:
        run_cli(project, {**env, "ANTHROPIC_BASE_URL": mock.url}, TURN_1, TURN_2)
    assert len(mock.loop_requests) == len(script)
    return _normalised(mock.loop_requests, script, project), hook_types(project)


def test_mcp_tool_hooks_and_command_hooks_give_the_same_notices(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    """The scenario through mcp_tool hooks shows the model exactly what the command hooks show."""
    by_command, command_types = _session(tmp_path, cli_env, "command")
    by_server, server_types = _session(tmp_path, cli_env, "mcp")
    assert set(command_types.values()) == {"command"}
    # Every event but SessionStart went to the running server: no process per event.
    assert server_types.pop("SessionStart") == "command" and set(server_types.values()) == {"mcp_tool"}
    assert by_server == by_command
    flat = json.dumps(by_server)
    assert "PostToolUse:Read hook additional context: [rule: python]" in flat  # a notice, through the server
    assert "never_delete_files" in flat and "NO-EVAL: never call eval()" in flat  # steering and a refusal
