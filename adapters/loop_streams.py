"""Streamed rules in hand-written loops: each SDK's stream events fed to ``session.watch``.

One small class per wire format turns that format's stream events into
text, reasoning and tool-argument deltas, feeds them to the session and
asks ``session.route`` what to do. ``feed(event)`` returns a route only
when the loop must abort the stream and call the model again with
``route.text`` added to its system prompt (``TtsrAction.RETRY``); every
other outcome needs nothing from the loop (a reminder goes onto the next
tool result by itself)::

    watch = loop.stream()
    with client.messages.stream(...) as stream:
        for event in stream:
            if watch.feed(event):
                break                      # abort; call again with watch.retry.text

* ``AnthropicStream`` — Messages events: ``content_block_start`` (block types
  and tool-use ids/names by index), ``content_block_delta`` (``text_delta``,
  ``thinking_delta``, ``input_json_delta``), ``content_block_stop``;
* ``OpenAIChatStream`` — Chat Completions chunks (``choices[0].delta``:
  ``content``, ``tool_calls`` by index, ``reasoning_content`` where a server
  sends it); ``chunk`` events of ``client.chat.completions.stream()`` too;
* ``OpenAIResponsesStream`` — Responses events: ``response.output_item.added``
  (function-call ids/names by output index), ``response.output_text.delta``,
  ``response.reasoning_text.delta``, ``response.reasoning_summary_text.delta``,
  ``response.function_call_arguments.delta`` / ``.done``.

Events may be the SDKs' objects (read through their own ``model_dump()``) or
dicts. A watcher is for one model call: make a new one per call, retries
included. Watchers never start a turn: the loop calls ``user_turn`` once per
user message, so the retries a turn may spend are counted across its calls.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from ruleweave.adapters.seams import RuleSession, Source, TtsrAction, TtsrRoute

# Fields of stream events that hold accumulated snapshots or whole responses:
# never read here, and dumping them at every delta would cost the square of the stream.
_SKIPPED = frozenset({"snapshot", "response", "message"})


# -- reading the wire: SDK objects through their own model_dump(), dicts as they are (loop.py too) --


def plain(value: Any, skip: frozenset[str] = frozenset()) -> Any:
    """An SDK (pydantic) object as the dict its own ``model_dump()`` gives; anything else as is."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude=set(skip) or None)
    return value


def plain_items(value: Any) -> list[Any]:
    """A list or tuple's items as plain values; anything else has none."""
    return [plain(v) for v in value] if isinstance(value, (list, tuple)) else []


def field(value: Any, key: str) -> Any:
    """``value[key]`` when ``value`` is a mapping, else ``None``."""
    return value.get(key) if isinstance(value, Mapping) else None


def text_of(value: Any) -> str:
    """``value`` when it is a string, else ``""``."""
    return value if isinstance(value, str) else ""


def _mapping(value: Any) -> Mapping[str, Any]:
    """``value`` as a mapping (an empty one when it is none)."""
    return value if isinstance(value, Mapping) else {}


# -- the stream watchers ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Delta:
    """One watch call: a source's new text, or (``text == ""``) a tool call's arguments complete."""

    source: Source
    text: str
    tool: str | None = None
    call_id: str | None = None


@dataclass(slots=True)
class _Call:
    """A streamed tool call, as far as its first event told."""

    name: str
    call_id: str | None


def _tool(call: _Call | None, piece: Any) -> Iterator[_Delta]:
    """The argument delta of a tracked call (empty pieces are no deltas: ``""`` marks the end)."""
    if call is not None and isinstance(piece, str) and piece:
        yield _Delta("tool", piece, call.name, call.call_id)


def _done(call: _Call | None) -> Iterator[_Delta]:
    """The end of a tracked call's arguments (the watcher parses them whole, for path gates)."""
    if call is not None:
        yield _Delta("tool", "", call.name, call.call_id)


class LoopStream:
    """A watcher over one model call's stream; the three formats only read their own events.

    Args:
        session: The session to watch for.
    """

    def __init__(self, session: RuleSession) -> None:
        self.session = session
        self.retry: TtsrRoute | None = None
        """The route that stopped this stream (``TtsrAction.RETRY``), once ``feed`` returned it."""
        self._calls: dict[Any, _Call] = {}

    def _deltas(self, event: Mapping[str, Any]) -> Iterator[_Delta]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _events(self, event: Any) -> Iterator[_Delta]:
        return self._deltas(_mapping(plain(event, _SKIPPED)))

    def feed(self, event: Any) -> TtsrRoute | None:
        """Watch one stream event.

        Args:
            event: The SDK's event object or its dict.

        Returns:
            The ``retry`` route when the loop must abort this stream and call the
            model again with ``route.text`` in the system prompt (every later call
            returns it again), else ``None``.
        """
        if self.retry is not None:
            return self.retry
        session = self.session
        for d in self._events(event):
            hit = session.watch(d.source, d.text, tool=d.tool, call_id=d.call_id)
            if hit is not None:
                decided = session.route(hit)
                if decided.action is TtsrAction.RETRY:
                    self.retry = decided
                    return decided
        return None

    async def afeed(self, event: Any) -> TtsrRoute | None:
        """Async twin of ``feed`` (awaits the session's store)."""
        if self.retry is not None:
            return self.retry
        session = self.session
        for d in self._events(event):
            hit = await session.awatch(d.source, d.text, tool=d.tool, call_id=d.call_id)
            if hit is not None:
                decided = await session.aroute(hit)
                if decided.action is TtsrAction.RETRY:
                    self.retry = decided
                    return decided
        return None


class AnthropicStream(LoopStream):
    """Streamed rules over one Anthropic Messages stream (``messages.stream()`` or ``stream=True``).

    The helper stream's own derived events (``text``, ``thinking``,
    ``input_json``) repeat the raw deltas and are skipped.

    Args:
        session: The session to watch for.
    """

    def _deltas(self, event: Mapping[str, Any]) -> Iterator[_Delta]:
        kind = event.get("type")
        index = event.get("index")
        if kind == "content_block_start":
            block = _mapping(event.get("content_block"))
            btype = text_of(block.get("type"))
            if btype == "text" and text_of(block.get("text")):
                yield _Delta("text", block["text"])
            elif btype.endswith("tool_use"):
                self._calls[index] = _Call(text_of(block.get("name")), text_of(block.get("id")) or None)
        elif kind == "content_block_delta":
            delta = _mapping(event.get("delta"))
            dtype = delta.get("type")
            if dtype == "text_delta" and text_of(delta.get("text")):
                yield _Delta("text", delta["text"])
            elif dtype == "thinking_delta" and text_of(delta.get("thinking")):
                yield _Delta("thinking", delta["thinking"])
            elif dtype == "input_json_delta":
                yield from _tool(self._calls.get(index), delta.get("partial_json"))
        elif kind == "content_block_stop":
            yield from _done(self._calls.pop(index, None))


class OpenAIChatStream(LoopStream):
    """Streamed rules over one Chat Completions stream (``chat.completions.create(stream=True)``).

    Only the first choice is watched (the one a loop reads); tool calls are
    complete when the choice's ``finish_reason`` arrives.

    Args:
        session: The session to watch for.
    """

    def _deltas(self, event: Mapping[str, Any]) -> Iterator[_Delta]:
        if event.get("type") == "chunk":  # an event of client.chat.completions.stream()
            event = _mapping(plain(event.get("chunk"), _SKIPPED))
        choices = event.get("choices")
        first = _first_choice(choices if isinstance(choices, list) else [])
        delta = _mapping(first.get("delta"))
        thinking = text_of(delta.get("reasoning_content")) or text_of(delta.get("reasoning"))
        if thinking:
            yield _Delta("thinking", thinking)
        if text_of(delta.get("content")):
            yield _Delta("text", delta["content"])
        calls = delta.get("tool_calls")
        for piece in calls if isinstance(calls, list) else ():
            piece = _mapping(piece)
            function = _mapping(piece.get("function"))
            key = piece.get("index")
            call = self._calls.get(key)
            if call is None:
                call = self._calls[key] = _Call("", None)
            if text_of(function.get("name")):
                call.name = function["name"]
            if text_of(piece.get("id")):
                call.call_id = piece["id"]
            yield from _tool(call, function.get("arguments"))
        if first.get("finish_reason"):
            calls_done, self._calls = self._calls, {}
            for call in calls_done.values():
                yield from _done(call)


def _first_choice(choices: list[Any]) -> Mapping[str, Any]:
    """The choice with index 0 (a chunk may carry other choices, or none: the usage chunk)."""
    for choice in choices:
        choice = _mapping(choice)
        if choice.get("index", 0) == 0:
            return choice
    return {}


_RESPONSES_TEXT: Mapping[str, Source] = MappingProxyType({
    "response.output_text.delta": "text",
    "response.reasoning_text.delta": "thinking",
    "response.reasoning_summary_text.delta": "thinking",
})
"""Responses events whose ``delta`` is prose, and the stream each feeds."""


class OpenAIResponsesStream(LoopStream):
    """Streamed rules over one Responses stream (``responses.create(stream=True)`` or ``responses.stream()``).

    Args:
        session: The session to watch for.
    """

    def _deltas(self, event: Mapping[str, Any]) -> Iterator[_Delta]:
        kind = event.get("type")
        index = event.get("output_index")
        source = _RESPONSES_TEXT.get(kind) if isinstance(kind, str) else None
        if source is not None:
            if text_of(event.get("delta")):
                yield _Delta(source, event["delta"])
        elif kind == "response.output_item.added":
            item = _mapping(event.get("item"))
            if item.get("type") == "function_call":
                self._calls[index] = _Call(text_of(item.get("name")), text_of(item.get("call_id")) or None)
        elif kind == "response.function_call_arguments.delta":
            yield from _tool(self._calls.get(index), event.get("delta"))
        elif kind == "response.function_call_arguments.done":
            yield from _done(self._calls.pop(index, None))
