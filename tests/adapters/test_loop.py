"""The framework-free loop helpers, in the Anthropic Messages and OpenAI Chat wire formats."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop, OpenAIResponsesLoop
from ruleweave.ttsr.route import TtsrAction
from tests.adapters import loop_canned
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
     {"content": [{"type": "tool_use"}]}, {"choices": []}, {"choices": [{"message": 3}]}, {"output": "x"},
     {"output": [{"type": "function_call"}]}, None, 5, "text", [1, "a"]],
)
def test_malformed_messages_never_raise(ruleset: RuleSet, assistant: Any) -> None:
    """Odd message shapes give no calls or empty calls, never an exception."""
    session = ruleset.session("f")
    for loop in (AnthropicLoop(session), OpenAIChatLoop(session), OpenAIResponsesLoop(session)):
        for call in loop.tool_calls(assistant):
            assert isinstance(call.args, dict)
        assert isinstance(loop.refusals(assistant), list)
        assert loop.check_reply(assistant) is None


def test_refused_and_unanswered_calls_claim_nothing(write_tree: WriteTree) -> None:
    """A refused call and a call without a result in the message claim no rule; a later call gets it."""
    loop = OpenAIResponsesLoop(loop_canned.load_rules(write_tree({})).session("r"))
    write = {"path": "app/money.py", "content": "x = float(amount)"}
    output = [
        {"type": "function_call", "call_id": "w", "name": "write", "arguments": json.dumps(write)},
        {"type": "function_call", "call_id": "a", "name": "read_file", "arguments": '{"path": "app/a.py"}'},
        {"type": "function_call", "call_id": "t", "name": "read_file", "arguments": '{"path": "src/t.ts"}'},
    ]
    refused = loop.refusals(output)
    assert [r["call_id"] for r in refused] == ["w"] and loop_canned.MONEY_RULE in refused[0]["output"]
    result = {"type": "function_call_output", "call_id": "t", "output": ""}
    answered = loop.tool_results(output, [*refused, result])
    assert answered == [refused[0], {**result, "output": "[rule: ts]\nStrict TS."}]
    later = loop.tool_results(output, [{"type": "function_call_output", "call_id": "a", "output": "A"}])
    assert later[0]["output"] == "A\n\n[rule: py]\nTyped Python."


def test_system_turns_and_whole_replies(write_tree: WriteTree) -> None:
    """``system`` appends retry texts; ``user_turn`` starts a turn once per id; ``check_reply`` retries."""
    ruleset = loop_canned.load_rules(write_tree({}))
    loop = AnthropicLoop(ruleset.session("s"))
    assert loop.system("Base.", ["RULE A", "", "RULE B"]).endswith("\n\nRULE A\n\nRULE B")
    assert loop.system() == loop.system("")
    assert loop.user_turn("hello", turn_id="m1") and not loop.user_turn("hello", turn_id="m1")
    assert loop.user_turn() is True
    replies = [
        (AnthropicLoop, {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "plan", "signature": "s"}, {"type": "text", "text": "a TODO"}]}),
        (OpenAIChatLoop, {"choices": [{"message": {"role": "assistant", "content": [
            {"type": "text", "text": "x"}, {"type": "text", "text": "TODO"}]}}]}),
        (OpenAIResponsesLoop, {"output": [loop_canned.output_message("then TODO")]}),
    ]
    for number, (kind, reply) in enumerate(replies):
        wire = kind(ruleset.session(f"reply-{number}"))
        retry = wire.check_reply(reply)
        assert retry is not None and retry.action is TtsrAction.RETRY and loop_canned.TODO_RULE in retry.text
        assert wire.check_reply(reply) is None  # the rule fires once a session
    printed = {"role": "assistant", "content": "print(x)"}
    # a rule that does not interrupt becomes a reminder on the next tool result: nothing to retry
    assert OpenAIChatLoop(ruleset.session("print")).check_reply(printed) is None


def test_read_rule_tool_in_every_wire_format(ruleset: RuleSet) -> None:
    """Each loop offers a read_rule tool definition in its format and answers its calls."""
    from ruleweave.adapters.loop import OpenAIResponsesLoop, ToolCall

    session = ruleset.session("rr")
    anthropic = AnthropicLoop(session).read_rule_tool()
    chat = OpenAIChatLoop(session).read_rule_tool()
    responses = OpenAIResponsesLoop(session).read_rule_tool()
    assert anthropic["name"] == chat["function"]["name"] == responses["name"] == "read_rule"
    assert "input_schema" in anthropic and "parameters" in chat["function"] and "parameters" in responses
    loop = AnthropicLoop(session)
    assert loop.read_rule(ToolCall("c", "read_rule", {"name": "rule://ts"})) == "[rule: ts]\nStrict TS."
    assert loop.read_rule(ToolCall("c", "read_file", {"path": "x"})) is None
