"""Streamed rules in hand-written loops: the SDKs' own streams, aborted and retried with the rule.

Each test streams from a scripted server through the SDK's client, the way
its docs loop over a stream, and feeds every event to ``loop.stream()``. The
script is the same for the three wire formats: a ``write`` whose streamed
arguments break a rule (aborted, retried with the rule in the system prompt),
a reply whose text breaks another (aborted, retried with both), two parallel
reads (one notice) and the answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ruleweave import RuleSet
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop, OpenAIResponsesLoop, ToolCall
from ruleweave.ttsr.route import TtsrAction, TtsrRoute
from tests.adapters import loop_canned as canned
from tests.adapters.loop_canned import MONEY_RULE, PRINT_RULE, TASK, TODO_RULE, Server, run_tool
from tests.conftest import WriteTree

BASE = "You are a careful coding agent."
WRITE = ("c1", "write", {"path": "app/money.py", "content": "def total(amount):\n    return float(amount)\n"})
TODO = "Plan: fix the totals, leave a TODO for the tests."
READS = [("c2", "read_file", {"path": "src/a.ts"}), ("c3", "read_file", {"path": "src/b.ts"})]
ANSWER = "Totals are integer cents now."


@pytest.fixture
def ruleset(write_tree: WriteTree) -> RuleSet:
    return canned.load_rules(write_tree({}))


def assert_retried(routes: list[TtsrRoute], systems: list[str]) -> None:
    """Two retries in the turn (tool arguments, then text); each later call carries the rules so far."""
    assert [(r.action, r.attempt, r.hit.source) for r in routes] == [
        (TtsrAction.RETRY, 1, "tool"), (TtsrAction.RETRY, 2, "text")
    ]
    assert routes[0].call_id == "c1" and routes[0].hit.tool == "write"
    assert len(systems) == 4 and all(s.startswith(BASE) for s in systems)
    assert [(MONEY_RULE in s, TODO_RULE in s) for s in systems] == [
        (False, False), (True, False), (True, True), (True, True)
    ]


def assert_notices(texts: list[str]) -> None:
    """The two parallel reads: the rule goes with the first result only."""
    assert texts == ["read_file ok\n\n[rule: ts]\nStrict TS.", "read_file ok"]


def run_calls(calls: list[ToolCall]) -> dict[str, str]:
    return {call.id: run_tool(call.name, call.args) for call in calls}


def test_anthropic_messages_stream(ruleset: RuleSet) -> None:
    """Anthropic ``messages.stream()``: input_json_delta and text_delta hits abort and retry."""
    server = Server([
        canned.as_sse(canned.message_events(canned.text("Writing it."), canned.tool_use(*WRITE))),
        canned.as_sse(canned.message_events(canned.text(TODO))),
        canned.as_sse(canned.message_events(*(canned.tool_use(*c) for c in READS))),
        canned.as_sse(canned.message_events(canned.text(ANSWER))),
    ])
    client = server.anthropic_client()
    loop = AnthropicLoop(ruleset.session("anthropic"))
    loop.user_turn(TASK)
    messages: list[Any] = [{"role": "user", "content": TASK}]
    extra: list[str] = []
    routes: list[TtsrRoute] = []
    while True:
        watch = loop.stream()
        with client.messages.stream(
            model="claude-test", max_tokens=1024, system=loop.system(BASE, extra), messages=messages
        ) as stream:
            for event in stream:
                if watch.feed(event):
                    break
            else:
                response = stream.get_final_message()
        if watch.retry is not None:
            routes.append(watch.retry)
            extra.append(watch.retry.text)
            continue
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            break
        refused = {r["tool_use_id"]: r for r in loop.refusals(response)}
        ran = run_calls(loop.tool_calls(response))
        results = [refused.get(i) or {"type": "tool_result", "tool_use_id": i, "content": out}
                   for i, out in ran.items()]
        messages.append(loop.tool_results(response, {"role": "user", "content": results}))
    assert response.content[0].type == "text"
    assert_retried(routes, [r["system"] for r in server.requests])
    assert server.requests[1]["messages"] == server.requests[0]["messages"]  # the aborted reply is dropped
    assert_notices([r["content"] for r in server.requests[3]["messages"][-1]["content"]])


def test_openai_chat_completions_stream(ruleset: RuleSet) -> None:
    """Chat Completions ``create(stream=True)``: tool-call deltas by index and content deltas."""
    server = Server([
        canned.as_sse(canned.completion_chunks("Writing it.", canned.function_call(*WRITE)), named=False,
                      done=True),
        canned.as_sse(canned.completion_chunks(TODO), named=False, done=True),
        canned.as_sse(canned.completion_chunks(None, *(canned.function_call(*c) for c in READS)),
                      named=False, done=True),
        canned.as_sse(canned.completion_chunks(ANSWER), named=False, done=True),
    ])
    client = server.openai_client()
    loop = OpenAIChatLoop(ruleset.session("chat"))
    loop.user_turn(TASK)
    messages: list[Any] = [{"role": "system", "content": ""}, {"role": "user", "content": TASK}]
    extra: list[str] = []
    routes: list[TtsrRoute] = []
    while True:
        messages[0] = {"role": "system", "content": loop.system(BASE, extra)}
        watch = loop.stream()
        stream = client.chat.completions.create(model="gpt-test", messages=messages, stream=True)
        content = ""
        final_tool_calls: dict[int, dict[str, Any]] = {}
        for chunk in stream:
            if watch.feed(chunk):
                stream.close()
                break
            delta = chunk.choices[0].delta
            content += delta.content or ""
            for tool_call in delta.tool_calls or []:  # accumulated by index, as the docs do
                call = final_tool_calls.setdefault(tool_call.index, {
                    "id": tool_call.id, "type": "function", "function": {"name": "", "arguments": ""}
                })
                if tool_call.function is not None:
                    call["function"]["name"] += tool_call.function.name or ""
                    call["function"]["arguments"] += tool_call.function.arguments or ""
        if watch.retry is not None:
            routes.append(watch.retry)
            extra.append(watch.retry.text)
            continue
        calls = list(final_tool_calls.values())
        assistant: dict[str, Any] = {"role": "assistant", "content": content or None}
        if calls:
            assistant["tool_calls"] = calls
        messages.append(assistant)
        if not calls:
            break
        refused = {r["tool_call_id"]: r for r in loop.refusals(assistant)}
        ran = run_calls(loop.tool_calls(assistant))
        messages += loop.tool_results(
            assistant,
            [refused.get(i) or {"role": "tool", "tool_call_id": i, "content": out} for i, out in ran.items()],
        )
    assert content == ANSWER
    assert_retried(routes, [r["messages"][0]["content"] for r in server.requests])
    assert_notices([m["content"] for m in server.requests[3]["messages"][-2:]])


def test_openai_responses_stream(ruleset: RuleSet) -> None:
    """Responses ``create(stream=True)``: function_call_arguments.delta by output index, output_text.delta."""
    server = Server([
        canned.as_sse(canned.response_events(canned.output_message("Writing."), canned.output_call(*WRITE))),
        canned.as_sse(canned.response_events(canned.output_message(TODO))),
        canned.as_sse(canned.response_events(*(canned.output_call(*c) for c in READS))),
        canned.as_sse(canned.response_events(canned.output_message(ANSWER))),
    ])
    client = server.openai_client()
    loop = OpenAIResponsesLoop(ruleset.session("responses"))
    loop.user_turn(TASK)
    input_list: list[Any] = [{"role": "user", "content": TASK}]
    extra: list[str] = []
    routes: list[TtsrRoute] = []
    while True:
        watch = loop.stream()
        stream = client.responses.create(
            model="gpt-test", instructions=loop.system(BASE, extra), input=input_list, stream=True
        )
        for event in stream:
            if watch.feed(event):
                stream.close()
                break
            if event.type == "response.completed":
                response = event.response
        if watch.retry is not None:
            routes.append(watch.retry)
            extra.append(watch.retry.text)
            continue
        input_list += response.output
        calls = loop.tool_calls(response)
        if not calls:
            break
        refused = {r["call_id"]: r for r in loop.refusals(response)}
        outputs = [refused.get(i) or {"type": "function_call_output", "call_id": i, "output": out}
                   for i, out in run_calls(calls).items()]
        input_list += loop.tool_results(response, outputs)
    assert response.output_text == ANSWER
    assert_retried(routes, [r["instructions"] for r in server.requests])
    assert_notices([i["output"] for i in server.requests[3]["input"][-2:]])


def test_async_anthropic_and_responses_streams(ruleset: RuleSet) -> None:
    """The async clients: afeed aborts, arefusals and atool_results answer, auser_turn starts the turn."""
    anthropic_server = Server([
        canned.as_sse(canned.message_events(canned.tool_use(*WRITE))),
        canned.as_sse(canned.message_events(canned.tool_use(*READS[0]), number=2)),
    ])
    responses_server = Server([
        canned.as_sse(canned.response_events(canned.output_message(TODO))),
        canned.as_sse(canned.response_events(canned.output_call(*READS[1]), number=2)),
    ])

    async def anthropic_turn() -> tuple[list[TtsrRoute], Any]:
        client = anthropic_server.async_anthropic_client()
        loop = AnthropicLoop(ruleset.session("async-anthropic"))
        await loop.auser_turn(TASK)
        routes: list[TtsrRoute] = []
        while True:
            watch = loop.stream()
            async with client.messages.stream(
                model="claude-test", max_tokens=64, system=loop.system(BASE, [r.text for r in routes]),
                messages=[{"role": "user", "content": TASK}],
            ) as stream:
                async for event in stream:
                    if await watch.afeed(event):
                        break
                else:
                    response = await stream.get_final_message()
            if watch.retry is None:
                break
            routes.append(watch.retry)
        assert await loop.arefusals(response) == []
        user = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c2", "content": "A"}]}
        return routes, await loop.atool_results(response, user)

    async def responses_turn() -> tuple[list[TtsrRoute], Any]:
        client = responses_server.async_openai_client()
        loop = OpenAIResponsesLoop(ruleset.session("async-responses"))
        await loop.auser_turn(TASK, turn_id="user-1")
        assert not await loop.auser_turn(TASK, turn_id="user-1")  # the same message starts no new turn
        routes: list[TtsrRoute] = []
        while True:
            watch = loop.stream()
            async with client.responses.stream(
                model="gpt-test", instructions=loop.system(BASE, [r.text for r in routes]), input=TASK
            ) as stream:
                async for event in stream:
                    if await watch.afeed(event):
                        break
                else:
                    response = await stream.get_final_response()
            if watch.retry is None:
                break
            routes.append(watch.retry)
        output = [{"type": "function_call_output", "call_id": "c3", "output": "B"}]
        return routes, await loop.atool_results(response, output)

    async def both() -> list[tuple[list[TtsrRoute], Any]]:
        return list(await asyncio.gather(anthropic_turn(), responses_turn()))

    (anthropic_routes, user), (responses_routes, outputs) = asyncio.run(both())
    assert [r.hit.source for r in anthropic_routes] == ["tool"]
    assert MONEY_RULE in anthropic_server.requests[1]["system"]
    assert user["content"][0]["content"] == "A\n\n[rule: ts]\nStrict TS."
    assert [r.hit.source for r in responses_routes] == ["text"]
    assert TODO_RULE in responses_server.requests[1]["instructions"]
    assert outputs == [
        {"type": "function_call_output", "call_id": "c3", "output": "B\n\n[rule: ts]\nStrict TS."}
    ]


def test_reminders_need_nothing_from_the_loop(ruleset: RuleSet) -> None:
    """A hit that does not interrupt returns no route; its reminder lands on the next tool result."""
    loop = AnthropicLoop(ruleset.session("remind"))
    loop.user_turn()
    watch = loop.stream()
    events = canned.message_events(canned.text("I will print(total) first."), canned.tool_use(*READS[0]))
    assert [watch.feed(e) for e in events] == [None] * len(events)
    assert watch.retry is None
    user = loop.tool_results(canned.message(canned.tool_use(*READS[0])), [
        {"type": "tool_result", "tool_use_id": "c2", "content": "A"}
    ])
    assert PRINT_RULE in user[0]["content"] and "[rule: ts]" in user[0]["content"]


def test_helper_events_are_not_fed_twice(ruleset: RuleSet) -> None:
    """Helper events (Anthropic ``text``, Chat ``content.delta``) repeat raw deltas and are skipped."""
    anthropic_watch = AnthropicLoop(ruleset.session("derived-a")).stream()
    text = "one two TODO"
    for event in canned.message_events(canned.text(text)):
        route = anthropic_watch.feed(event)
        if event["type"] == "content_block_delta":
            delta = event["delta"]["text"]
            assert anthropic_watch.feed({"type": "text", "text": delta, "snapshot": delta}) is route
    assert anthropic_watch.retry is not None and anthropic_watch.retry.hit.offset == len(text)
    server = Server([canned.as_sse(canned.completion_chunks(text), named=False, done=True)])
    chat_watch = OpenAIChatLoop(ruleset.session("derived-c")).stream()
    with server.openai_client().chat.completions.stream(model="gpt-test", messages=[]) as stream:
        kinds = {event.type for event in stream if chat_watch.feed(event) is None}
    assert {"chunk", "content.delta"} <= kinds
    assert chat_watch.retry is not None and chat_watch.retry.hit.offset == len(text)


def test_feed_after_a_retry_returns_it_again(ruleset: RuleSet) -> None:
    """Once a stream must stop, every later event gets the same route and nothing more is watched."""
    watch = OpenAIResponsesLoop(ruleset.session("again")).stream()
    events = canned.response_events(canned.output_message("a TODO and print(x)"))
    routes = [watch.feed(e) for e in events]
    first = next(r for r in routes if r is not None)
    assert all(r is first for r in routes[routes.index(first):])
    assert watch.feed({"type": "response.output_text.delta", "delta": "print("}) is first


@pytest.mark.parametrize(
    ("kind", "event"),
    [
        (AnthropicLoop, {"type": "content_block_delta", "index": 0,
                         "delta": {"type": "thinking_delta", "thinking": "a TODO"}}),
        (OpenAIChatLoop, {"object": "chat.completion.chunk",
                          "choices": [{"index": 0, "delta": {"reasoning_content": "a TODO"}}]}),
        (OpenAIResponsesLoop, {"type": "response.reasoning_summary_text.delta", "output_index": 0,
                               "delta": "a TODO"}),
        (OpenAIResponsesLoop, {"type": "response.reasoning_text.delta", "delta": "a TODO"}),
    ],
)
def test_reasoning_deltas_are_watched(
    ruleset: RuleSet, kind: type[AnthropicLoop | OpenAIChatLoop | OpenAIResponsesLoop], event: Any
) -> None:
    """Each format's reasoning deltas feed the thinking stream."""
    route = kind(ruleset.session("thinking")).stream().feed(event)
    assert route is not None and route.hit.source == "thinking"


@pytest.mark.parametrize(
    "event",
    [None, 1, "text", {}, {"type": "content_block_delta", "index": 9, "delta": {"type": "input_json_delta"}},
     {"type": "content_block_stop", "index": 3}, {"choices": "x"},
     {"choices": [{"delta": {"tool_calls": [1]}}]},
     {"type": "response.function_call_arguments.delta", "output_index": 4, "delta": "{}"}],
)
def test_odd_events_are_ignored(ruleset: RuleSet, event: Any) -> None:
    """Events of no known shape, or for calls never started, feed nothing and never raise."""
    session = ruleset.session("odd")
    for loop in (AnthropicLoop(session), OpenAIChatLoop(session), OpenAIResponsesLoop(session)):
        assert loop.stream().feed(event) is None
