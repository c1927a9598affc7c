"""A local HTTP server speaking the Anthropic Messages API, scripted per turn, for the real Claude Code CLI.

The CLI (the one ``claude-agent-sdk`` bundles) talks to it when
``ANTHROPIC_BASE_URL`` points here. Every request body is recorded. Requests of
the agent loop — those that offer tools — get the next scripted reply, streamed
as server-sent events when the request asks for a stream; any other request
(titles, quota probes, token counts) gets a short text reply and does not
consume the script. Each reply has its own message id: the CLI merges replies
that share one.

Use::

    with MockMessages([reply(tool("Read", file_path="/p/a.py")), reply(text("done"))]) as mock:
        env["ANTHROPIC_BASE_URL"] = mock.url
        ...
    mock.loop_requests  # the agent-loop request bodies, in order
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tests.mock_http import Frames, MockServer, sse

Block = dict[str, Any]
"""One content block of a scripted reply: ``{"type": "text", ...}`` or ``{"type": "tool_use", ...}``."""

_ids = itertools.count(1)


def text(value: str) -> Block:
    """A text block."""
    return {"type": "text", "text": value}


def pause(seconds: float) -> Block:
    """A pause in the stream before the next block (not part of the reply's content).

    It ends early when the client closes the connection (an interrupted reply), so a
    generous pause costs nothing where the client interrupts, and a loaded machine has
    the whole of it to get there.
    """
    return {"type": "pause", "seconds": seconds}


def tool(name: str, **tool_input: Any) -> Block:
    """A tool_use block with a unique id."""
    return {"type": "tool_use", "id": f"toolu_{next(_ids):06d}", "name": name, "input": tool_input}


@dataclass(frozen=True)
class Reply:
    """One scripted assistant reply: its blocks, streamed in order."""

    blocks: tuple[Block, ...]

    @property
    def content(self) -> list[Block]:
        """The blocks that are content (pauses are only timing)."""
        return [b for b in self.blocks if b["type"] != "pause"]

    @property
    def stop_reason(self) -> str:
        """``tool_use`` when the reply calls a tool, else ``end_turn``."""
        return "tool_use" if any(b["type"] == "tool_use" for b in self.blocks) else "end_turn"


def reply(*blocks: Block) -> Reply:
    """A scripted reply made of ``blocks``."""
    return Reply(tuple(blocks))


Script = Callable[[Mapping[str, Any]], Reply]
"""A reply chosen from the request body (for replies that depend on what the agent sent)."""


@dataclass
class MockMessages(MockServer[Reply]):
    """The mock server: ``with MockMessages(script) as mock`` serves on ``mock.url`` (the base URL for
    ``ANTHROPIC_BASE_URL``) until the block ends.

    Args:
        script: The agent-loop replies, in order; a callable gets the request body.
            When the script runs out, loop requests get ``fallback``.
        fallback: The reply after the script (default: a short text, ending the turn).
        side: The reply to every other request (default: the text ``ok``).
    """

    REQUEST_ID: ClassVar[str | None] = "request-id"

    script: Sequence[Reply | Script]
    fallback: Reply = field(default_factory=lambda: reply(text("Done.")))
    side: Reply | Script = field(default_factory=lambda: reply(text("ok")))

    def in_loop(self, path: str, body: Mapping[str, Any]) -> bool:
        """A ``/v1/messages`` request (not a token count) that offers tools."""
        return path.startswith("/v1/messages") and "count_tokens" not in path and bool(body.get("tools"))

    def post(self, path: str, body: dict[str, Any]) -> bytes | Frames:
        """A message, its event stream when the body asks for one, or a token count."""
        step = self.answer(path, body)
        model = str(body.get("model") or "claude-mock")
        if "count_tokens" in path:
            return b'{"input_tokens": 10}'
        if body.get("stream"):
            return _stream(step, model)
        message = _message(model)
        message.update(content=step.content, stop_reason=step.stop_reason)
        return json.dumps(message).encode()

    def loop_texts(self, index: int) -> list[str]:
        """Every text the ``index``-th agent-loop request carries (messages, tool results), in order."""
        return list(_texts(self.loop_requests[index].get("messages", [])))

    def system_text(self, index: int) -> str:
        """The system prompt of the ``index``-th agent-loop request, as one string."""
        return "\n".join(_texts(self.loop_requests[index].get("system", [])))


def _texts(value: Any) -> Iterator[str]:
    """Every string under ``text`` / ``content`` keys of a Messages API structure, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for key in ("text", "content"):
            if key in value:
                yield from _texts(value[key])


def _message(model: str) -> dict[str, Any]:
    return {
        "id": f"msg_{next(_ids):08d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }


def _events(step: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE events of a streamed reply; text and tool input arrive in a few deltas each."""
    yield "message_start", {"type": "message_start", "message": _message(model)}
    index = -1
    for block in step.blocks:
        if block["type"] == "pause":
            yield "pause", block
            continue
        index += 1
        if block["type"] == "text":
            yield "content_block_start", {
                "type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""},
            }
            for piece in _pieces(block["text"]):
                delta = {"type": "text_delta", "text": piece}
                yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            yield "content_block_start", {
                "type": "content_block_start", "index": index, "content_block": start,
            }
            for piece in _pieces(json.dumps(block["input"])):
                delta = {"type": "input_json_delta", "partial_json": piece}
                yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": step.stop_reason, "stop_sequence": None},
        "usage": {"output_tokens": 20},
    }
    yield "message_stop", {"type": "message_stop"}


def _pieces(value: str, size: int = 16) -> Iterator[str]:
    for start in range(0, len(value), size):
        yield value[start : start + size]
    if not value:
        yield ""


def _stream(step: Reply, model: str) -> Frames:
    for name, data in _events(step, model):
        yield float(data["seconds"]) if name == "pause" else sse(data, name)
