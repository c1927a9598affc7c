"""A local HTTP server speaking the OpenAI Responses API, scripted per agent-loop request, for real CLIs.

The Codex CLI talks to it through a model provider whose ``base_url`` points at
``mock.url`` (``wire_api = "responses"``). Every request body is recorded.
Requests of the agent loop — those that offer tools — get the next scripted
reply, streamed as server-sent events (``response.created`` …
``response.completed``) when the request asks for a stream; any other request
(titles, summaries, the model list) gets a short text reply and does not
consume the script. Each reply and each output item has its own id.

Use::

    with MockResponses([reply(call("shell", command=["cat", "a.ts"])), reply(text("done"))]) as mock:
        provider_base_url = mock.url
        ...
    mock.loop_requests  # the agent-loop request bodies, in order
    mock.tool_outputs(2)  # the tool results the third loop request carries, by call id
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tests.mock_http import Frames, MockServer, sse

Item = dict[str, Any]
"""One output item of a scripted reply: a ``message``, a ``function_call`` or a ``custom_tool_call``."""

_ids = itertools.count(1)


def text(value: str) -> Item:
    """An assistant message item holding ``value``."""
    return {
        "type": "message", "id": f"msg_{next(_ids):06d}", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": value, "annotations": []}],
    }


def call(name: str, **arguments: Any) -> Item:
    """A ``function_call`` item (arguments sent as a JSON string) with a unique call id."""
    number = next(_ids)
    return {
        "type": "function_call", "id": f"fc_{number:06d}", "call_id": f"call_{number:06d}", "name": name,
        "arguments": json.dumps(arguments), "status": "completed",
    }


def custom(name: str, value: str) -> Item:
    """A ``custom_tool_call`` item (a freeform tool such as Codex's ``apply_patch``) with a unique call id."""
    number = next(_ids)
    return {
        "type": "custom_tool_call", "id": f"ctc_{number:06d}", "call_id": f"call_{number:06d}", "name": name,
        "input": value, "status": "completed",
    }


@dataclass(frozen=True)
class Reply:
    """One scripted model response: its output items, streamed in order, and its reported token use."""

    items: tuple[Item, ...]
    input_tokens: int = 100


def reply(*items: Item, input_tokens: int = 100) -> Reply:
    """A scripted response made of ``items`` (``input_tokens``: the usage it reports, which drives a
    client's automatic compaction)."""
    return Reply(tuple(items), input_tokens)


Script = Callable[[Mapping[str, Any]], Reply]
"""A reply chosen from the request body (for replies that depend on what the agent sent)."""


@dataclass
class MockResponses(MockServer[Reply]):
    """The mock server: ``with MockResponses(script) as mock`` serves on ``mock.url`` until the block ends.

    Args:
        script: The agent-loop replies, in order; a callable gets the request body.
            When the script runs out, loop requests get ``fallback``.
        fallback: The reply after the script (default: a short text, ending the turn).
        is_loop: Which ``/responses`` requests are agent-loop requests (default: those that offer tools).
        side: The reply to every other request (default: a new text ``ok`` each time).
    """

    URL_PATH: ClassVar[str] = "/v1"  # the provider's base_url: requests go to <url>/responses
    REQUEST_ID: ClassVar[str | None] = "x-request-id"

    script: Sequence[Reply | Script]
    fallback: Reply = field(default_factory=lambda: reply(text("Done.")))
    is_loop: Callable[[Mapping[str, Any]], bool] = field(default=lambda body: bool(body.get("tools")))
    side: Reply | Script = field(default=lambda body: reply(text("ok")))  # each item has its own id

    def in_loop(self, path: str, body: Mapping[str, Any]) -> bool:
        """A ``/responses`` request that ``is_loop`` accepts."""
        return path.endswith("/responses") and self.is_loop(body)

    def get(self, path: str) -> bytes:
        """An empty model list."""
        return b'{"object": "list", "data": [], "models": []}'

    def post(self, path: str, body: dict[str, Any]) -> bytes | Frames:
        """A ``response``, or its event stream when the body asks for one."""
        step = self.answer(path, body)
        model = str(body.get("model") or "gpt-mock")
        if body.get("stream"):
            return (sse(event, event["type"]) for event in _events(step, model))
        return json.dumps(_response(model, "completed", list(step.items), step.input_tokens)).encode()

    def tool_outputs(self, index: int) -> dict[str, str]:
        """The tool results the ``index``-th agent-loop request carries: call id → output text."""
        found: dict[str, str] = {}
        for item in self.loop_requests[index].get("input", []):
            if isinstance(item, dict) and item.get("type") in _OUTPUTS:
                found[str(item.get("call_id"))] = "\n".join(_texts(item.get("output")))
        return found

    def input_texts(self, index: int) -> list[str]:
        """Every text the ``index``-th agent-loop request's ``input`` carries (messages, tool results)."""
        return list(_texts(self.loop_requests[index].get("input", [])))

    def all_text(self, index: int) -> str:
        """The ``index``-th agent-loop request's instructions and input, as one string."""
        body = self.loop_requests[index]
        return "\n".join([str(body.get("instructions") or ""), *self.input_texts(index)])


_OUTPUTS = ("function_call_output", "custom_tool_call_output")


def _texts(value: Any) -> Iterator[str]:
    """Every string under ``text`` / ``content`` / ``output`` keys of a Responses structure, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for key in ("text", "content", "output"):
            if key in value:
                yield from _texts(value[key])


def _response(model: str, status: str, output: list[Item], input_tokens: int) -> dict[str, Any]:
    return {
        "id": f"resp_{next(_ids):08d}", "object": "response", "created_at": 0, "status": status,
        "model": model, "output": output,
        "usage": {
            "input_tokens": input_tokens, "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + 20,
        },
    }


def _events(step: Reply, model: str) -> Iterator[dict[str, Any]]:
    """The SSE events of a streamed response; text and arguments arrive in a few deltas each."""
    shell = _response(model, "in_progress", [], step.input_tokens)
    yield {"type": "response.created", "response": shell}
    yield {"type": "response.in_progress", "response": shell}
    for index, item in enumerate(step.items):
        if item["type"] == "message":
            empty = {**item, "status": "in_progress", "content": []}
            yield {"type": "response.output_item.added", "output_index": index, "item": empty}
            value = item["content"][0]["text"]
            for piece in _pieces(value):
                yield {"type": "response.output_text.delta", "item_id": item["id"], "output_index": index,
                       "content_index": 0, "delta": piece}
            yield {"type": "response.output_text.done", "item_id": item["id"], "output_index": index,
                   "content_index": 0, "text": value}
        elif item["type"] == "function_call":
            yield {"type": "response.output_item.added", "output_index": index,
                   "item": {**item, "arguments": "", "status": "in_progress"}}
            for piece in _pieces(item["arguments"]):
                yield {"type": "response.function_call_arguments.delta", "item_id": item["id"],
                       "output_index": index, "delta": piece}
            yield {"type": "response.function_call_arguments.done", "item_id": item["id"],
                   "output_index": index, "arguments": item["arguments"]}
        else:
            yield {"type": "response.output_item.added", "output_index": index,
                   "item": {**item, "input": "", "status": "in_progress"}}
            for piece in _pieces(item["input"]):
                yield {"type": "response.custom_tool_call_input.delta", "item_id": item["id"],
                       "output_index": index, "delta": piece}
        yield {"type": "response.output_item.done", "output_index": index, "item": item}
    yield {"type": "response.completed",
           "response": _response(model, "completed", list(step.items), step.input_tokens)}


def _pieces(value: str, size: int = 16) -> Iterator[str]:
    for start in range(0, len(value), size):
        yield value[start : start + size]
    if not value:
        yield ""
