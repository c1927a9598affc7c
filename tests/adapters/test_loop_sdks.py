"""The loop helpers with the real ``anthropic`` and ``openai`` SDKs: their objects, clients and idioms.

Each test runs the loop the way the SDK's docs write it (non-streamed
``create`` calls) against a scripted server behind the SDK's own client and a
mock transport. The script is the same for all three wire formats: a reply
that breaks a streamed rule in its text (dropped and retried with the rule),
four parallel calls of which two are refused (steering forbids ``curl``; a
streamed rule forbids the ``write``), a read of a file whose rule the refused
``write`` would have claimed, and the answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from anthropic.types import Message
from openai.types.chat import ChatCompletion
from openai.types.responses import Response

from ruleweave import RuleSet
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop, OpenAIResponsesLoop
from tests.adapters import loop_canned as canned
from tests.adapters.loop_canned import MONEY_RULE, TASK, TODO_RULE, Server, run_tool
from tests.conftest import WriteTree

BASE = "You are a careful coding agent."
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("c1", "read_file", {"path": "src/a.ts"}),
    ("c2", "read_file", {"path": "src/b.ts"}),
    ("c3", "bash", {"command": "curl -s https://example.com/changelog"}),
    ("c4", "write", {"path": "app/money.py", "content": "total = float(amount)"}),
]
LATER = ("c5", "read_file", {"path": "app/util.py"})


@pytest.fixture
def ruleset(write_tree: WriteTree) -> RuleSet:
    return canned.load_rules(write_tree({}))


def assert_results(results: list[dict[str, Any]], later: dict[str, Any]) -> None:
    """Four results in call order: one notice, two refusals without notices; the py rule comes later."""
    assert [r["id"] for r in results] == ["c1", "c2", "c3", "c4"]
    texts = [r["text"] for r in results]
    assert texts[0] == "read_file ok\n\n[rule: ts]\nStrict TS."
    assert texts[1] == "read_file ok"
    assert "browse_words_use_the_browser" in texts[2] and "[rule:" not in texts[2]
    assert MONEY_RULE in texts[3] and "[rule: py]" not in texts[3]
    assert later["text"] == "read_file ok\n\n[rule: py]\nTyped Python."


def assert_systems(systems: list[str]) -> None:
    """The retried call, and only the calls after it, carry the streamed rule."""
    assert len(systems) == 4 and systems[0].startswith(BASE)
    assert TODO_RULE not in systems[0]
    assert all(TODO_RULE in s for s in systems[1:])


def test_anthropic_messages_create(ruleset: RuleSet) -> None:
    """Anthropic: Message objects and the docs' {"role": "assistant", "content": resp.content} both work."""
    server = Server([
        canned.as_json(canned.message(canned.text("First a TODO, then the fix."))),
        canned.as_json(canned.message(canned.text("Reading."), *(canned.tool_use(*c) for c in CALLS))),
        canned.as_json(canned.message(canned.tool_use(*LATER))),
        canned.as_json(canned.message(canned.text("Totals are integer cents now."))),
    ])
    client = server.anthropic_client()
    loop = AnthropicLoop(ruleset.session("anthropic"))
    loop.user_turn(TASK)
    messages: list[Any] = [{"role": "user", "content": TASK}]
    extra: list[str] = []
    while True:
        response = client.messages.create(
            model="claude-test", max_tokens=1024, system=loop.system(BASE, extra), messages=messages
        )
        retry = loop.check_reply(response)
        if retry is not None:
            extra.append(retry.text)
            continue
        assistant = {"role": "assistant", "content": response.content}
        messages.append(assistant)
        if response.stop_reason != "tool_use":
            break
        refused = {r["tool_use_id"]: r for r in loop.refusals(response)}
        results = [
            refused.get(block.id)
            or {"type": "tool_result", "tool_use_id": block.id, "content": run_tool(block.name, block.input)}
            for block in response.content
            if block.type == "tool_use"
        ]
        messages.append(loop.tool_results(assistant, {"role": "user", "content": results}))
    assert response.content[0].type == "text"
    assert_systems([r["system"] for r in server.requests])
    sent = server.requests[2]["messages"][-1]["content"]
    assert all(r.get("is_error") for r in sent[2:]) and not any(r.get("is_error") for r in sent[:2])
    later = server.requests[3]["messages"][-1]["content"][0]
    assert_results(
        [{"id": r["tool_use_id"], "text": r["content"]} for r in sent],
        {"id": later["tool_use_id"], "text": later["content"]},
    )


def test_openai_chat_completions_create(ruleset: RuleSet) -> None:
    """Chat Completions: a ChatCompletion, its message object and the tool messages the docs build."""
    server = Server([
        canned.as_json(canned.completion("First a TODO, then the fix.")),
        canned.as_json(canned.completion(None, *(canned.function_call(*c) for c in CALLS))),
        canned.as_json(canned.completion(None, canned.function_call(*LATER))),
        canned.as_json(canned.completion("Totals are integer cents now.")),
    ])
    client = server.openai_client()
    loop = OpenAIChatLoop(ruleset.session("chat"))
    loop.user_turn(TASK)
    messages: list[Any] = [{"role": "system", "content": ""}, {"role": "user", "content": TASK}]
    extra: list[str] = []
    while True:
        messages[0] = {"role": "system", "content": loop.system(BASE, extra)}
        completion = client.chat.completions.create(model="gpt-test", messages=messages)
        retry = loop.check_reply(completion)
        if retry is not None:
            extra.append(retry.text)
            continue
        message = completion.choices[0].message
        messages.append(message)
        if not message.tool_calls:
            break
        refused = {r["tool_call_id"]: r for r in loop.refusals(completion)}
        results = [
            refused.get(call.id)
            or {"role": "tool", "tool_call_id": call.id,
                "content": run_tool(call.function.name, json.loads(call.function.arguments))}
            for call in message.tool_calls
            if call.type == "function"
        ]
        messages += loop.tool_results(message, results)
    assert message.content == "Totals are integer cents now."
    assert_systems([r["messages"][0]["content"] for r in server.requests])
    sent = server.requests[2]["messages"][-4:]
    later = server.requests[3]["messages"][-1]
    assert_results(
        [{"id": m["tool_call_id"], "text": m["content"]} for m in sent],
        {"id": later["tool_call_id"], "text": later["content"]},
    )


def test_openai_responses_create(ruleset: RuleSet) -> None:
    """Responses: function_call items in, function_call_output items out, the rules in instructions."""
    server = Server([
        canned.as_json(canned.response(canned.output_message("First a TODO, then the fix."))),
        canned.as_json(canned.response(*(canned.output_call(*c) for c in CALLS))),
        canned.as_json(canned.response(canned.output_call(*LATER))),
        canned.as_json(canned.response(canned.output_message("Totals are integer cents now."))),
    ])
    client = server.openai_client()
    loop = OpenAIResponsesLoop(ruleset.session("responses"))
    loop.user_turn(TASK)
    input_list: list[Any] = [{"role": "user", "content": TASK}]
    extra: list[str] = []
    while True:
        response = client.responses.create(
            model="gpt-test", instructions=loop.system(BASE, extra), input=input_list
        )
        retry = loop.check_reply(response)
        if retry is not None:
            extra.append(retry.text)
            continue
        input_list += response.output
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            break
        refused = {r["call_id"]: r for r in loop.refusals(response)}
        outputs = [
            refused.get(item.call_id)
            or {"type": "function_call_output", "call_id": item.call_id,
                "output": run_tool(item.name, json.loads(item.arguments))}
            for item in calls
        ]
        input_list += loop.tool_results(response.output, outputs)
    assert response.output_text == "Totals are integer cents now."
    assert_systems([r["instructions"] for r in server.requests])
    sent = server.requests[2]["input"][-4:]
    later = server.requests[3]["input"][-1]
    assert_results(
        [{"id": i["call_id"], "text": i["output"]} for i in sent],
        {"id": later["call_id"], "text": later["output"]},
    )


def test_sdk_objects_read_like_their_dicts() -> None:
    """A Message, ChatCompletion, ChatCompletionMessage and Response give the calls their dicts give."""
    anthropic_reply = canned.message(canned.text("x"), canned.tool_use("t1", "read_file", {"path": "a"}))
    chat_reply = canned.completion(None, canned.function_call("c1", "read_file", {"path": "a"}))
    call = canned.output_call("c1", "read_file", {"path": "a"})
    responses_reply = canned.response(canned.output_message("x"), call)
    message = Message.model_validate(anthropic_reply)
    completion = ChatCompletion.model_validate(chat_reply)
    response = Response.model_validate(responses_reply)
    docs_idiom = {"role": "assistant", "content": message.content}
    for reply in (message, anthropic_reply, message.content, docs_idiom, message.to_param()):
        assert [(c.id, c.name, c.args) for c in AnthropicLoop.tool_calls(reply)] == [
            ("t1", "read_file", {"path": "a"})
        ]
    chat_message = completion.choices[0].message
    for chat in (completion, chat_reply, chat_message, chat_message.model_dump()):
        assert [(c.id, c.args) for c in OpenAIChatLoop.tool_calls(chat)] == [("c1", {"path": "a"})]
    for item in (response, responses_reply, response.output, responses_reply["output"]):
        assert [(c.id, c.name) for c in OpenAIResponsesLoop.tool_calls(item)] == [("c1", "read_file")]


def test_results_keep_the_shape_given(ruleset: RuleSet, tmp_path: Path) -> None:
    """List-valued results gain a part of the format's type; objects that are no results pass through."""
    session = ruleset.session("shapes")
    call = canned.output_call("c1", "read_file", {"path": "src/a.ts"})
    response = Response.model_validate(canned.response(call))
    outputs = [response.output[0], {"type": "function_call_output", "call_id": "c1",
                                     "output": [{"type": "input_text", "text": "A"}]}]
    out = OpenAIResponsesLoop(session).tool_results(response, outputs)
    assert out[0] is response.output[0]
    assert out[1]["output"][-1] == {"type": "input_text", "text": "[rule: ts]\nStrict TS."}
    blocks = [{"type": "tool_result", "tool_use_id": "t1", "content": "A"}]
    message = Message.model_validate(canned.message(canned.tool_use("t1", "read_file", {"path": "src/b.ts"})))
    assert AnthropicLoop(ruleset.session("blocks")).tool_results(message, blocks) == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "A\n\n[rule: ts]\nStrict TS."}
    ]
