"""pydantic-ai streamed model responses, watched for streamed rules (TTSR): what ``RuleweaveCapability`` uses.

``WatchedModel`` wraps the model serving a run's requests (``get_wrapper_model``);
its ``request_stream`` hands out one ``StreamedResponse`` made of inner streams.
Text, thinking and tool-argument deltas are fed to the session; a hit it
routes to ``retry`` closes the inner stream and opens a new one with the
rule added to the request's instructions (and kept for the rest of the
conversation). The response the run records — ``get()`` — is the last inner
stream's; deltas of a stopped stream already reached the consumer.
``reply_deltas`` gives the same watch calls for a whole reply (not streamed).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import datetime
from typing import Any

from ruleweave.adapters.seams import MissingDependencyError, RuleSession, TtsrRoute

try:
    from pydantic_ai import RunContext
    from pydantic_ai.messages import (
        BaseToolCallPart,
        InstructionPart,
        ModelMessage,
        ModelResponse,
        ModelResponsePart,
        ModelResponseStreamEvent,
        PartDeltaEvent,
        PartStartEvent,
        TextPart,
        TextPartDelta,
        ThinkingPart,
        ThinkingPartDelta,
        ToolCallPartDelta,
    )
    from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
    from pydantic_ai.models.wrapper import WrapperModel
    from pydantic_ai.settings import ModelSettings
    from pydantic_ai.usage import RequestUsage
except ImportError as exc:  # pragma: no cover - exercised by re-importing without pydantic-ai
    raise MissingDependencyError("pydantic-ai", "pydantic-ai") from exc

from ruleweave.adapters._streamed import Delta, first_retry, keep_text


class WatchedModel(WrapperModel):
    """A model whose streams are watched; a retry hit restarts the stream with the rule.

    Args:
        wrapped: The model serving the request.
        session: The run's session.
    """

    def __init__(self, wrapped: Model, session: RuleSession) -> None:
        super().__init__(wrapped)
        self.session = session

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        """The wrapped model's stream, restarted with the rule on a retry hit."""

        def open_inner(params: ModelRequestParameters) -> Any:
            return self.wrapped.request_stream(messages, model_settings, params, run_context)

        stream = _RestartingStream(model_request_parameters, open_inner, self.session)
        try:
            await stream.open(model_request_parameters)
            yield stream
        finally:
            await stream.close_inner()


class _RestartingStream(StreamedResponse):
    """One model response made of inner streams: a retry hit closes the current one and opens the next."""

    def __init__(
        self,
        model_request_parameters: ModelRequestParameters,
        open_inner: Callable[[ModelRequestParameters], Any],
        session: RuleSession,
    ) -> None:
        super().__init__(model_request_parameters=model_request_parameters)
        self._open_inner = open_inner
        self._session = session
        self._stack: AsyncExitStack | None = None
        self._inner: StreamedResponse | None = None
        self._inner_events: AsyncIterator[ModelResponseStreamEvent] | None = None
        self._texts: list[str] = []
        self._spent = RequestUsage()
        self._deadline: Any = None

    @property
    def inner(self) -> StreamedResponse:
        if self._inner is None:  # pragma: no cover - opened before it is handed out
            raise RuntimeError("the stream is not open")
        return self._inner

    async def open(self, params: ModelRequestParameters) -> None:
        """Open an inner stream for ``params``."""
        stack = AsyncExitStack()
        inner: StreamedResponse = await stack.enter_async_context(self._open_inner(params))
        self._inner, self._stack = inner, stack
        if self._deadline is not None:
            inner._enforce_request_deadline(self._deadline)

    async def close_inner(self) -> None:
        """Close the current inner stream and its iterator."""
        events, stack = self._inner_events, self._stack
        self._inner_events, self._stack = None, None
        closing = getattr(events, "aclose", None)
        if closing is not None:
            await closing()
        if stack is not None:
            await stack.aclose()

    def _enforce_request_deadline(self, deadline: Any) -> None:
        self._deadline = deadline
        self.inner._enforce_request_deadline(deadline)

    def __aiter__(self) -> AsyncIterator[ModelResponseStreamEvent]:
        if self._event_iterator is None:
            self._event_iterator = self._watched()
        return self._event_iterator

    async def _watched(self) -> AsyncIterator[ModelResponseStreamEvent]:
        while True:
            inner = self.inner
            self._inner_events = aiter(inner)
            calls: dict[int, tuple[str | None, str | None]] = {}
            retry: TtsrRoute | None = None
            async for event in self._inner_events:
                retry = await first_retry(self._session, _event_deltas(event, calls))
                if retry is not None:
                    break
                if self._first_chunk_monotonic is None:
                    self._first_chunk_monotonic = time.perf_counter()
                self.final_result_event = inner.final_result_event
                yield event
            if retry is None:
                return
            self._spent = self._spent + inner.usage
            self._texts.append(retry.text)
            await keep_text(self._session, retry.text)
            await self.close_inner()
            self.final_result_event = None
            await self.open(with_instructions(self.model_request_parameters, self._texts))

    async def _get_event_iterator(self) -> AsyncIterator[ModelResponseStreamEvent]:
        async for event in self._watched():  # pragma: no cover - __aiter__ is overridden
            yield event

    def get(self) -> ModelResponse:
        """The current inner stream's response (usage of stopped streams included)."""
        response = self.inner.get()
        if not self._spent.has_values():
            return response
        return dataclasses.replace(response, usage=response.usage + self._spent)

    @property
    def usage(self) -> RequestUsage:
        """Usage so far, stopped streams included."""
        return self.inner.usage + self._spent

    @property
    def cancelled(self) -> bool:
        """Whether the current inner stream was cancelled."""
        return self.inner.cancelled

    async def cancel(self) -> None:
        """Cancel the current inner stream."""
        await self.inner.cancel()

    async def close_stream(self) -> None:
        """Close the current inner stream's provider stream."""
        await self.inner.close_stream()

    def get_stream_cancel_errors(self) -> tuple[type[BaseException], ...]:
        """The inner stream's cancel-teardown errors."""
        return self.inner.get_stream_cancel_errors()

    @property
    def model_name(self) -> str:
        """The inner stream's model name."""
        return self.inner.model_name

    @property
    def provider_name(self) -> str | None:
        """The inner stream's provider name."""
        return self.inner.provider_name

    @property
    def provider_url(self) -> str | None:
        """The inner stream's provider URL."""
        return self.inner.provider_url

    @property
    def timestamp(self) -> datetime:
        """The inner stream's timestamp."""
        return self.inner.timestamp


# -- translation helpers ----------------------------------------------------------------------


def _event_deltas(event: Any, calls: dict[int, tuple[str | None, str | None]]) -> Iterator[Delta]:
    """The watch calls of one stream event (tool calls named by their start event, by part index)."""
    if isinstance(event, PartStartEvent):
        part = event.part
        if isinstance(part, TextPart) and part.content:
            yield "text", part.content, None, None, None
        elif isinstance(part, ThinkingPart) and part.content:
            yield "thinking", part.content, None, None, None
        elif isinstance(part, BaseToolCallPart):
            calls[event.index] = (part.tool_name, part.tool_call_id)
            if isinstance(part.args, str) and part.args:
                yield "tool", part.args, part.tool_name, part.tool_call_id, None
    elif isinstance(event, PartDeltaEvent):
        delta = event.delta
        if isinstance(delta, TextPartDelta) and delta.content_delta:
            yield "text", delta.content_delta, None, None, None
        elif isinstance(delta, ThinkingPartDelta) and delta.content_delta:
            yield "thinking", delta.content_delta, None, None, None
        elif isinstance(delta, ToolCallPartDelta):
            name, call_id = calls.get(event.index, (None, None))
            name = name or delta.tool_name_delta
            call_id = call_id or delta.tool_call_id
            calls[event.index] = (name, call_id)
            if isinstance(delta.args_delta, str) and delta.args_delta:
                yield "tool", delta.args_delta, name, call_id, None


def reply_deltas(parts: Sequence[ModelResponsePart]) -> Iterator[Delta]:
    """The watch calls of a whole reply: its text, its thinking, each complete tool call."""
    for part in parts:
        if isinstance(part, TextPart) and part.content:
            yield "text", part.content, None, None, None
        elif isinstance(part, ThinkingPart) and part.content:
            yield "thinking", part.content, None, None, None
        elif isinstance(part, BaseToolCallPart):
            yield "tool", "", part.tool_name, part.tool_call_id, part.args_as_json_str()


def with_instructions(params: ModelRequestParameters, texts: Sequence[str]) -> ModelRequestParameters:
    """``params`` with ``texts`` added to its instructions."""
    parts = [*(params.instruction_parts or []), *(InstructionPart(text, dynamic=True) for text in texts)]
    return dataclasses.replace(params, instruction_parts=InstructionPart.sorted(parts))
