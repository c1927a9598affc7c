"""A Codex subagent (``spawn_agent``, Codex 0.171.0 with ``features.multi_agent_v2``) gets the start
context from ruleweave's SubagentStart answer, and its own notices: it starts with a fresh context.

The model calls ``collaboration.spawn_agent`` with ``fork_turns: "none"`` (no parent history); Codex runs
the child's turn as its own requests to the same model, and fires SubagentStart with the parent's
``session_id`` and the child's ``agent_id``. The mock answers each request by who sent it (the parent's
requests carry the user's prompt, the child's do not), so the two threads may interleave in any order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from tests.e2e.codex.driving import run_turn
from tests.e2e.mock_responses import MockResponses, Reply, call, reply, text

pytestmark = pytest.mark.e2e

Bodies = list[dict[str, Any]]

PROMPT = "Delegate the review."
FILES = {
    ".cursor/rules/ts.mdc": "---\nglobs: '**/*.ts'\n---\nTS-RULE: no `any` in TypeScript.\n",
    ".github/copilot-instructions.md": "COPILOT-ALWAYS: keep commits small.\n",
    "AGENTS.md": "ROOT-AGENTS: Codex loads this file itself.\n",
    "src/a.ts": "export const a = 1;\n",
}


def _collab(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "namespace": "collaboration"}  # how the model names a tool of a namespace


READ_PARENT = call("exec_command", cmd="cat src/a.ts")
SPAWN = _collab(call("spawn_agent", task_name="reviewer", message="Review src/a.ts.", fork_turns="none"))
WAIT = _collab(call("wait_agent", timeout_ms=30000))
READ_CHILD = call("exec_command", cmd="cat src/a.ts")


def _is_parent(body: Mapping[str, Any]) -> bool:
    return PROMPT in json.dumps(body)


def _next(body: Mapping[str, Any]) -> Reply:
    """The parent reads, spawns, waits, ends; the child reads and ends."""
    sent = json.dumps(body)
    steps = (READ_PARENT, SPAWN, WAIT) if _is_parent(body) else (READ_CHILD,)
    for step in steps:
        if step["call_id"] not in sent:
            return reply(step)
    return reply(text("Done."))


@pytest.fixture(scope="module")
def requests(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Bodies, Bodies]]:
    """Run the turn; yield the parent's and the child's agent-loop requests, each in order."""
    turn = run_turn(tmp_path_factory.mktemp("codex-sub"), FILES, [_next] * 12, PROMPT,
                    user_config="features.multi_agent_v2 = true\n")
    mock: MockResponses = turn.mock
    bodies = list(mock.loop_requests)
    yield [b for b in bodies if _is_parent(b)], [b for b in bodies if not _is_parent(b)]


def _count(body: Mapping[str, Any], needle: str) -> int:
    return json.dumps(body).count(needle)


def test_the_subagent_starts_with_the_start_context_once(
    requests: tuple[Bodies, Bodies],
) -> None:
    """The child's first request (no parent history) holds the always-on rule once, from SubagentStart,
    and the root AGENTS.md once, from Codex itself."""
    _, child = requests
    assert len(child) == 2  # its read, then its answer
    assert _count(child[0], "COPILOT-ALWAYS") == 1 and _count(child[0], "ROOT-AGENTS") == 1
    assert _count(child[0], "TS-RULE") == 0  # the parent's notice is the parent's


def test_the_subagent_gets_a_rule_the_parent_already_had(
    requests: tuple[Bodies, Bodies],
) -> None:
    """Both read src/a.ts: the .ts rule comes to each once (a subagent claims in a scope of its own)."""
    parent, child = requests
    assert _count(child[-1], "TS-RULE") == 1
    assert _count(parent[-1], "TS-RULE") == 1 and _count(parent[-1], "COPILOT-ALWAYS") == 1
