"""OpenAI Agents SDK models, watched for streamed rules (TTSR): the model wrapper ``RuleweaveAgents`` uses.

``WatchedModel`` wraps a ``Model``. ``stream_response`` feeds the session the
``response.output_text.delta``, reasoning and
``response.function_call_arguments.delta`` events (a function call named by
its ``response.output_item.added`` event); ``get_response`` feeds it the whole
reply. A hit the session routes to ``retry`` stops the reply and calls the
inner model again with the rule added to the system instructions, where it
stays for the rest of the conversation (kept in the store).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from ruleweave.adapters.seams import MissingDependencyError, RuleSession, TtsrRoute

try:
    from agents import Model, ModelResponse, ModelSettings, ModelTracing, Tool
    from agents.items import TResponseInputItem, TResponseStreamEvent
except ImportError as exc:  # pragma: no cover - exercised by re-importing without the SDK
    raise MissingDependencyError("openai-agents", "openai-agents") from exc

from ruleweave.adapters._streamed import Delta, first_retry, joined, keep_text, kept_texts


class WatchedModel(Model):
    """A model whose replies are watched for streamed rules; a ``retry`` hit calls it again.

    Args:
        inner: The model to wrap.
        current_session: The session of the conversation a call belongs to.
    """

    def __init__(self, inner: Model, current_session: Callable[[], RuleSession]) -> None:
        self.inner = inner
        self.current_session = current_session

    async def close(self) -> None:
        """Close the inner model."""
        await self.inner.close()

    async def _cleanup_on_run_end(self, owner: object) -> None:
        await self.inner._cleanup_on_run_end(owner)

    def get_retry_advice(self, request: Any) -> Any:
        """The inner model's retry advice."""
        return self.inner.get_retry_advice(request)

    async def _begin(self) -> tuple[RuleSession, list[str]]:
        """The conversation's session and the rule texts it keeps in the system instructions."""
        session = self.current_session()
        return session, await kept_texts(session)

    async def get_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: Any,
        handoffs: list[Any],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: Any,
    ) -> ModelResponse:
        """The inner model's reply, asked again with the rule while a whole reply fires a retry."""
        session, texts = await self._begin()
        while True:
            response = await self.inner.get_response(
                joined(system_instructions, *texts) or None, input, model_settings, tools, output_schema,
                handoffs, tracing, previous_response_id=previous_response_id,
                conversation_id=conversation_id, prompt=prompt,
            )
            retry = await first_retry(session, _reply_deltas(response.output))
            if retry is None:
                return response
            texts.append(retry.text)
            await keep_text(session, retry.text)

    async def stream_response(
        self,
        system_instructions: str | None,
        input: str | list[TResponseInputItem],
        model_settings: ModelSettings,
        tools: list[Tool],
        output_schema: Any,
        handoffs: list[Any],
        tracing: ModelTracing,
        *,
        previous_response_id: str | None,
        conversation_id: str | None,
        prompt: Any,
    ) -> AsyncIterator[TResponseStreamEvent]:
        """The inner model's stream, stopped and started again with the rule on a retry hit."""
        session, texts = await self._begin()
        while True:
            stream = self.inner.stream_response(
                joined(system_instructions, *texts) or None, input, model_settings, tools, output_schema,
                handoffs, tracing, previous_response_id=previous_response_id,
                conversation_id=conversation_id, prompt=prompt,
            )
            calls: dict[str, tuple[str | None, str | None]] = {}
            retry: TtsrRoute | None = None
            try:
                async for event in stream:
                    retry = await first_retry(session, _event_deltas(event, calls))
                    if retry is not None:
                        break
                    yield event
            finally:
                closing = getattr(stream, "aclose", None)
                if closing is not None:
                    await closing()
            if retry is None:
                return
            texts.append(retry.text)
            await keep_text(session, retry.text)


def _event_deltas(event: Any, calls: dict[str, tuple[str | None, str | None]]) -> Iterator[Delta]:
    """The watch calls of one Responses stream event (function calls named by their ``added`` event)."""
    kind = getattr(event, "type", None)
    if kind == "response.output_item.added":
        item = getattr(event, "item", None)
        if getattr(item, "type", None) == "function_call":
            key = getattr(item, "id", None) or getattr(item, "call_id", None)
            if isinstance(key, str):
                calls[key] = (getattr(item, "name", None), getattr(item, "call_id", None))
        return
    delta = getattr(event, "delta", None)
    if not isinstance(delta, str) or not delta:
        return
    if kind == "response.output_text.delta":
        yield "text", delta, None, None, None
    elif kind in ("response.reasoning_text.delta", "response.reasoning_summary_text.delta"):
        yield "thinking", delta, None, None, None
    elif kind == "response.function_call_arguments.delta":
        item_id = getattr(event, "item_id", None)
        name, call_id = calls.get(item_id, (None, None)) if isinstance(item_id, str) else (None, None)
        yield "tool", delta, name, call_id or item_id, None


def _reply_deltas(output: Sequence[Any]) -> Iterator[Delta]:
    """The watch calls of a whole reply: its text, its reasoning, each complete function call."""
    for item in output:
        kind = getattr(item, "type", None)
        if kind == "message":
            for part in getattr(item, "content", None) or []:
                text = getattr(part, "text", None)
                if isinstance(text, str) and text:
                    yield "text", text, None, None, None
        elif kind == "reasoning":
            for part in [*(getattr(item, "summary", None) or []), *(getattr(item, "content", None) or [])]:
                text = getattr(part, "text", None)
                if isinstance(text, str) and text:
                    yield "thinking", text, None, None, None
        elif kind == "function_call":
            name, call_id = getattr(item, "name", None), getattr(item, "call_id", None)
            arguments = getattr(item, "arguments", None)
            if isinstance(name, str) and isinstance(arguments, str):
                yield "tool", "", name, call_id, arguments
