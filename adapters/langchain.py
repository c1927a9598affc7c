"""LangChain v1 adapter: ``RuleweaveMiddleware`` for ``create_agent``.

Use::

    from langchain.agents import create_agent
    from ruleweave import RuleweaveConfig
    from ruleweave.adapters.langchain import RuleweaveMiddleware

    agent = create_agent(model, tools, middleware=[RuleweaveMiddleware(RuleweaveConfig(cwd="."))])
    agent.invoke({"messages": [...]}, {"configurable": {"thread_id": "t-1"}})

Each hook translates between LangChain and one ``RuleSession`` per thread
(sync and async twins alike):

* model calls (``wrap_model_call``): the session's ``system_prompt()`` is
  added to the request's system message (after the caller's own text, or as
  an extra text block when the message holds content blocks). On a new user
  turn (a last ``HumanMessage`` not seen before) the session steers with its
  text and starts a TTSR turn.
* tool calls (``wrap_tool_call``): ``check_tool`` first (a refused call does
  not run and gets an error ``ToolMessage`` naming the rule); then the tool
  runs and the ``after_tool_call`` notice is appended to its ``ToolMessage``
  (string or content blocks, also inside a ``Command`` update).
* sessions are keyed by the run's ``thread_id`` (``configurable.thread_id``);
  a run without one gets a fresh id kept in the agent state for that run.
  All sessions share one store, so a thread resumed from a checkpointer does
  not get its notices again, and parallel tool calls claim each notice once.
* TTSR: while the model streams (the agent run with ``stream``/``astream``,
  or a model that streams on its own), a callback on the model watches text,
  reasoning and tool-call deltas. An interrupting hit aborts the model call,
  which is retried with the rule added to the system message (at most
  ``ttsr_retries`` times per model call; the rule then stays in the system
  message for the rest of the thread). A non-interrupting hit becomes a
  reminder appended to the next tool result. Whole tool calls are checked
  again before they run: an interrupting hit there refuses the call with the
  rule's text, so the model writes it again.

Notes:
    List retry or fallback middleware *before* this one (outside it): the
    stream is stopped with an exception, which middleware between this one and
    the model would otherwise take for a model error. Tokens of a stopped reply
    already streamed to the caller (``stream_mode="messages"``) stay with the
    caller; the reply itself never reaches the agent state. LangChain's
    warning for that exception is filtered out of the
    ``langchain_core.callbacks.manager`` logger.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, NotRequired, cast

from ruleweave.config import RuleweaveConfig
from ruleweave.errors import ConfigError, MissingDependencyError
from ruleweave.ruleset import RuleSet
from ruleweave.session import RuleSession
from ruleweave.store import MemoryStore, SessionStore
from ruleweave.ttsr import Source, TtsrHit

try:
    from langchain.agents.middleware.types import (
        AgentMiddleware,
        AgentState,
        ExtendedModelResponse,
        ModelRequest,
        ModelResponse,
        OmitFromSchema,
        ToolCallRequest,
    )
    from langchain_core.callbacks import AsyncCallbackHandler, BaseCallbackHandler
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import (
        AIMessage,
        AIMessageChunk,
        BaseMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )
    from langchain_core.outputs import ChatGenerationChunk
    from langgraph.runtime import Runtime
    from langgraph.types import Command
except ImportError as exc:  # pragma: no cover - exercised by re-importing without langchain
    raise MissingDependencyError("langchain", "langchain") from exc

__all__ = ["SESSION_KEY", "TTSR_KEY", "RuleweaveMiddleware", "RuleweaveState"]

SESSION_KEY = "ruleweave_session"
"""State key holding the session id of a run that has no ``thread_id``."""

TTSR_KEY = "ruleweave_ttsr"
"""State key holding the streamed-rule texts injected so far in the thread."""

_MAX_SESSIONS = 1024
_Private = OmitFromSchema(input=True, output=True)
_Content = str | list[str | dict[str, Any]]


class RuleweaveState(AgentState[Any]):
    """The agent state keys the middleware keeps (private: not in the agent's input or output).

    Attributes:
        ruleweave_session: The session id of a run without a ``thread_id``.
        ruleweave_ttsr: Streamed-rule texts that interrupted a model call; they stay in
            the system message for the rest of the thread.
    """

    ruleweave_session: NotRequired[Annotated[str, _Private]]
    ruleweave_ttsr: NotRequired[Annotated[list[str], _Private]]


class _Interrupt(Exception):
    """Raised from the model's stream callback to abort it; caught by ``wrap_model_call``.

    An ``Exception`` (LangChain's async model path mishandles other
    ``BaseException``s), so retry or fallback middleware listed *after* this one
    would catch it: list those first.
    """

    def __init__(self, hit: TtsrHit) -> None:
        names = ", ".join(rule.name for rule in hit.rules)
        super().__init__(f"ruleweave stopped the model's stream for streamed rule(s): {names}")
        self.hit = hit


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
            and args[0] in ("_StreamWatcher", "_AsyncStreamWatcher")
            and str(args[2]).startswith("_Interrupt(")
        )


def _quiet_interrupt_warnings() -> None:
    """Install ``_QuietInterrupts`` on LangChain's callback logger, once per process."""
    logger = logging.getLogger("langchain_core.callbacks.manager")
    if not any(type(f).__name__ == _QuietInterrupts.__name__ for f in logger.filters):
        logger.addFilter(_QuietInterrupts())


_quiet_interrupt_warnings()


@dataclass(eq=False)
class _Thread:
    """One thread's session and the adapter's own bookkeeping for it."""

    session: RuleSession
    lock: threading.Lock = field(default_factory=threading.Lock)
    steered: set[str] = field(default_factory=set)
    reminders: dict[str | None, list[str]] = field(default_factory=dict)

    def new_turn(self, messages: list[Any]) -> str | None:
        """The user's text when the last message is a ``HumanMessage`` not seen before."""
        if not messages or not isinstance(messages[-1], HumanMessage):
            return None
        last = messages[-1]
        key = last.id or f"{len(messages)}:{last.text}"
        with self.lock:
            if key in self.steered:
                return None
            self.steered.add(key)
        return last.text

    def remind(self, hit: TtsrHit, text: str) -> None:
        """Keep ``text`` for the tool result of ``hit``'s call (any next one for prose)."""
        with self.lock:
            self.reminders.setdefault(hit.call_id if hit.source == "tool" else None, []).append(text)

    def take_reminders(self, call_id: str | None) -> list[str]:
        """Reminders due on the result of ``call_id``: its own, then those for any result."""
        with self.lock:
            own = self.reminders.pop(call_id, []) if call_id is not None else []
            return [*own, *self.reminders.pop(None, [])]


# -- stream deltas --------------------------------------------------------------


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


class _Watch:
    """What a stream callback does with a hit: abort the call, or keep a reminder."""

    def __init__(self, thread: _Thread, may_interrupt: bool) -> None:
        self.thread = thread
        self.may_interrupt = may_interrupt
        self.deltas = _Deltas()

    def handle(self, hit: TtsrHit | None) -> None:
        if hit is None:
            return
        if hit.interrupt and self.may_interrupt:
            raise _Interrupt(hit)
        self.thread.remind(hit, hit.reminder)


class _StreamWatcher(BaseCallbackHandler):
    """Sync model-stream callback feeding ``session.watch``."""

    raise_error = True
    run_inline = True

    def __init__(self, watch: _Watch) -> None:
        self._watch = watch

    def _feed(self, deltas: Iterator[_Delta]) -> None:
        thread = self._watch.thread
        for d in deltas:
            hit = thread.session.watch(d.source, d.text, tool=d.tool, call_id=d.call_id, args=d.args)
            self._watch.handle(hit)

    def on_llm_new_token(self, token: Any, *, chunk: Any = None, **kwargs: Any) -> None:
        """Watch one streamed chunk (text, reasoning and tool-call deltas)."""
        self._feed(self._watch.deltas.from_token(token, chunk))

    def on_stream_event(self, event: Any, **kwargs: Any) -> None:
        """Watch one v2 protocol event."""
        self._feed(self._watch.deltas.from_event(event))


class _AsyncStreamWatcher(AsyncCallbackHandler):
    """Async model-stream callback feeding ``session.awatch``."""

    raise_error = True
    run_inline = True

    def __init__(self, watch: _Watch) -> None:
        self._watch = watch

    async def _feed(self, deltas: Iterator[_Delta]) -> None:
        session = self._watch.thread.session
        for d in deltas:
            hit = await session.awatch(d.source, d.text, tool=d.tool, call_id=d.call_id, args=d.args)
            self._watch.handle(hit)

    async def on_llm_new_token(self, token: Any, *, chunk: Any = None, **kwargs: Any) -> None:
        """Watch one streamed chunk (text, reasoning and tool-call deltas)."""
        await self._feed(self._watch.deltas.from_token(token, chunk))

    async def on_stream_event(self, event: Any, **kwargs: Any) -> None:
        """Watch one v2 protocol event."""
        await self._feed(self._watch.deltas.from_event(event))


# -- the middleware ---------------------------------------------------------------


class RuleweaveMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """ruleweave as LangChain v1 agent middleware.

    Args:
        config: Where to find the rules (default: ``RuleweaveConfig()`` for the
            process cwd). Give this or ``ruleset``.
        ruleset: An already loaded rule set, shared with other agents.
        store: Session state shared by every thread (default: a new ``MemoryStore``).
        ttsr_retries: How many times one model call is retried after a streamed
            rule interrupts it; once spent, further hits in that call become reminders.

    Raises:
        ConfigError: Both ``config`` and ``ruleset`` given, or ``ttsr_retries`` < 0.
    """

    state_schema = RuleweaveState

    def __init__(
        self,
        config: RuleweaveConfig | None = None,
        *,
        ruleset: RuleSet | None = None,
        store: SessionStore | None = None,
        ttsr_retries: int = 2,
    ) -> None:
        super().__init__()
        if config is not None and ruleset is not None:
            raise ConfigError("Give RuleweaveMiddleware a config or a ruleset, not both.")
        if ttsr_retries < 0:
            raise ConfigError(f"ttsr_retries must be 0 or more, not {ttsr_retries}.")
        self.ruleset = ruleset if ruleset is not None else RuleSet.load(config)
        self.store: SessionStore = store if store is not None else MemoryStore()
        self.ttsr_retries = ttsr_retries
        self._threads: OrderedDict[str, _Thread] = OrderedDict()
        self._lock = threading.Lock()

    # -- sessions -------------------------------------------------------------

    def session(self, session_id: str) -> RuleSession:
        """The session of a thread (or of a run without one), created on first use.

        Args:
            session_id: The thread id (or the run's generated id).

        Returns:
            The ``RuleSession``; call ``compacted()`` on it when the thread's history
            was summarised.
        """
        return self._thread(session_id).session

    def _thread(self, session_id: str) -> _Thread:
        with self._lock:
            thread = self._threads.get(session_id)
            if thread is None:
                session = self.ruleset.session(session_id, store=self.store, adapter="langchain")
                thread = self._threads[session_id] = _Thread(session)
                while len(self._threads) > _MAX_SESSIONS:
                    self._threads.popitem(last=False)
            else:
                self._threads.move_to_end(session_id)
            return thread

    def _thread_for(self, thread_id: str | None, state: Any) -> _Thread:
        if thread_id:
            return self._thread(thread_id)
        fallback = _state(state).get(SESSION_KEY)
        if isinstance(fallback, str) and fallback:
            return self._thread(fallback)
        return self._thread(f"run-{uuid.uuid4().hex}")

    def _forget(self, state: Any, runtime: Runtime[Any]) -> str | None:
        """Drop a finished run's generated session from the cache; its id, for the store."""
        if _runtime_thread_id(runtime):
            return None
        session_id = _state(state).get(SESSION_KEY)
        if not isinstance(session_id, str):
            return None
        with self._lock:
            self._threads.pop(session_id, None)
        return session_id

    # -- agent start / end -------------------------------------------------------

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Give a run without a ``thread_id`` its own session id.

        Args:
            state: The agent state.
            runtime: The run's runtime.

        Returns:
            The state update, or ``None`` when the run has a thread id.
        """
        if _runtime_thread_id(runtime) or _state(state).get(SESSION_KEY):
            return None
        return {SESSION_KEY: f"run-{uuid.uuid4().hex}"}

    async def abefore_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of ``before_agent``."""
        return self.before_agent(state, runtime)

    def after_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Forget the session of a run without a ``thread_id`` (nothing can resume it).

        Args:
            state: The agent state.
            runtime: The run's runtime.

        Returns:
            ``None``.
        """
        session_id = self._forget(state, runtime)
        if session_id is not None:
            self.store.release(session_id)
        return None

    async def aafter_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of ``after_agent``."""
        session_id = self._forget(state, runtime)
        if session_id is not None:
            await self.store.arelease(session_id)
        return None

    # -- model calls -------------------------------------------------------------

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Add the rules to the system message, steer a new user turn, and retry on TTSR hits.

        Args:
            request: The model request.
            handler: Runs the model.

        Returns:
            The model's response (with a state update when a streamed rule was injected).
        """
        thread = self._thread_for(_runtime_thread_id(request.runtime), request.state)
        text = thread.new_turn(request.messages)
        if text is not None:
            thread.session.steer(text)
            thread.session.turn_start()
        kept = _ttsr_texts(request.state)
        fresh: list[str] = []
        attempt = 0
        while True:
            watch = _Watch(thread, may_interrupt=attempt < self.ttsr_retries)
            prepared = _prepare(request, thread.session, [*kept, *fresh], _StreamWatcher(watch))
            try:
                response = handler(prepared)
            except _Interrupt as stop:
                fresh.append(stop.hit.text)
                attempt += 1
                continue
            return _respond(response, kept, fresh)

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Async twin of ``wrap_model_call``."""
        thread = self._thread_for(_runtime_thread_id(request.runtime), request.state)
        text = thread.new_turn(request.messages)
        if text is not None:
            thread.session.steer(text)
            await thread.session.aturn_start()
        kept = _ttsr_texts(request.state)
        fresh: list[str] = []
        attempt = 0
        while True:
            watch = _Watch(thread, may_interrupt=attempt < self.ttsr_retries)
            prepared = _prepare(request, thread.session, [*kept, *fresh], _AsyncStreamWatcher(watch))
            try:
                response = await handler(prepared)
            except _Interrupt as stop:
                fresh.append(stop.hit.text)
                attempt += 1
                continue
            return _respond(response, kept, fresh)

    # -- tool calls --------------------------------------------------------------

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Refuse a forbidden call; run the tool and append the rules its files call for.

        Args:
            request: The tool call request.
            handler: Runs the tool.

        Returns:
            The tool's ``ToolMessage`` or ``Command`` with notices appended, or an
            error ``ToolMessage`` when the call was refused.
        """
        thread = self._thread_for(_tool_thread_id(request), request.state)
        session = thread.session
        name, args, call_id = _call_parts(request)
        refusal = session.check_tool(name, args)
        if refusal is not None:
            return _refused(name, call_id, refusal.message)
        hit = session.watch("tool", "", tool=name, call_id=call_id, args=args)
        if hit is not None and hit.interrupt:
            return _refused(name, call_id, hit.text)
        result = handler(request)
        injection = session.after_tool_call(name, args, _content_of(result, call_id))
        notes = [injection.text if injection else "", *thread.take_reminders(call_id)]
        if hit is not None:
            notes.append(hit.text)
        return _with_notes(result, call_id, notes)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async twin of ``wrap_tool_call``."""
        thread = self._thread_for(_tool_thread_id(request), request.state)
        session = thread.session
        name, args, call_id = _call_parts(request)
        refusal = session.check_tool(name, args)
        if refusal is not None:
            return _refused(name, call_id, refusal.message)
        hit = await session.awatch("tool", "", tool=name, call_id=call_id, args=args)
        if hit is not None and hit.interrupt:
            return _refused(name, call_id, hit.text)
        result = await handler(request)
        injection = await session.aafter_tool_call(name, args, _content_of(result, call_id))
        notes = [injection.text if injection else "", *thread.take_reminders(call_id)]
        if hit is not None:
            notes.append(hit.text)
        return _with_notes(result, call_id, notes)


# -- translation helpers -----------------------------------------------------------


def _state(state: Any) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", state) if isinstance(state, Mapping) else {}


def _runtime_thread_id(runtime: Any) -> str | None:
    """``configurable.thread_id`` as langgraph exposes it on a node's runtime."""
    info = getattr(runtime, "execution_info", None)
    thread_id = getattr(info, "thread_id", None)
    return str(thread_id) if thread_id else None


def _tool_thread_id(request: ToolCallRequest) -> str | None:
    runtime = request.runtime
    found = _runtime_thread_id(runtime)
    if found:
        return found
    config = getattr(runtime, "config", None) or {}
    thread_id = (config.get("configurable") or {}).get("thread_id")
    return str(thread_id) if thread_id else None


def _ttsr_texts(state: Any) -> list[str]:
    texts = _state(state).get(TTSR_KEY)
    return [t for t in texts if isinstance(t, str)] if isinstance(texts, list) else []


def _appended(content: _Content, text: str) -> _Content:
    """``content`` with ``text`` after it: a blank line for strings, a text block for lists."""
    if isinstance(content, str):
        if not content:
            return text
        separator = "\n" if content.endswith("\n") else "\n\n"
        return f"{content}{separator}{text}"
    return [*content, {"type": "text", "text": text}]


def _prepare(
    request: ModelRequest[Any],
    session: RuleSession,
    ttsr: list[str],
    watcher: BaseCallbackHandler,
) -> ModelRequest[Any]:
    """The request with the rules in its system message and the stream watched."""
    caller = request.system_message
    caller_text = caller.text if caller is not None else ""
    ours = session.system_prompt(caller_text or None)
    addition = "\n\n".join(part for part in (ours, *ttsr) if part)
    system = caller
    if addition:
        if caller is None:
            system = SystemMessage(content=addition)
        else:
            system = caller.model_copy(update={"content": _appended(caller.content, addition)})
    model = request.model
    if isinstance(model, BaseChatModel):
        model = _with_callback(model, watcher)
    return request.override(system_message=system, model=model)


def _with_callback(model: BaseChatModel, handler: BaseCallbackHandler) -> BaseChatModel:
    """A shallow copy of ``model`` that also calls ``handler`` (for its own runs only)."""
    callbacks = model.callbacks
    if callbacks is None:
        merged: Any = [handler]
    elif isinstance(callbacks, list):
        merged = [*callbacks, handler]
    else:
        merged = callbacks.copy()
        merged.add_handler(handler, inherit=False)
    return model.model_copy(update={"callbacks": merged})


def _respond(
    response: ModelResponse[Any], kept: list[str], fresh: list[str]
) -> ModelResponse[Any] | ExtendedModelResponse[Any]:
    if not fresh:
        return response
    return ExtendedModelResponse(
        model_response=response, command=Command(update={TTSR_KEY: [*kept, *fresh]})
    )


def _call_parts(request: ToolCallRequest) -> tuple[str, dict[str, Any], str | None]:
    call = request.tool_call
    return call["name"], dict(call.get("args") or {}), call.get("id")


def _refused(name: str, call_id: str | None, message: str) -> ToolMessage:
    return ToolMessage(content=message, tool_call_id=call_id or "", name=name, status="error")


def _content_of(result: ToolMessage | Command[Any], call_id: str | None) -> Any:
    """The tool's output as the model will see it (for custom extractors)."""
    if isinstance(result, ToolMessage):
        return result.content
    return next((m.content for m in _command_messages(result) if _answers(m, call_id)), None)


def _command_messages(command: Command[Any]) -> list[Any]:
    update = command.update
    if isinstance(update, dict):
        messages = update.get("messages")
        return messages if isinstance(messages, list) else []
    return list(update) if isinstance(update, list) else []


def _answers(message: Any, call_id: str | None) -> bool:
    return isinstance(message, ToolMessage) and message.tool_call_id == (call_id or "")


def _noted(message: ToolMessage, text: str) -> ToolMessage:
    return message.model_copy(update={"content": _appended(message.content, text)})


def _with_notes(
    result: ToolMessage | Command[Any], call_id: str | None, notes: list[str]
) -> ToolMessage | Command[Any]:
    """``result`` with the notes appended to the ``ToolMessage`` answering ``call_id``."""
    text = "\n\n".join(note for note in notes if note)
    if not text:
        return result
    if isinstance(result, ToolMessage):
        return _noted(result, text)
    messages = _command_messages(result)
    index = next((i for i, m in enumerate(messages) if _answers(m, call_id)), None)
    if index is None:
        return result
    edited: list[BaseMessage] = list(messages)
    edited[index] = _noted(messages[index], text)
    update = result.update
    new_update: Any = {**update, "messages": edited} if isinstance(update, dict) else edited
    return dataclasses.replace(result, update=new_update)
