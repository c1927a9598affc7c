"""The framework-free loop helpers, in the Anthropic Messages and OpenAI Chat wire formats."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop
from tests.conftest import WriteTree

SPEC = Path(__file__).resolve().parents[2] / "examples" / "specs" / "web-research.skill.spec.yml"
FILES = {
    ".cursor/rules/ts.mdc": "---\ndescription: TS\nglobs: src/**/*.ts\n---\nStrict TS.",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.",
}


@pytest.fixture
def ruleset(write_tree: WriteTree) -> RuleSet:
    root = write_tree(FILES)
    (root / ".ruleweave").mkdir()
    shutil.copy(SPEC, root / ".ruleweave" / "skill.spec.yml")
    return RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))


def anthropic_assistant(*calls: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": "working"}]
        + [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls],
    }


def test_anthropic_notices_appended_once(ruleset: RuleSet) -> None:
    """tool_result content gets the notice (string or blocks); the second touch gets none."""
    loop = AnthropicLoop(ruleset.session("a"))
    assert loop.system("Base.").startswith("Base.\n\n<generic-rules>")
    assistant = anthropic_assistant(
        ("t1", "read_file", {"path": "src/a.ts"}), ("t2", "read_file", {"path": "src/b.ts"})
    )
    user: dict[str, Any] = {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "A"},
            {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": "B"}]},
        ],
    }
    out = loop.tool_results(assistant, user)
    assert out["content"][0]["content"] == "A\n\n[rule: ts]\nStrict TS."
    assert out["content"][1]["content"] == [{"type": "text", "text": "B"}]
    assert user["content"][0]["content"] == "A"  # the input is not mutated
    again = loop.tool_results(assistant, user)
    assert again["content"][0]["content"] == "A"


def test_anthropic_blocks_content_and_async(ruleset: RuleSet) -> None:
    """Block-list content gains a text block, through the async twin too."""
    loop = AnthropicLoop(ruleset.session("b"))
    assistant = anthropic_assistant(("t1", "read_file", {"path": "src/a.ts"}))
    user = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": "A"}]}
    ]}
    out = asyncio.run(loop.atool_results(assistant, user))
    assert out["content"][0]["content"][-1] == {"type": "text", "text": "[rule: ts]\nStrict TS."}


def test_anthropic_refusal(ruleset: RuleSet) -> None:
    """A call steering forbids gets an is_error tool_result naming the rule."""
    session = ruleset.session("c")
    loop = AnthropicLoop(session)
    assistant = anthropic_assistant(
        ("t1", "bash", {"command": "curl -s https://example.com"}), ("t2", "bash", {"command": "ls"})
    )
    assert loop.refusals(assistant) == []
    session.steer("browse the changelog page")
    refused = loop.refusals(assistant)
    assert [r["tool_use_id"] for r in refused] == ["t1"]
    assert refused[0]["is_error"] is True
    assert "browse_words_use_the_browser" in refused[0]["content"]


def openai_assistant(*calls: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for i, n, a in calls
        ],
    }


def test_openai_parallel_calls_one_notice(ruleset: RuleSet) -> None:
    """Two parallel calls touching one rule's files: the notice goes to the first only."""
    loop = OpenAIChatLoop(ruleset.session("d"))
    assistant = openai_assistant(
        ("c1", "read_file", {"path": "src/a.ts"}), ("c2", "read_file", {"path": "src/b.ts"})
    )
    messages = [
        {"role": "tool", "tool_call_id": "c1", "content": "A"},
        {"role": "tool", "tool_call_id": "c2", "content": "B"},
    ]
    out = loop.tool_results(assistant, messages)
    assert out == [
        {"role": "tool", "tool_call_id": "c1", "content": "A\n\n[rule: ts]\nStrict TS."},
        {"role": "tool", "tool_call_id": "c2", "content": "B"},
    ]


def test_openai_async_and_refusal(ruleset: RuleSet) -> None:
    """The async twin appends notices; refusals are role: tool messages naming the rule."""
    session = ruleset.session("e")
    loop = OpenAIChatLoop(session)
    assistant = openai_assistant(("c1", "read_file", {"path": "src/z.ts"}))
    out = asyncio.run(loop.atool_results(assistant, [{"role": "tool", "tool_call_id": "c1", "content": ""}]))
    assert out[0]["content"] == "[rule: ts]\nStrict TS."
    session.steer("browse the page")
    refused = loop.refusals(openai_assistant(("c9", "bash", {"command": "curl x"})))
    assert refused[0]["role"] == "tool" and refused[0]["tool_call_id"] == "c9"
    assert "browse_words_use_the_browser" in refused[0]["content"]


@pytest.mark.parametrize(
    "assistant",
    [{}, {"content": "text"}, {"tool_calls": "nope"}, {"tool_calls": [1, {"function": "x"}]},
     {"content": [{"type": "tool_use"}]}],
)
def test_malformed_messages_never_raise(ruleset: RuleSet, assistant: dict[str, Any]) -> None:
    """Odd message shapes give no calls or empty calls, never an exception."""
    session = ruleset.session("f")
    for loop in (AnthropicLoop(session), OpenAIChatLoop(session)):
        for call in loop.tool_calls(assistant):
            assert isinstance(call.args, dict)
        assert isinstance(loop.refusals(assistant), list)
