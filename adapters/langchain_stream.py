"""LangChain model streams, watched for streamed rules (TTSR): the callbacks ``RuleweaveMiddleware`` uses.

A callback handler with ``raise_error=True`` sees each streamed chunk (v1
``on_llm_new_token``) or protocol event (v2 ``on_stream_event``), turns it
into text, reasoning and tool-call deltas, feeds ``session.watch`` and asks
``session.route`` what to do: a ``retry`` raises ``StreamInterruptError``, which
stops the model call so the middleware can call it again with the rule.

The handler reaches the model call through LangChain's configure hooks (a
context variable ``watching`` sets around the call), never by copying the
model: a model that keeps state on its instance (``FakeMessagesListChatModel``
counts its replies there) must see the same instance on every call.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ruleweave.adapters.seams import (
    MissingDependencyError,
    RuleSession,
    RuleweaveError,
    Source,
    TtsrAction,
    TtsrHit,
)

try:
    from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
    from langchain_core.messages import AIMessageChunk
    from langchain_core.outputs import ChatGenerationChunk
    from langchain_core.tracers.context import register_configure_hook
except ImportError as exc:  # pragma: no cover - exercised by re-importing without langchain
    raise MissingDependencyError("langchain", "langchain") from exc

# The watcher of the model call running in this context; LangChain adds it to
# the callbacks of every run configured while it is set (local to that run).
_WATCHER: ContextVar[BaseCallbackHandler | None] = ContextVar("ruleweave_stream_watcher", default=None)
register_configure_hook(_WATCHER, False)


@contextmanager
def watching(handler: BaseCallbackHandler) -> Iterator[None]:
    """Watch the model calls made inside the block with ``handler`` (sync and async alike)."""
    token = _WATCHER.set(handler)
    try:
        yield
    finally:
        _WATCHER.reset(token)

class StreamInterruptError(RuleweaveError):
    """Raised from the model's stream callback to abort it; caught by ``wrap_model_call``.

    An ``Exception`` (LangChain's async model path mishandles other
    ``BaseException``s), so retry or fallback middleware listed *after* this one
    would catch it: list those first. A ``RuleweaveError`` like every error a
    caller can see.
    """

    def __init__(self, hit: TtsrHit) -> None:
        names = ", ".join(rule.name for rule in hit.rules)
        super().__init__(f"ruleweave stopped the model's stream for streamed rule(s): {names}")
        self.hit = hit


StreamInterrupt = StreamInterruptError
"""The old name of ``StreamInterruptError``."""


class _QuietInterrupts(logging.Filter):
    """Drops LangChain's "Error in ... callback" warning for our own stream interrupts.

    LangChain logs every exception a callback raises before re-raising it; an
    interrupt is the designed way to stop a stream, not an error.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        return not (
            isinstance(args, tuple)
            and len(args) == 3
            and args[0] in ("StreamWatcher", "AsyncStreamWatcher")
            and str(args[2]).startswith(f"{StreamInterruptError.__name__}(")
        )


def _quiet_interrupt_warnings() -> None:
    """Install ``_QuietInterrupts`` on LangChain's callback logger, once per process."""
    logger = logging.getLogger("langchain_core.callbacks.manager")
    if not any(type(f).__name__ == _QuietInterrupts.__name__ for f in logger.filters):
        logger.addFilter(_QuietInterrupts())


_quiet_interrupt_warnings()


@dataclass(frozen=True, slots=True)
class _Delta:
    source: Source
    text: str
    tool: str | None = None
    call_id: str | None = None
    args: str | None = None


@dataclass(slots=True)
class _StreamedCall:
    name: str | None = None
    call_id: str | None = None


class _Deltas:
    """Turns one model call's stream (v1 chunks or v2 protocol events) into watch deltas."""

    def __init__(self) -> None:
        self._calls: dict[Any, _StreamedCall] = {}

    def _tool(self, key: Any, name: Any, call_id: Any, args: Any) -> _Delta | None:
        """Tool-call chunks carry the name and id once (first chunk), then argument text by index."""
        call = self._calls.setdefault(key, _StreamedCall())
        if name:
            call.name = str(name)
        if call_id:
            call.call_id = str(call_id)
        piece = args if isinstance(args, str) else ""
        if not piece:
            return None
        # The watcher keeps the argument text itself (args=None): passing the
        # growing text at every delta would copy it quadratically.
        return _Delta("tool", piece, call.name, call.call_id, None)

    def from_token(self, token: Any, chunk: Any) -> Iterator[_Delta]:
        """Deltas of one ``on_llm_new_token`` call."""
        message = chunk.message if isinstance(chunk, ChatGenerationChunk) else None
        if message is None:
            if isinstance(token, str) and token:
                yield _Delta("text", token)
            return
        for block in message.content_blocks:
            if block["type"] == "text" and block["text"]:
                yield _Delta("text", block["text"])
            elif block["type"] == "reasoning" and block.get("reasoning"):
                yield _Delta("thinking", block.get("reasoning", ""))
        if isinstance(message, AIMessageChunk):
            for call in message.tool_call_chunks:
                index = call.get("index")
                key = index if index is not None else call.get("id")
                delta = self._tool(key, call.get("name"), call.get("id"), call.get("args"))
                if delta is not None:
                    yield delta

    def from_event(self, event: Any) -> Iterator[_Delta]:
        """Deltas of one ``on_stream_event`` call (the v2 streaming protocol)."""
        if not isinstance(event, Mapping):
            return
        kind = event.get("event")
        index = event.get("index")
        if kind == "content-block-start":
            block = event.get("content")
            if not isinstance(block, Mapping):
                return
            btype = block.get("type")
            if btype == "text" and block.get("text"):
                yield _Delta("text", str(block["text"]))
            elif btype == "reasoning" and block.get("reasoning"):
                yield _Delta("thinking", str(block["reasoning"]))
            elif btype in ("tool_call_chunk", "tool_call"):
                args = block.get("args")
                delta = self._tool(index, block.get("name"), block.get("id"),
                                   args if isinstance(args, str) else "")
                if delta is not None:
                    yield delta
        elif kind == "content-block-delta":
            delta = event.get("delta")
            if not isinstance(delta, Mapping):
                return
            dtype = delta.get("type")
            if dtype == "text-delta" and delta.get("text"):
                yield _Delta("text", str(delta["text"]))
            elif dtype == "reasoning-delta" and delta.get("reasoning"):
                yield _Delta("thinking", str(delta["reasoning"]))
            elif dtype == "tool-call-delta":
                found = self._tool(index, None, None, delta.get("args"))
                if found is not None:
                    yield found


class Watch:
    """One model call's stream: its deltas, the session that routes its hits, whether any came."""

    def __init__(self, session: RuleSession) -> None:
        self.session = session
        self.deltas = _Deltas()
        self.streamed = False


class StreamWatcher(BaseCallbackHandler):
    """Sync model-stream callback feeding ``session.watch``."""

    raise_error = True
    run_inline = True

    def __init__(self, watch: Watch) -> None:
        self._watch = watch

    def _feed(self, deltas: Iterator[_Delta]) -> None:
        session = self._watch.session
        for d in deltas:
            self._watch.streamed = True
            hit = session.watch(d.source, d.text, tool=d.tool, call_id=d.call_id, args=d.args)
            if hit is not None and session.route(hit).action is TtsrAction.RETRY:
                raise StreamInterruptError(hit)

    def on_llm_new_token(self, token: Any, *, chunk: Any = None, **kwargs: Any) -> None:
        """Watch one streamed chunk (text, reasoning and tool-call deltas)."""
        self._feed(self._watch.deltas.from_token(token, chunk))

    def on_stream_event(self, event: Any, **kwargs: Any) -> None:
        """Watch one v2 protocol event."""
        self._feed(self._watch.deltas.from_event(event))


class AsyncStreamWatcher(AsyncCallbackHandler):
    """Async model-stream callback feeding ``session.awatch``."""

    raise_error = True
    run_inline = True

    def __init__(self, watch: Watch) -> None:
        self._watch = watch

    async def _feed(self, deltas: Iterator[_Delta]) -> None:
        session = self._watch.session
        for d in deltas:
            self._watch.streamed = True
            hit = await session.awatch(d.source, d.text, tool=d.tool, call_id=d.call_id, args=d.args)
            if hit is not None and (await session.aroute(hit)).action is TtsrAction.RETRY:
                raise StreamInterruptError(hit)

    async def on_llm_new_token(self, token: Any, *, chunk: Any = None, **kwargs: Any) -> None:
        """Watch one streamed chunk (text, reasoning and tool-call deltas)."""
        await self._feed(self._watch.deltas.from_token(token, chunk))

    async def on_stream_event(self, event: Any, **kwargs: Any) -> None:
        """Watch one v2 protocol event."""
        await self._feed(self._watch.deltas.from_event(event))


