"""The HTTP skeleton every scripted model-API mock shares (``mock_chat``, ``mock_gemini``, ``mock_responses``,
``mock_messages``): a threaded server on a free loopback port, each request recorded, agent-loop requests
answered from a script, replies as JSON or server-sent events, and pauses that end when the client closes.

A mock is a dataclass subclass of ``MockServer`` that declares its API's fields (``script``,
``fallback``, ``side``) and shape: ``in_loop`` (which requests belong to the agent loop), ``post``
(the answer to a POST: JSON bytes, or the stream's frames), and, where the API has them, ``get`` and
``URL_PATH``. ``with Mock(script) as mock`` serves on ``mock.url`` until the block ends.
"""

from __future__ import annotations

import itertools
import json
import select
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeVar

R = TypeVar("R")
"""A mock's scripted reply type."""

Frames = Iterable[bytes | float]
"""A streamed answer: each ``bytes`` is written as it is (one server-sent event), each ``float`` is a pause
of that many seconds, cut short when the client closes the connection."""

_request_ids = itertools.count(1)


def sse(data: Mapping[str, Any] | str, event: str | None = None, *, end: str = "\n\n") -> bytes:
    """One server-sent event: ``event: <event>`` (if any) and ``data: <data as JSON>`` (a string as it is).

    Args:
        data: The event's data.
        event: The event's name, for APIs that send one.
        end: What ends the event (Gemini's server sends ``\\r\\n\\r\\n``).

    Returns:
        The event's bytes.
    """
    line = data if isinstance(data, str) else json.dumps(data)
    head = f"event: {event}\n" if event is not None else ""
    return f"{head}data: {line}{end}".encode()


class MockServer(Generic[R]):
    """A scripted model API on ``127.0.0.1`` (see the module docstring).

    Attributes:
        script: The agent-loop replies, in order; a callable gets the request body and returns one.
        fallback: The reply to agent-loop requests after the script.
        side: The reply to every other request (or a callable, as in ``script``).
        requests: Every request, ``{"path": ..., "body": ...}``, in order.
        loop_requests: The agent-loop request bodies, in order.
        side_requests: The other request bodies, in order.
    """

    URL_PATH: ClassVar[str] = ""
    """What ``url`` adds after ``http://<host>:<port>`` (``/v1`` for the OpenAI APIs)."""
    REQUEST_ID: ClassVar[str | None] = None
    """The response header naming each response (``x-request-id``), if the API sends one."""

    script: Sequence[R | Callable[[Mapping[str, Any]], R]]
    fallback: R
    side: R | Callable[[Mapping[str, Any]], R]
    requests: list[dict[str, Any]]
    loop_requests: list[dict[str, Any]]
    side_requests: list[dict[str, Any]]

    def __post_init__(self) -> None:
        self.requests, self.loop_requests, self.side_requests = [], [], []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL the agent is pointed at."""
        assert self._server is not None, "the mock server is not running"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self.URL_PATH}"

    def __enter__(self) -> Self:
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

    def in_loop(self, path: str, body: Mapping[str, Any]) -> bool:
        """Whether a POST belongs to the agent loop (it gets the next scripted reply)."""
        raise NotImplementedError

    def post(self, path: str, body: dict[str, Any]) -> bytes | Frames:
        """The answer to a POST: a JSON body, or the frames of a stream (see ``answer``)."""
        raise NotImplementedError

    def get(self, path: str) -> bytes:
        """The JSON body answering a GET."""
        return b"{}"

    def record(self, path: str, body: dict[str, Any]) -> None:
        """Record a request that gets no scripted reply."""
        with self._lock:
            self.requests.append({"path": path, "body": body})

    def answer(self, path: str, body: dict[str, Any]) -> R:
        """Record ``body`` and choose its reply: the next scripted one in the agent loop, else ``side``."""
        loop = self.in_loop(path, body)
        with self._lock:
            self.requests.append({"path": path, "body": body})
            if loop:
                index = len(self.loop_requests)
                self.loop_requests.append(body)
                step = self.script[index] if index < len(self.script) else self.fallback
            else:
                self.side_requests.append(body)
                step = self.side
        return step(body) if callable(step) else step


def _handler(mock: MockServer[Any]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the test output is the requests the mock recorded."""

        def do_HEAD(self) -> None:
            self._send(b"")

        def do_GET(self) -> None:
            self._send(mock.get(self.path.split("?", 1)[0]))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {"raw": raw.decode("utf-8", "replace")}
            answer = mock.post(self.path.split("?", 1)[0], body if isinstance(body, dict) else {"raw": body})
            if isinstance(answer, bytes):
                self._send(answer)
            else:
                self._stream(answer)

        def _request_id(self) -> None:
            if mock.REQUEST_ID is not None:
                self.send_header(mock.REQUEST_ID, f"req_{next(_request_ids):08d}")

        def _send(self, payload: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self._request_id()
            self.end_headers()
            self.wfile.write(payload)

        def _stream(self, frames: Frames) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self._request_id()
            self.end_headers()
            self.close_connection = True
            try:
                for frame in frames:
                    if isinstance(frame, float):
                        if self._client_left(frame):
                            return
                        continue
                    self.wfile.write(frame)
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading: an interrupted reply

        def _client_left(self, seconds: float) -> bool:
            """Wait up to ``seconds``; ``True`` as soon as the client has closed the connection."""
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                ready, _, _ = select.select([self.connection], [], [], min(left, 0.05))
                if ready:
                    try:
                        if not self.connection.recv(1, socket.MSG_PEEK):
                            return True
                    except OSError:
                        return True
                    time.sleep(min(left, 0.05))  # bytes waiting, not a close: keep holding
            return False

    return Handler
