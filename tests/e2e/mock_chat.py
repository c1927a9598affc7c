"""A local HTTP server speaking the OpenAI Chat Completions API, scripted per turn, for real CLI agents.

Qwen Code, Cline and OpenCode talk to it when their OpenAI-compatible base URL
points at ``mock.url`` (which ends in ``/v1``). Every request is recorded
(``mock.requests``: path and body). A request of the agent loop — by default
one that offers ``tools`` — gets the next scripted reply; any other request
(titles, next-speaker checks, summaries) is a side request: it gets ``side``'s
reply (default: the text ``ok``) and does not consume the script. Replies are
streamed as server-sent ``chat.completion.chunk`` events when the request asks
for a stream (text and tool-call arguments in a few deltas each, then the
finish reason, a usage chunk, and ``data: [DONE]``), else sent as one
``chat.completion``. ``GET /v1/models`` lists the model names the mock has seen.

Use::

    from tests.e2e.mock_chat import MockChat, reply, text, tool

    script = [reply(tool("read_file", file_path="/p/a.ts")), reply(text("done"))]
    with MockChat(script) as mock:
        env["OPENAI_BASE_URL"] = mock.url          # http://127.0.0.1:<port>/v1
        ...run the agent...
    mock.loop_requests        # the agent-loop request bodies, in order
    mock.tool_results(1)      # the tool messages' texts of the second loop request
    mock.side_requests        # every other request body

``reply(..., prompt_tokens=N)`` reports ``N`` prompt tokens in that reply's usage,
which is how an agent that compacts above a token threshold can be made to compact.
A script step may also be a callable that gets the request body and returns a reply.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tests.mock_http import Frames, MockServer, sse

Block = dict[str, Any]
"""One part of a scripted reply: ``{"type": "text", ...}``, ``{"type": "tool_call", ...}`` or a pause."""

_ids = itertools.count(1)


def text(value: str) -> Block:
    """A text part (the assistant message's ``content``)."""
    return {"type": "text", "text": value}


def tool(name: str, **arguments: Any) -> Block:
    """A tool call with a unique id (``call_000001``); ``arguments`` become its JSON arguments."""
    return {"type": "tool_call", "id": f"call_{next(_ids):06d}", "name": name, "arguments": arguments}


def pause(seconds: float) -> Block:
    """A pause in the stream before the next part; it ends early when the client closes the connection."""
    return {"type": "pause", "seconds": seconds}


@dataclass(frozen=True)
class Reply:
    """One scripted assistant reply: its parts, streamed in order, and the usage it reports."""

    blocks: tuple[Block, ...]
    prompt_tokens: int = 10

    @property
    def content(self) -> str | None:
        """The text parts joined (``None`` when there are none)."""
        texts = [b["text"] for b in self.blocks if b["type"] == "text"]
        return "".join(texts) if texts else None

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        """The tool calls, in the message's ``tool_calls`` shape."""
        return [
            {"id": b["id"], "type": "function",
             "function": {"name": b["name"], "arguments": json.dumps(b["arguments"])}}
            for b in self.blocks if b["type"] == "tool_call"
        ]

    @property
    def finish_reason(self) -> str:
        """``tool_calls`` when the reply calls a tool, else ``stop``."""
        return "tool_calls" if any(b["type"] == "tool_call" for b in self.blocks) else "stop"


def reply(*blocks: Block, prompt_tokens: int = 10) -> Reply:
    """A scripted reply made of ``blocks``, reporting ``prompt_tokens`` in its usage."""
    return Reply(tuple(blocks), prompt_tokens)


Script = Callable[[Mapping[str, Any]], Reply]
"""A reply chosen from the request body (for replies that depend on what the agent sent)."""


def offers_tools(path: str, body: Mapping[str, Any]) -> bool:
    """The default test for an agent-loop request: a chat completion that offers tools."""
    return path.endswith("/chat/completions") and bool(body.get("tools"))


@dataclass
class MockChat(MockServer[Reply]):
    """The mock server: ``with MockChat(script) as mock`` serves on ``mock.url`` until the block ends.

    Args:
        script: The agent-loop replies, in order; a callable gets the request body.
            When the script runs out, loop requests get ``fallback``.
        fallback: The reply after the script (default: a short text, ending the turn).
        side: The reply to every request that is not an agent-loop one (default: the text ``ok``).
        is_loop: ``(path, body)`` → whether the request belongs to the agent loop
            (default ``offers_tools``).
    """

    URL_PATH: ClassVar[str] = "/v1"  # the base URL for ``OPENAI_BASE_URL``
    REQUEST_ID: ClassVar[str | None] = "x-request-id"

    script: Sequence[Reply | Script]
    fallback: Reply = field(default_factory=lambda: reply(text("Done.")))
    side: Reply | Script = field(default_factory=lambda: reply(text("ok")))
    is_loop: Callable[[str, Mapping[str, Any]], bool] = offers_tools

    def in_loop(self, path: str, body: Mapping[str, Any]) -> bool:
        """``is_loop``'s answer."""
        return self.is_loop(path, body)

    def get(self, path: str) -> bytes:
        """``/models`` lists the model names requested so far; every GET is recorded."""
        self.record(path, {})
        with self._lock:
            models = sorted({str(r["body"]["model"]) for r in self.requests if r["body"].get("model")})
        if not path.endswith("/models"):
            return b"{}"
        names = models or ["mock-model"]
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "mock"} for m in names]
        return json.dumps({"object": "list", "data": data}).encode()

    def post(self, path: str, body: dict[str, Any]) -> bytes | Frames:
        """A ``chat.completion``, or its ``chat.completion.chunk`` stream when the body asks for one."""
        step = self.answer(path, body)
        model = str(body.get("model") or "mock-model")
        return _stream(step, model) if body.get("stream") else json.dumps(_completion(step, model)).encode()

    def loop_texts(self, index: int) -> list[str]:
        """Every text the ``index``-th agent-loop request's messages carry, in order."""
        return [t for message in self.loop_requests[index].get("messages", []) for t in _texts(message)]

    def tool_results(self, index: int) -> list[str]:
        """The text of each ``tool`` message of the ``index``-th agent-loop request, in order."""
        return ["".join(_texts(m)) for m in self.loop_requests[index].get("messages", [])
                if isinstance(m, dict) and m.get("role") == "tool"]

    def system_text(self, index: int) -> str:
        """The system messages of the ``index``-th agent-loop request, as one string."""
        messages = self.loop_requests[index].get("messages", [])
        system = [m for m in messages if isinstance(m, dict) and m.get("role") in ("system", "developer")]
        return "\n".join(t for m in system for t in _texts(m))


def _texts(message: Any) -> Iterator[str]:
    """The texts of one chat message: its ``content`` string or its text parts."""
    if not isinstance(message, dict):
        return
    content = message.get("content")
    if isinstance(content, str):
        yield content
    elif isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                yield part["text"]


def _chunk(cid: str, model: str, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _usage(step: Reply) -> dict[str, int]:
    return {"prompt_tokens": step.prompt_tokens, "completion_tokens": 20,
            "total_tokens": step.prompt_tokens + 20}


def _events(step: Reply, model: str) -> Iterator[dict[str, Any]]:
    """The SSE data of a streamed reply; ``{"pause": seconds}`` items are timing, not data."""
    cid = f"chatcmpl-{next(_ids):08d}"
    yield _chunk(cid, model, {"role": "assistant", "content": ""})
    index = -1
    for block in step.blocks:
        if block["type"] == "pause":
            yield {"pause": block["seconds"]}
        elif block["type"] == "text":
            for piece in _pieces(block["text"]):
                yield _chunk(cid, model, {"content": piece})
        else:
            index += 1
            start = {"index": index, "id": block["id"], "type": "function",
                     "function": {"name": block["name"], "arguments": ""}}
            yield _chunk(cid, model, {"tool_calls": [start]})
            for piece in _pieces(json.dumps(block["arguments"])):
                yield _chunk(cid, model, {"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield _chunk(cid, model, {}, step.finish_reason)
    yield {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
           "choices": [], "usage": _usage(step)}


def _completion(step: Reply, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": step.content}
    if step.tool_calls:
        message["tool_calls"] = step.tool_calls
    return {"id": f"chatcmpl-{next(_ids):08d}", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": message, "finish_reason": step.finish_reason}],
            "usage": _usage(step)}


def _pieces(value: str, size: int = 16) -> Iterator[str]:
    for start in range(0, len(value), size):
        yield value[start : start + size]


def _stream(step: Reply, model: str) -> Frames:
    for data in _events(step, model):
        yield float(data["pause"]) if "pause" in data else sse(data)
    yield sse("[DONE]")
