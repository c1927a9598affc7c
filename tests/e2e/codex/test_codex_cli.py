"""The real Codex CLI (``@openai/codex@0.171.0``) with ruleweave's hooks, against a local Responses API mock.

``ruleweave install codex`` writes ``.codex/hooks.json``; ``codex exec`` runs one scripted turn
with its own tools (``exec_command`` → hook ``Bash``, ``apply_patch``) in a temp project, with
``CODEX_HOME`` and ``HOME`` in tmp. Codex only runs a project's hooks when the project is trusted
(``--trust``) and each hook has been reviewed; ``--dangerously-bypass-hook-trust`` stands for the
review offline. A low ``model_auto_compact_token_limit`` and a reply reporting more input tokens
make Codex compact mid-turn: PreCompact, a compaction request without tools, then SessionStart with
``source: compact`` (verified against 0.171.0: /work/research/codex/FACTS.md, docs/hosts/codex.md).

What the mock receives is asserted: each notice exactly once, as the developer message Codex puts
next to the call (before its output: Codex never puts hook context inside the tool result), the
root ``AGENTS.md`` only as Codex's own message, the refusal in the patch's output, and the notices
re-armed after compaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.codex.driving import run_turn
from tests.e2e.mock_responses import MockResponses, Reply, call, custom, reply, text

pytestmark = pytest.mark.e2e


FILES = {
    ".cursor/rules/ts.mdc": "---\nglobs: '**/*.ts'\n---\nTS-RULE: no `any` in TypeScript.\n",
    ".github/copilot-instructions.md": "COPILOT-ALWAYS: keep commits small.\n",
    ".ruleweave/rules/no-eval.md": (
        "---\ncondition: 'eval\\('\nscope: 'tool:edit'\n---\nNO-EVAL: never call eval.\n"
    ),
    "AGENTS.md": "ROOT-AGENTS: Codex loads this file itself.\n",
    "pkg/AGENTS.md": "NESTED-AGENTS: pkg has its own conventions.\n",
    "pkg/b.ts": "export const b = 2;\n",
    "src/a.ts": "export const a = 1;\n",
}
EVAL_PATCH = "*** Begin Patch\n*** Add File: src/n.ts\n+export const n = eval('1');\n*** End Patch\n"

# The scripted turn: one model response per agent-loop request.
READ_1 = call("exec_command", cmd="cat src/a.ts")
READ_2 = call("exec_command", cmd="cat src/a.ts")
NESTED = call("exec_command", cmd="cat pkg/b.ts")
PATCH = custom("apply_patch", EVAL_PATCH)
LIST = call("exec_command", cmd="ls src")
READ_3 = call("exec_command", cmd="cat src/a.ts")
SCRIPT: list[Reply] = [
    reply(text("Reading."), READ_1),
    reply(READ_2),
    reply(NESTED),
    reply(PATCH),
    reply(LIST, input_tokens=9_000),  # over the compaction limit: Codex compacts before the next request
    reply(READ_3),
    reply(text("All done.")),
]


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MockResponses, Path, str]]:
    """Install the hooks, run the scripted turn once; yield the mock, the project and Codex's output."""
    turn = run_turn(tmp_path_factory.mktemp("codex"), FILES, SCRIPT, "Review the TypeScript files.")
    yield turn.mock, turn.project, turn.output


def developer_texts(body: dict[str, Any]) -> list[str]:
    """The texts of every developer message of a request's input (hook context is one each)."""
    return [part.get("text", "") for item in body.get("input", [])
            if item.get("type") == "message" and item.get("role") == "developer"
            for part in item.get("content", []) if isinstance(part, dict)]


def context_before_output(body: dict[str, Any], call_id: str) -> list[str]:
    """The developer messages between a call and its output: where Codex puts that call's hook context."""
    items = body.get("input", [])
    start = next(i for i, item in enumerate(items) if item.get("call_id") == call_id)
    found: list[str] = []
    for item in items[start + 1:]:
        if item.get("call_id") == call_id:
            break
        if item.get("type") == "message" and item.get("role") == "developer":
            found.extend(part.get("text", "") for part in item.get("content", []))
    return found


def occurrences(body: dict[str, Any], needle: str) -> int:
    return json.dumps(body).count(needle)


def test_codex_loaded_the_root_agents_md_itself_and_ruleweave_added_the_rest(
    session: tuple[MockResponses, Path, str],
) -> None:
    """The first request holds ROOT-AGENTS once (Codex's own message) and the always-on rule once,
    from SessionStart; ruleweave did not repeat AGENTS.md."""
    mock, _, _ = session
    first = mock.loop_requests[0]
    assert occurrences(first, "ROOT-AGENTS") == 1
    assert [t for t in developer_texts(first) if "COPILOT-ALWAYS" in t]
    assert occurrences(first, "COPILOT-ALWAYS") == 1
    assert not any("ROOT-AGENTS" in t for t in developer_texts(first))


def test_a_ts_file_read_twice_gets_its_rule_once_next_to_the_first_read(
    session: tuple[MockResponses, Path, str],
) -> None:
    """The .ts rule arrives with the first ``cat src/a.ts`` (between the call and its output), not with the
    second."""
    mock, _, _ = session
    body = mock.loop_requests[2]  # after both reads
    assert any("TS-RULE" in t for t in context_before_output(body, READ_1["call_id"]))
    assert not any("TS-RULE" in t for t in context_before_output(body, READ_2["call_id"]))
    assert occurrences(body, "TS-RULE") == 1
    assert "TS-RULE" not in mock.tool_outputs(2)[READ_1["call_id"]]  # Codex keeps the output apart


def test_a_nested_agents_md_codex_does_not_load_comes_with_the_read_below_it(
    session: tuple[MockResponses, Path, str],
) -> None:
    """Codex loads AGENTS.md from the root down to its cwd only: pkg/AGENTS.md comes from ruleweave, once."""
    mock, _, _ = session
    body = mock.loop_requests[3]
    assert any("NESTED-AGENTS" in t for t in context_before_output(body, NESTED["call_id"]))
    assert occurrences(body, "NESTED-AGENTS") == 1


def test_a_patch_writing_eval_is_refused_with_the_rule(session: tuple[MockResponses, Path, str]) -> None:
    """PreToolUse denies the patch: its output names the hook and holds the rule; no file was written."""
    mock, project, _ = session
    output = mock.tool_outputs(4)[PATCH["call_id"]]
    assert "blocked by PreToolUse hook" in output and "NO-EVAL: never call eval." in output
    assert not (project / "src/n.ts").exists()


def test_compaction_re_arms_the_notices(session: tuple[MockResponses, Path, str]) -> None:
    """Codex compacts (a request without tools), SessionStart ``compact`` re-sends the always-on rule,
    and the next read of src/a.ts brings its rule again, once."""
    mock, _, _ = session
    compactions = [r for r in mock.requests if not r["body"].get("tools")
                   and "CONTEXT CHECKPOINT COMPACTION" in json.dumps(r["body"])]
    assert len(compactions) == 1
    after = mock.loop_requests[5]  # the first request after compaction
    assert occurrences(after, "COPILOT-ALWAYS") == 1
    last = mock.loop_requests[6]
    assert any("TS-RULE" in t for t in context_before_output(last, READ_3["call_id"]))
    assert occurrences(last, "TS-RULE") == 1
    assert len(mock.loop_requests) == len(SCRIPT)
