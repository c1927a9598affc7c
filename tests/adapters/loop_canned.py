"""The loop tests' rules, and canned model replies in the real wire shapes (JSON and SSE).

``Server`` is a scripted model server for a mock transport: each request gets
the next canned reply and its JSON body is kept. The builders write the
Anthropic Messages, OpenAI Chat Completions and OpenAI Responses shapes as
the SDKs' own types define them, streams split into small deltas so a match
spans several events.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import openai

from ruleweave import RuleSet, RuleweaveConfig

SPEC = Path(__file__).resolve().parents[2] / "examples" / "specs" / "web-research.skill.spec.yml"
RULES = {
    ".cursor/rules/ts.mdc": "---\ndescription: TS\nglobs: src/**/*.ts\n---\nStrict TS.",
    ".cursor/rules/py.mdc": "---\ndescription: Py\nglobs: app/**/*.py\n---\nTyped Python.",
    ".ruleweave/rules/no-todo.md": (
        "---\ndescription: No TODO\ncondition: '\\bTODO\\b'\nscope: text, thinking\n---\n"
        "Finish the work; never leave a TODO."
    ),
    ".ruleweave/rules/no-float-money.md": (
        "---\ndescription: Money is cents\ncondition: 'float\\(\\s*amount'\nscope: tool:write(**/*.py)\n---\n"
        "Money is integer cents; never float(amount)."
    ),
    ".ruleweave/rules/no-print.md": (
        "---\ndescription: No print\ncondition: 'print\\('\nscope: text\ninterruptMode: never\n---\n"
        "Log with the logger, not print()."
    ),
}
"""Notices (``ts``, ``py``); streamed rules that interrupt on prose (``no-todo``) and on ``write``
arguments (``no-float-money``), and one that only reminds (``no-print``)."""
TASK = "Browse the changelog page, then fix the totals."
"""A user turn the web-research SkillSpec steers: ``curl`` is forbidden."""
TODO_RULE = "never leave a TODO"
MONEY_RULE = "never float(amount)"
PRINT_RULE = "not print()"


def load_rules(root: Path) -> RuleSet:
    """The loop tests' rule set in ``root`` (a repo written by ``write_tree``), with the SkillSpec."""
    for rel, body in RULES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    (root / ".ruleweave" / "skill.spec.yml").write_text(SPEC.read_text(encoding="utf-8"), encoding="utf-8")
    return RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False))


def run_tool(name: str, args: Any) -> str:
    """The scripted tools: every call succeeds with a one-line result."""
    return f"{name} ok"


Event = dict[str, Any]
"""One stream event, as its ``data:`` line holds it."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One canned HTTP reply: its content type and body."""

    content_type: str
    body: bytes


def as_json(body: dict[str, Any]) -> Reply:
    """A JSON reply."""
    return Reply("application/json", json.dumps(body).encode())


def as_sse(events: Sequence[Event], *, named: bool = True, done: bool = False) -> Reply:
    """An SSE reply (``event:`` lines when ``named``; a closing ``[DONE]`` when ``done``)."""
    lines = [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" if named else f"data: {json.dumps(e)}\n\n"
             for e in events]
    if done:
        lines.append("data: [DONE]\n\n")
    return Reply("text/event-stream", "".join(lines).encode())


@dataclass
class Server:
    """A scripted model: answers each request with the next reply and keeps the request bodies."""

    replies: list[Reply]
    requests: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        """The ``httpx2.MockTransport`` handler: the next reply, the request body kept."""
        self.requests.append(json.loads(request.content))
        assert self.replies, "the loop called the model more often than scripted"
        reply = self.replies.pop(0)
        return httpx2.Response(200, content=reply.body, headers={"content-type": reply.content_type})

    def anthropic_client(self) -> anthropic.Anthropic:
        """A real ``Anthropic`` client talking to this server."""
        http = httpx2.Client(transport=httpx2.MockTransport(self))
        return anthropic.Anthropic(api_key="test", http_client=http, max_retries=0)

    def async_anthropic_client(self) -> anthropic.AsyncAnthropic:
        """A real ``AsyncAnthropic`` client talking to this server."""
        http = httpx2.AsyncClient(transport=httpx2.MockTransport(self))
        return anthropic.AsyncAnthropic(api_key="test", http_client=http, max_retries=0)

    def openai_client(self) -> openai.OpenAI:
        """A real ``OpenAI`` client talking to this server (openai 3.x is typed for ``httpx2`` clients)."""
        http = httpx2.Client(transport=httpx2.MockTransport(self))
        return openai.OpenAI(api_key="test", http_client=http, max_retries=0)

    def async_openai_client(self) -> openai.AsyncOpenAI:
        """A real ``AsyncOpenAI`` client talking to this server."""
        http = httpx2.AsyncClient(transport=httpx2.MockTransport(self))
        return openai.AsyncOpenAI(api_key="test", http_client=http, max_retries=0)


def pieces(text: str, size: int = 7) -> Iterator[str]:
    """``text`` in chunks of ``size`` characters."""
    return (text[i : i + size] for i in range(0, len(text), size))


# -- Anthropic Messages -----------------------------------------------------------------------------


def text(value: str) -> dict[str, Any]:
    """A text content block."""
    return {"type": "text", "text": value}


def tool_use(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A tool_use content block."""
    return {"type": "tool_use", "id": call_id, "name": name, "input": args}


def message(*blocks: dict[str, Any], number: int = 1) -> dict[str, Any]:
    """A whole ``Message``."""
    calls = any(b["type"] == "tool_use" for b in blocks)
    return {
        "id": f"msg_{number}", "type": "message", "role": "assistant", "model": "claude-test",
        "content": list(blocks), "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def message_events(*blocks: dict[str, Any], number: int = 1) -> list[Event]:
    """A ``Message`` as its stream: message_start, each block's start/deltas/stop, message_delta, stop."""
    whole = message(*blocks, number=number)
    start_message = {**whole, "content": [], "stop_reason": None}
    events: list[Event] = [{"type": "message_start", "message": start_message}]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            start: dict[str, Any] = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": p} for p in pieces(block["text"])]
        elif block["type"] == "thinking":
            start = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces(block["thinking"])]
        else:
            start = {**block, "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": ""}]
            args = json.dumps(block["input"])
            deltas += [{"type": "input_json_delta", "partial_json": p} for p in pieces(args)]
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    stop = {"stop_reason": whole["stop_reason"], "stop_sequence": None}
    events.append({"type": "message_delta", "delta": stop, "usage": {"output_tokens": 10}})
    events.append({"type": "message_stop"})
    return events


# -- OpenAI Chat Completions ------------------------------------------------------------------------


def function_call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A Chat Completions function tool call."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def completion(content: str | None, *calls: dict[str, Any], number: int = 1) -> dict[str, Any]:
    """A whole ``ChatCompletion`` with one choice."""
    msg: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
    if calls:
        msg["tool_calls"] = list(calls)
    return {
        "id": f"chatcmpl-{number}", "object": "chat.completion", "created": 1, "model": "gpt-test",
        "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if calls else "stop",
                     "logprobs": None}],
    }


def completion_chunks(content: str | None, *calls: dict[str, Any], number: int = 1) -> list[Event]:
    """A ``ChatCompletion`` as its ``ChatCompletionChunk`` stream (tool calls by index)."""
    base = {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "created": 1, "model": "gpt-test"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> Event:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": p}) for p in pieces(content or "")]
    for index, call in enumerate(calls):
        function = call["function"]
        events.append(chunk({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                             "function": {"name": function["name"], "arguments": ""}}]}))
        events += [chunk({"tool_calls": [{"index": index, "function": {"arguments": p}}]})
                   for p in pieces(function["arguments"])]
    events.append(chunk({}, "tool_calls" if calls else "stop"))
    return events


# -- OpenAI Responses -------------------------------------------------------------------------------


def output_message(value: str, number: int = 1) -> dict[str, Any]:
    """A Responses output message with one ``output_text`` part."""
    return {"type": "message", "id": f"msg_{number}", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": value, "annotations": []}]}


def output_call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A Responses ``function_call`` output item."""
    return {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name,
            "arguments": json.dumps(args), "status": "completed"}


def response(*items: dict[str, Any], number: int = 1) -> dict[str, Any]:
    """A whole ``Response``."""
    return {
        "id": f"resp_{number}", "object": "response", "created_at": 1.0, "model": "gpt-test",
        "output": list(items), "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
        "status": "completed",
    }


def response_events(*items: dict[str, Any], number: int = 1) -> list[Event]:
    """A ``Response`` as its stream: created, each item added/deltas/done, completed."""
    events: list[Event] = [{"type": "response.created",
                            "response": {**response(number=number), "status": "in_progress"}}]
    for index, item in enumerate(items):
        common = {"output_index": index, "item_id": item["id"]}
        if item["type"] == "message":
            events.append({"type": "response.output_item.added", "output_index": index,
                           "item": {**item, "content": [], "status": "in_progress"}})
            part = item["content"][0]
            value = part["text"]
            events.append({"type": "response.content_part.added", **common, "content_index": 0,
                           "part": {**part, "text": ""}})
            events += [{"type": "response.output_text.delta", **common, "content_index": 0, "delta": p,
                        "logprobs": []} for p in pieces(value)]
            events.append({"type": "response.output_text.done", **common, "content_index": 0, "text": value,
                           "logprobs": []})
            events.append({"type": "response.content_part.done", **common, "content_index": 0, "part": part})
        else:
            events.append({"type": "response.output_item.added", "output_index": index,
                           "item": {**item, "arguments": "", "status": "in_progress"}})
            events += [{"type": "response.function_call_arguments.delta", **common, "delta": p}
                       for p in pieces(item["arguments"])]
            events.append({"type": "response.function_call_arguments.done", **common,
                           "arguments": item["arguments"]})
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": response(*items, number=number)})
    return [{**e, "sequence_number": n} for n, e in enumerate(events)]
