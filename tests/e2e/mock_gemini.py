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
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

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
class MockGemini:
    """The mock server: ``with MockGemini(script) as mock`` serves on ``mock.url`` until the block ends.

    Args:
        script: The agent-loop replies, in order; a callable gets the request body.
            When the script runs out, loop requests get ``fallback``.
        fallback: The reply after the script (default: a short text, ending the turn).
        side: The reply to every side request (default: the text ``ok``).
    """

    script: Sequence[Reply | Script]
    fallback: Reply = field(default_factory=lambda: reply(text("Done.")))
    side: Reply | Script = field(default_factory=lambda: reply(text("ok")))
    requests: list[dict[str, Any]] = field(default_factory=list)
    loop_requests: list[dict[str, Any]] = field(default_factory=list)
    side_requests: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL for ``GOOGLE_GEMINI_BASE_URL``."""
        assert self._server is not None, "the mock server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> MockGemini:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def answer(self, path: str, body: dict[str, Any]) -> Reply:
        """Record ``body`` and choose its reply (the next scripted one for agent-loop requests)."""
        with self._lock:
            self.requests.append({"path": path, "body": body})
            if not path.endswith(":streamGenerateContent") or not body.get("tools"):
                self.side_requests.append(body)
                side = self.side
                loop = False
            else:
                index = len(self.loop_requests)
                self.loop_requests.append(body)
                loop = True
        if not loop:
            return side if isinstance(side, Reply) else side(body)
        step = self.script[index] if index < len(self.script) else self.fallback
        return step if isinstance(step, Reply) else step(body)

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


def _handler(mock: MockGemini) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the test output is the requests the mock recorded."""

        def do_GET(self) -> None:
            self._send(200, b'{"models": []}')

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"raw": raw.decode("utf-8", "replace")}
            path = self.path.split("?", 1)[0]
            if path.endswith(":countTokens"):
                with mock._lock:
                    mock.requests.append({"path": path, "body": body})
                self._send(200, b'{"totalTokens": 10}')
                return
            step = mock.answer(path, body)
            if path.endswith(":streamGenerateContent"):
                self._stream(step)
            else:
                self._send(200, json.dumps(_whole(step)).encode())

        def _send(self, status: int, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def _stream(self, step: Reply) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            try:
                for chunk in _chunks(step):
                    self.wfile.write(f"data: {json.dumps(chunk)}\r\n\r\n".encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading

    return Handler
