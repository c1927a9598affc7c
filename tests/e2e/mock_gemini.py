"""A local HTTP server speaking the Gemini API (``generativelanguage``), scripted per turn, for Gemini CLI.

Gemini CLI talks to it when ``GOOGLE_GEMINI_BASE_URL`` points at ``mock.url``
(with ``GEMINI_API_KEY`` set to anything: the CLI then uses its ``gateway`` auth
type and sends the key as ``x-goog-api-key``). Every request is recorded
(``mock.requests``: path and body). A request of the agent loop — a
``:streamGenerateContent`` call that offers ``tools`` — gets the next scripted
reply, streamed as server-sent events (each text in a few chunks, each function
call in its own chunk, the last chunk with ``finishReason: STOP`` and usage);
any other request (``:generateContent`` side calls such as the next-speaker check
or a compression summary, ``:countTokens``) is a side request: it gets ``side``'s
reply (default: the text ``ok``) and does not consume the script.

Use::

    from tests.e2e.mock_gemini import MockGemini, reply, text, tool

    script = [reply(tool("read_file", file_path="/p/a.ts")), reply(text("done"))]
    with MockGemini(script) as mock:
        env["GOOGLE_GEMINI_BASE_URL"] = mock.url
        ...run the agent...
    mock.loop_requests        # the agent-loop request bodies, in order
    mock.tool_results(1)      # the function responses' outputs of the second loop request

``reply(..., prompt_tokens=N)`` reports ``N`` prompt tokens in that reply's usage
(Gemini CLI compresses its history when the last prompt's token count passes a
share of the model's window). A script step may also be a callable that gets
the request body and returns a reply.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.mock_http import Frames, MockServer, sse

Part = dict[str, Any]
"""One part of a scripted reply: ``{"text": ...}`` or ``{"functionCall": {...}}``."""

_ids = itertools.count(1)


def text(value: str) -> Part:
    """A text part."""
    return {"text": value}


def tool(name: str, **args: Any) -> Part:
    """A function call with a unique id (``call_000001``); ``args`` are its arguments."""
    return {"functionCall": {"id": f"call_{next(_ids):06d}", "name": name, "args": args}}


@dataclass(frozen=True)
class Reply:
    """One scripted model reply: its parts, streamed in order, and the prompt tokens its usage reports."""

    parts: tuple[Part, ...]
    prompt_tokens: int = 10


def reply(*parts: Part, prompt_tokens: int = 10) -> Reply:
    """A scripted reply made of ``parts``."""
    return Reply(tuple(parts), prompt_tokens)


Script = Callable[[Mapping[str, Any]], Reply]
"""A reply chosen from the request body (for replies that depend on what the agent sent)."""


@dataclass
class MockGemini(MockServer[Reply]):
    """The mock server: ``with MockGemini(script) as mock`` serves on ``mock.url`` (the base URL for
    ``GOOGLE_GEMINI_BASE_URL``) until the block ends.

    Args:
        script: The agent-loop replies, in order; a callable gets the request body.
            When the script runs out, loop requests get ``fallback``.
        fallback: The reply after the script (default: a short text, ending the turn).
        side: The reply to every side request (default: the text ``ok``).
    """

    script: Sequence[Reply | Script]
    fallback: Reply = field(default_factory=lambda: reply(text("Done.")))
    side: Reply | Script = field(default_factory=lambda: reply(text("ok")))

    def in_loop(self, path: str, body: Mapping[str, Any]) -> bool:
        """A ``:streamGenerateContent`` request that offers tools."""
        return path.endswith(":streamGenerateContent") and bool(body.get("tools"))

    def get(self, path: str) -> bytes:
        """An empty model list."""
        return b'{"models": []}'

    def post(self, path: str, body: dict[str, Any]) -> bytes | Frames:
        """Chunks of a ``GenerateContentResponse`` for ``:streamGenerateContent``, else one whole (or
        a token count, which is recorded but is no side request)."""
        if path.endswith(":countTokens"):
            self.record(path, body)
            return b'{"totalTokens": 10}'
        step = self.answer(path, body)
        if path.endswith(":streamGenerateContent"):
            return (sse(chunk, end="\r\n\r\n") for chunk in _chunks(step))
        return json.dumps(_whole(step)).encode()

    def texts(self, index: int) -> list[str]:
        """Every text the ``index``-th agent-loop request carries (parts and function responses), in order."""
        return list(_texts(self.loop_requests[index].get("contents", [])))

    def tool_results(self, index: int) -> list[str]:
        """The function responses of the ``index``-th agent-loop request, each as one string."""
        found = []
        for content in self.loop_requests[index].get("contents", []):
            for part in content.get("parts", []) if isinstance(content, dict) else []:
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if isinstance(response, dict):
                    found.append("\n".join(_texts(response.get("response", {}))))
        return found

    def system_text(self, index: int) -> str:
        """The system instruction of the ``index``-th agent-loop request, as one string."""
        return "\n".join(_texts(self.loop_requests[index].get("systemInstruction", {})))


def _texts(value: Any) -> Iterator[str]:
    """Every string in a Gemini API structure (texts, function-response outputs), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in ("role", "name", "id", "thoughtSignature", "functionCall"):
                yield from _texts(item)


def _chunks(step: Reply) -> Iterator[dict[str, Any]]:
    """The stream of ``GenerateContentResponse`` chunks of one reply."""
    usage = {"promptTokenCount": step.prompt_tokens, "candidatesTokenCount": 5,
             "totalTokenCount": step.prompt_tokens + 5}
    pieces: list[Part] = []
    for part in step.parts:
        if "text" in part:
            pieces.extend({"text": piece} for piece in _pieces(part["text"]))
        else:
            pieces.append(part)
    if not pieces:
        pieces.append({"text": ""})
    for number, part in enumerate(pieces, 1):
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": [part]}, "index": 0}
        chunk: dict[str, Any] = {"candidates": [candidate], "modelVersion": "gemini-mock"}
        if number == len(pieces):
            candidate["finishReason"] = "STOP"
            chunk["usageMetadata"] = usage
        yield chunk


def _pieces(value: str, size: int = 24) -> Iterator[str]:
    for start in range(0, len(value), size):
        yield value[start : start + size]
    if not value:
        yield ""


def _whole(step: Reply) -> dict[str, Any]:
    """One non-streamed ``GenerateContentResponse``."""
    return {
        "candidates": [{"content": {"role": "model", "parts": list(step.parts)}, "finishReason": "STOP",
                        "index": 0}],
        "usageMetadata": {"promptTokenCount": step.prompt_tokens, "candidatesTokenCount": 5,
                          "totalTokenCount": step.prompt_tokens + 5},
        "modelVersion": "gemini-mock",
    }
