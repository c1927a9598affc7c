"""End to end, event by event: what the real Claude Code CLI (2.1.332, bundled in claude-agent-sdk) sends
the installed hooks, and what the model then sees in the requests the mock Messages API receives.

What the CLI was seen to do (and these tests rely on): it loads ``AGENTS.md`` itself only where no
``CLAUDE.md`` family file is on the walk up from its cwd (its built-in ``cc-plugin-agents-md``
plugin, nested ones on a Read); ``/compact`` in ``-p`` mode sends PreCompact, then SessionStart
``source: compact``; ``--resume <id>`` sends SessionStart ``source: resume``; a subagent's tool
calls carry ``agent_id``/``agent_type``, SubagentStart can add context to the subagent's first
request; PreToolUse context is shown beside the tool's result, in the next request.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from ruleweave.hosts._core.hooks import COMPACTED_HEADER
from tests.hosts.claude_code.mock_messages import MockMessages, Reply, reply, text, tool
from tests.hosts.claude_code.scenario import TURN_2, dumped, tool_ids, write_project
from tests.hosts.claude_code.test_e2e_cli import cli_env, install_hooks, result_of, run_cli  # noqa: F401

ALWAYS = "ALWAYS-RULE: keep changes small."
PY_RULE = "PY-RULE: annotate every function."
DOCS_RULE = "DOCS-RULE: docs use sentence case headings."

FILES = {
    ".cursor/rules/python.mdc": "---\nglobs: '**/*.py'\n---\n" + PY_RULE + "\n",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\n" + ALWAYS + "\n",
    ".github/instructions/docs.instructions.md": "---\napplyTo: 'docs/**/*.md'\n---\n" + DOCS_RULE + "\n",
    "src/app.py": "def main() -> None:\n    print('app')\n",
    "docs/guide.md": "# Guide\n",
}


def project_with(root: Path, files: Mapping[str, str], env: dict[str, str]) -> Path:
    """``files`` under ``root`` (a git repository), with ruleweave's hooks installed."""
    (root / ".git").mkdir(parents=True)
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    install_hooks(root, env)
    return root


def session_of(lines: list[dict[str, Any]]) -> str:
    """The session id the CLI's stream-json output names."""
    return next(str(line["session_id"]) for line in lines if line.get("session_id"))


def hook_context(body: dict[str, Any], event: str) -> list[str]:
    """The ``<event> hook additional context`` reminders of a request, in order (the CLI puts them in
    a text block of their own, or at the end of the tool result's text)."""
    marker = f"{event} hook additional context: "
    return [
        piece.split("\n</system-reminder>", 1)[0]
        for value in _strings(body.get("messages", []))
        for piece in value.split(marker)[1:]
    ]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


@pytest.mark.parametrize("claude_md", [True, False], ids=["with-claude-md", "agents-md-only"])
def test_agents_md_root_and_nested_reach_the_model_exactly_once(
    tmp_path: Path, cli_env: dict[str, str], claude_md: bool  # noqa: F811
) -> None:
    """Root and nested AGENTS.md appear once in the requests: from the hooks in a project with a CLAUDE.md,
    from Claude Code itself (its agents-md fallback) in one without."""
    files = {
        **FILES,
        "AGENTS.md": "AGENTS-ROOT: run make check before you finish.\n",
        "services/api/AGENTS.md": "AGENTS-NESTED: keep the API schema stable.\n",
        "services/api/main.py": "x = 1\n",
    }
    if claude_md:
        files["CLAUDE.md"] = "CLAUDE-ROOT: loaded by Claude Code.\n"
    project = project_with(tmp_path / "project", files, cli_env)
    script = [reply(tool("Read", file_path=str(project / "services/api/main.py"))), reply(text("Done."))]
    with MockMessages(script) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "Look at the API.")
    first, last = dumped(mock.loop_requests[0]), dumped(mock.loop_requests[-1])
    assert first.count("AGENTS-ROOT: run make check") == 1
    assert "AGENTS-NESTED" not in first
    assert last.count("AGENTS-ROOT: run make check") == 1
    assert last.count("AGENTS-NESTED: keep the API schema stable.") == 1
    assert last.count("CLAUDE-ROOT") == (1 if claude_md else 0)
    notices = hook_context(mock.loop_requests[-1], "PostToolUse:Read")
    from_hook = [found for found in notices if "AGENTS-" in found]
    assert bool(from_hook) is claude_md


class Compacting:
    """A script that answers the CLI's compaction request with a summary, and the rest in order."""

    def __init__(self, steps: list[Reply]) -> None:
        self.steps = steps
        self.compactions = 0

    def __call__(self, body: Mapping[str, Any]) -> Reply:
        last = json.dumps(body.get("messages", [{}])[-1])
        if "Your task is to create a detailed summary of the conversation" in last:  # the CLI's request
            self.compactions += 1
            return reply(text("<summary>The user had the app read.</summary>"))
        return self.steps.pop(0) if self.steps else reply(text("Done."))


def test_compact_then_a_touch_of_an_earlier_file_gives_its_notice_again_under_the_header(
    tmp_path: Path, cli_env: dict[str, str]  # noqa: F811
) -> None:
    """``/compact`` sends SessionStart(compact): the header and the always-on set come again, and the next
    Read of a file read before compaction carries its notice again."""
    project = project_with(tmp_path / "project", FILES, cli_env)
    app = str(project / "src/app.py")
    before, after = reply(tool("Read", file_path=app)), reply(tool("Read", file_path=app))
    script = Compacting([before, reply(text("Read it.")), after, reply(text("Read it again."))])
    with MockMessages([script] * 20) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "Read the app.", "/compact",
                "Read the app again.")
    assert script.compactions == 1
    last = mock.loop_requests[-1]
    starts = hook_context(last, "SessionStart")
    assert len(starts) == 1 and starts[0].startswith(COMPACTED_HEADER) and ALWAYS in starts[0]
    assert [found for found in hook_context(last, "PostToolUse:Read") if PY_RULE in found]
    assert dumped(last).count(PY_RULE) == 1  # the summary replaced the first notice


def test_a_resumed_session_shows_its_start_context_once(
    tmp_path: Path, cli_env: dict[str, str]  # noqa: F811
) -> None:
    """``--resume <id>`` sends SessionStart(resume): with the rules unchanged the hook adds nothing, and the
    start context is in the resumed requests once, although the first session's prompt set a steering
    decision (which the start context then carries); changed rules come again."""
    project = write_project(tmp_path / "project")
    install_hooks(project, cli_env)
    always = "ALWAYS-RULE: keep changes small."
    with MockMessages([reply(text("Ok."))]) as mock:
        lines = run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, TURN_2)
    assert "never_delete_files" in dumped(mock.loop_requests[-1])  # the turn's steering
    session = session_of(lines)
    with MockMessages([reply(text("Still here."))]) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "And now?", args=("--resume", session))
    resumed = mock.loop_requests[-1]
    assert dumped(resumed).count(always) == 1
    assert len(hook_context(resumed, "SessionStart")) == 1  # the first one, from the original start
    (project / ".cursor/rules/always.mdc").write_text("---\nalwaysApply: true\n---\nALWAYS-RULE: be brief.\n")
    with MockMessages([reply(text("Still here."))]) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "And now?", args=("--resume", session))
    assert "ALWAYS-RULE: be brief." in hook_context(mock.loop_requests[-1], "SessionStart")[-1]


def test_a_subagent_gets_the_rules_of_its_task_and_the_notices_its_parent_had(
    tmp_path: Path, cli_env: dict[str, str]  # noqa: F811
) -> None:
    """SubagentStart gives the subagent the always-on set and the notice of the path its task names; its own
    Read of a file the parent read gets the notice again (its own ledger); the parent's does not."""
    project = project_with(tmp_path / "project", FILES, cli_env)
    app = str(project / "src/app.py")
    delegation = tool("Agent", description="check the guide", prompt="Check docs/guide.md against the app.",
                      subagent_type="general-purpose", run_in_background=False)
    inner = reply(tool("Read", file_path=app))
    script = [
        reply(tool("Read", file_path=app)),  # the parent
        reply(delegation),
        inner,  # the subagent's first request: it reads the app too
        reply(text("The guide matches.")),  # the subagent ends
        reply(tool("Read", file_path=app)),  # the parent again
        reply(text("Done.")),
    ]
    with MockMessages(script) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "Check the guide with a subagent.")
    sub_first, sub_last = mock.loop_requests[2], mock.loop_requests[3]
    started = hook_context(sub_first, "SubagentStart")
    assert len(started) == 1 and ALWAYS in started[0] and DOCS_RULE in started[0]
    assert PY_RULE not in dumped(sub_first)
    assert dumped(sub_last).count(PY_RULE) == 1
    assert PY_RULE in "".join(hook_context(sub_last, "PostToolUse:Read"))
    parent = mock.loop_requests[-1]
    assert dumped(parent).count(PY_RULE) == 1  # from the parent's first Read only


def test_an_edits_notice_arrives_in_the_pre_tool_use_context(
    tmp_path: Path, cli_env: dict[str, str]  # noqa: F811
) -> None:
    """A Write's notice is PreToolUse context (shown with the result, in the next request); the PostToolUse
    of the same call adds nothing."""
    project = project_with(tmp_path / "project", FILES, cli_env)
    write = reply(tool("Write", file_path=str(project / "src/new.py"), content="def f() -> int: ...\n"))
    with MockMessages([write, reply(text("Written."))]) as mock:
        run_cli(project, {**cli_env, "ANTHROPIC_BASE_URL": mock.url}, "Add src/new.py.")
    last = mock.loop_requests[-1]
    assert not result_of(last, tool_ids(write)[0])[0]
    pre = hook_context(last, "PreToolUse:Write")
    assert len(pre) == 1 and pre[0].startswith("[rule: python]\n" + PY_RULE)
    assert hook_context(last, "PostToolUse:Write") == []
    assert dumped(last).count(PY_RULE) == 1
