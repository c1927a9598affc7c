"""ruleweave in loops written with the ``anthropic`` and ``openai`` SDKs, streamed, with a streamed rule.

Run: ``python examples/sdk_loops.py`` (needs ``pip install anthropic openai``).
The SDK clients talk to a scripted local "model" (an ``httpx2.MockTransport``
serving canned server-sent events) so the example runs offline; for a real
model, drop ``http_client=...`` and nothing else changes.

Each loop streams the reply and feeds every event to ``loop.stream()``. The
model first writes ``float(amount)`` into a Python file, which the demo
repository's ``no-float-money`` rule forbids: the watcher stops the stream in
the middle of the call's arguments, and the loop asks again with the rule in
the system prompt (``instructions`` for Responses). The second reply reads a
file, whose rules come back on its result; the third answers.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

try:
    import anthropic
    import httpx2
    import openai
except ImportError:  # pragma: no cover - the dev extra has both SDKs
    sys.exit("examples/sdk_loops.py needs the SDKs: pip install anthropic openai")

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop, OpenAIResponsesLoop

REPO = Path(__file__).resolve().parent / "demo-repo"
BASE = "You are a careful coding agent."
TASK = "Keep the invoice totals in integer cents."
MODEL = "scripted"
Call = tuple[str, dict[str, Any]]
FLOAT_WRITE = {"path": "services/api/store.py", "content": "total = float(amount)\n"}
SCRIPT: list[tuple[str, Call | None]] = [
    ("Storing the total.", ("write", FLOAT_WRITE)),
    ("Reading the handlers first.", ("read_file", {"path": "services/api/handlers.py"})),
    ("Totals stay in integer cents.", None),
]


def read_file(path: str) -> str:
    """Read a file of the demo repository (the first 200 characters)."""
    target = (REPO / path).resolve()
    return target.read_text(encoding="utf-8")[:200] if target.is_relative_to(REPO) else "error: outside"


def notices(text: str) -> str:
    return ", ".join(line for line in text.splitlines() if line.startswith("[")) or "no notice"


# -- the loops ---------------------------------------------------------------------------------------


def run_anthropic(ruleset: RuleSet) -> list[str]:
    model = ScriptedModel(anthropic_events, named=True)
    client = anthropic.Anthropic(api_key="offline", http_client=model.http_client())
    loop = AnthropicLoop(ruleset.session("anthropic-sdk"))
    loop.user_turn(TASK)
    messages: list[Any] = [{"role": "user", "content": TASK}]
    rules: list[str] = []  # the streamed rules that stopped a reply, kept for the rest of the turn
    log = []
    while True:
        watch = loop.stream()
        with client.messages.stream(model=MODEL, max_tokens=1024, system=loop.system(BASE, rules),
                                    messages=messages) as stream:
            for event in stream:
                if watch.feed(event):
                    break  # leaving the block closes the stream
            else:
                response = stream.get_final_message()
        if watch.retry is not None:
            rules.append(watch.retry.text)
            log.append(f"stream stopped by {', '.join(r.name for r in watch.retry.hit.rules)}; asking again")
            continue
        messages.append({"role": "assistant", "content": response.content})
        calls = loop.tool_calls(response)
        if not calls:
            log.append(f"assistant: {response.content[0].text if response.content[0].type == 'text' else ''}")
            break
        refused = {r["tool_use_id"]: r for r in loop.refusals(response)}
        results = [refused.get(c.id) or {"type": "tool_result", "tool_use_id": c.id,
                                         "content": read_file(c.args["path"])} for c in calls]
        user = loop.tool_results(response, {"role": "user", "content": results})
        messages.append(user)
        log += [f"tool_result {b['tool_use_id']}: {notices(b['content'])}" for b in user["content"]]
    system = model.requests[1]["system"]
    log.append(f"the retried request's system prompt has the rule: {'no-float-money' in system}")
    return log


def run_chat(ruleset: RuleSet) -> list[str]:
    model = ScriptedModel(chat_chunks, named=False)
    client = openai.OpenAI(api_key="offline", http_client=model.http_client())
    loop = OpenAIChatLoop(ruleset.session("chat-sdk"))
    loop.user_turn(TASK)
    messages: list[Any] = [{"role": "system", "content": ""}, {"role": "user", "content": TASK}]
    rules: list[str] = []
    log = []
    while True:
        messages[0] = {"role": "system", "content": loop.system(BASE, rules)}
        watch = loop.stream()
        with client.chat.completions.stream(model=MODEL, messages=messages) as stream:
            for event in stream:  # the helper's "chunk" events carry the raw chunks
                if watch.feed(event):
                    break
            else:
                completion = stream.get_final_completion()
        if watch.retry is not None:
            rules.append(watch.retry.text)
            log.append(f"stream stopped by {', '.join(r.name for r in watch.retry.hit.rules)}; asking again")
            continue
        message = completion.choices[0].message
        messages.append(message)
        calls = loop.tool_calls(message)
        if not calls:
            log.append(f"assistant: {message.content}")
            break
        refused = {r["tool_call_id"]: r for r in loop.refusals(message)}
        results = [refused.get(c.id) or {"role": "tool", "tool_call_id": c.id,
                                         "content": read_file(c.args["path"])} for c in calls]
        for result in loop.tool_results(message, results):
            messages.append(result)
            log.append(f"tool {result['tool_call_id']}: {notices(result['content'])}")
    system = model.requests[1]["messages"][0]["content"]
    log.append(f"the retried request's system message has the rule: {'no-float-money' in system}")
    return log


def run_responses(ruleset: RuleSet) -> list[str]:
    model = ScriptedModel(responses_events, named=True)
    client = openai.OpenAI(api_key="offline", http_client=model.http_client())
    loop = OpenAIResponsesLoop(ruleset.session("responses-sdk"))
    loop.user_turn(TASK)
    input_items: list[Any] = [{"role": "user", "content": TASK}]
    rules: list[str] = []
    log = []
    while True:
        watch = loop.stream()
        stream = client.responses.create(
            model=MODEL, instructions=loop.system(BASE, rules), input=input_items, stream=True
        )
        for event in stream:
            if watch.feed(event):
                stream.close()
                break
            if event.type == "response.completed":
                response = event.response
        if watch.retry is not None:
            rules.append(watch.retry.text)
            log.append(f"stream stopped by {', '.join(r.name for r in watch.retry.hit.rules)}; asking again")
            continue
        input_items += response.output
        calls = loop.tool_calls(response)
        if not calls:
            log.append(f"assistant: {response.output_text}")
            break
        refused = {r["call_id"]: r for r in loop.refusals(response)}
        outputs = [refused.get(c.id) or {"type": "function_call_output", "call_id": c.id,
                                         "output": read_file(c.args["path"])} for c in calls]
        for item in loop.tool_results(response, outputs):
            input_items.append(item)
            log.append(f"function_call_output {item['call_id']}: {notices(item['output'])}")
    instructions = model.requests[1]["instructions"]
    log.append(f"the retried request's instructions have the rule: {'no-float-money' in instructions}")
    return log


# -- the scripted model: each request gets the script's next reply as that API streams it -----------


def chunks(text: str) -> Iterator[str]:
    return (text[i : i + 6] for i in range(0, len(text), 6))


def anthropic_events(n: int, text: str, call: Call | None) -> list[dict[str, Any]]:
    message: dict[str, Any] = {
        "id": f"msg_{n}", "type": "message", "role": "assistant", "model": MODEL, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 0},
    }
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
          for p in chunks(text)),
        {"type": "content_block_stop", "index": 0},
    ]
    if call:
        block = {"type": "tool_use", "id": f"toolu_{n}", "name": call[0], "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": p} for p in chunks(json.dumps(call[1]))]
        events += [{"type": "content_block_start", "index": 1, "content_block": block},
                   *({"type": "content_block_delta", "index": 1, "delta": d} for d in deltas),
                   {"type": "content_block_stop", "index": 1}]
    stop = {"stop_reason": "tool_use" if call else "end_turn", "stop_sequence": None}
    return [*events, {"type": "message_delta", "delta": stop, "usage": {"output_tokens": 1}},
            {"type": "message_stop"}]


def chat_chunks(n: int, text: str, call: Call | None) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0, "model": MODEL,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out = [chunk({"role": "assistant", "content": p}) for p in chunks(text)]
    if call:
        out.append(chunk({"tool_calls": [{"index": 0, "id": f"call_{n}", "type": "function",
                                          "function": {"name": call[0], "arguments": ""}}]}))
        out += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]})
                for p in chunks(json.dumps(call[1]))]
    return [*out, chunk({}, "tool_calls" if call else "stop")]


def responses_events(n: int, text: str, call: Call | None) -> list[dict[str, Any]]:
    part = {"type": "output_text", "text": text, "annotations": []}
    message = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
               "content": [part]}
    at = {"output_index": 0, "item_id": f"msg_{n}", "content_index": 0}
    items: list[dict[str, Any]] = [message]
    events: list[dict[str, Any]] = [
        {"type": "response.output_item.added", "output_index": 0, "item": {**message, "content": []}},
        {"type": "response.content_part.added", **at, "part": {**part, "text": ""}},
        *({"type": "response.output_text.delta", **at, "delta": p, "logprobs": []} for p in chunks(text)),
        {"type": "response.output_text.done", **at, "text": text, "logprobs": []},
        {"type": "response.content_part.done", **at, "part": part},
        {"type": "response.output_item.done", "output_index": 0, "item": message},
    ]
    if call:
        item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": call[0],
                "arguments": json.dumps(call[1]), "status": "completed"}
        items.append(item)
        on = {"output_index": 1, "item_id": item["id"]}
        added = {**item, "arguments": ""}
        events += [{"type": "response.output_item.added", "output_index": 1, "item": added},
                   *({"type": "response.function_call_arguments.delta", **on, "delta": p}
                     for p in chunks(item["arguments"])),
                   {"type": "response.function_call_arguments.done", **on, "arguments": item["arguments"]},
                   {"type": "response.output_item.done", "output_index": 1, "item": item}]
    response = {"id": f"resp_{n}", "object": "response", "created_at": 0, "model": MODEL, "output": items,
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "status": "completed"}
    events.append({"type": "response.completed", "response": response})
    return [{**event, "sequence_number": i} for i, event in enumerate(events)]


class ScriptedModel:
    """An ``httpx2.MockTransport`` handler streaming ``SCRIPT``; ``requests`` keeps what the loop sent."""

    def __init__(self, events: Callable[[int, str, Call | None], list[dict[str, Any]]], named: bool) -> None:
        self.events, self.named = events, named
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(json.loads(request.content))
        text, call = SCRIPT[min(len(self.requests), len(SCRIPT)) - 1]
        sse = "".join((f"event: {e['type']}\n" if self.named else "") + f"data: {json.dumps(e)}\n\n"
                      for e in self.events(len(self.requests), text, call))
        if not self.named:
            sse += "data: [DONE]\n\n"
        return httpx2.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})

    def http_client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self))


def main() -> None:
    ruleset = RuleSet.load(RuleweaveConfig(cwd=REPO, project_root=REPO))
    for title, run in (("Anthropic Messages, messages.stream()", run_anthropic),
                       ("OpenAI Chat Completions, chat.completions.stream()", run_chat),
                       ("OpenAI Responses, responses.create(stream=True)", run_responses)):
        print(f"{title}:")
        print("\n".join(f"  {line}" for line in run(ruleset)))


if __name__ == "__main__":
    main()
