"""LangChain v1 adapter: ``RuleweaveMiddleware`` for ``create_agent``.

Use::

    from langchain.agents import create_agent
    from ruleweave import RuleweaveConfig
    from ruleweave.adapters.langchain import RuleweaveMiddleware

    agent = create_agent(model, tools, middleware=[RuleweaveMiddleware(RuleweaveConfig(cwd="."))])
    agent.invoke({"messages": [...]}, {"configurable": {"thread_id": "t-1"}})

Each hook only translates between LangChain and the thread's ``RuleSession``
(from a ``SessionPool``; sync and async twins alike):

* ``wrap_model_call``: ``system_prompt()`` joins the request's system message
  (after the caller's text, or as a text block). A new user turn (a last
  ``HumanMessage`` not seen before, claimed in the store) steers and starts a
  TTSR turn.
* ``wrap_tool_call``: ``before_tool_call`` first (steering and streamed rules
  on the whole call; a refused call gets an error ``ToolMessage``), then the
  tool runs and ``after_tool_call(..., call_id=...)`` is appended to its
  ``ToolMessage`` (string or blocks, also inside a ``Command`` update).
* Sessions are keyed by ``configurable.thread_id``; a run without one gets a
  fresh id kept in its state and forgotten when it ends. All share one store.
* TTSR: ``langchain_stream`` watches the model's stream; a hit the session
  routes to ``retry`` aborts the call, which runs again with the rule in the
  system message (``ttsr_retries`` per turn; the rule then stays for the
  rest of the thread). Other hits become reminders on the next tool result.

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

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from ruleweave.adapters.seams import (
    READ_RULE_DESCRIPTION,
    MissingDependencyError,
    RuleSession,
    RuleSet,
    RuleweaveConfig,
    SessionPool,
    SessionStore,
    TtsrAction,
    TtsrRoute,
)

try:
    from langchain.agents.middleware.types import (
        AgentMiddleware,
        AgentState,
        ExtendedModelResponse,
        ModelRequest,
        ModelResponse,
        ToolCallRequest,
    )
    from langchain.tools import ToolRuntime
    from langchain_core.messages import (
        AIMessage,
        HumanMessage,
        SystemMessage,
        ToolMessage,
    )
    from langchain_core.tools import BaseTool, StructuredTool
    from langgraph.runtime import Runtime
    from langgraph.types import Command
except ImportError as exc:  # pragma: no cover - exercised by re-importing without langchain
    raise MissingDependencyError("langchain", "langchain") from exc

from ruleweave.adapters.langchain_state import (
    DECISION_KEY,
    NOTICES_KEY,
    SESSION_KEY,
    TTSR_KEY,
    RuleweaveState,
    appended,
    call_parts,
    content_of,
    given_notices,
    refused,
    state_of,
    step_of,
    ttsr_texts,
    with_notes,
)
from ruleweave.adapters.langchain_stream import (
    AsyncStreamWatcher,
    StreamInterruptError,
    StreamWatcher,
    Watch,
    watching,
)

__all__ = [
    "DECISION_KEY", "NOTICES_KEY", "SESSION_KEY", "TTSR_KEY", "RuleweaveMiddleware", "RuleweaveState",
]

# -- the middleware ---------------------------------------------------------------


class RuleweaveMiddleware(AgentMiddleware[AgentState[Any], Any, Any]):
    """ruleweave as LangChain v1 agent middleware.

    Args:
        config: Where to find the rules (default: ``RuleweaveConfig()`` for the
            process cwd). Give this or ``ruleset``.
        ruleset: An already loaded rule set, shared with other agents.
        store: Session state shared by every thread (default: the rule set's store).
        ttsr_retries: How many times a turn's model calls are retried after streamed
            rules interrupt them (default ``config.ttsr_retries``, 2); once spent,
            further hits become reminders.
        read_rule_tool: Give the agent a ``read_rule`` tool serving ``rule://`` (the
            prompt tells the model to read rules there).

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
        ttsr_retries: int | None = None,
        read_rule_tool: bool = True,
    ) -> None:
        super().__init__()
        self.pool = SessionPool.open(
            config, ruleset=ruleset, store=store, ttsr_retries=ttsr_retries, owner="RuleweaveMiddleware",
            adapter="langchain",
        )
        self.ruleset = self.pool.ruleset
        self.store: SessionStore = self.pool.store
        self.tools: list[BaseTool] = [self._read_rule_tool()] if read_rule_tool else []

    def _read_rule_tool(self) -> BaseTool:
        """``read_rule(name)``: the rule ``rule://name`` names, in the thread's own session."""

        def read_rule(name: str, runtime: ToolRuntime) -> str:
            thread = _config_thread_id(runtime.config) or "read-rule"
            return self.pool.get(thread).read_rule(name)

        return StructuredTool.from_function(
            read_rule,
            name="read_rule",
            description=READ_RULE_DESCRIPTION,
        )

    # -- sessions -------------------------------------------------------------

    def session(self, session_id: str) -> RuleSession:
        """The session of a thread (or of a run without one), from the middleware's pool.

        Args:
            session_id: The thread id (or the run's generated id).

        Returns:
            The ``RuleSession``; call ``compacted()`` on it when the thread's history
            was summarised.
        """
        return self.pool.get(session_id)

    def _session_for(self, thread_id: str | None, state: Any) -> RuleSession:
        if thread_id:
            return self.pool.get(thread_id)
        fallback = state_of(state).get(SESSION_KEY)
        if isinstance(fallback, str) and fallback:
            return self.pool.get(fallback)
        return self.pool.get(f"run-{uuid.uuid4().hex}")

    @staticmethod
    def _generated_id(state: Any, runtime: Runtime[Any]) -> str | None:
        """The session id of a finished run without a thread id (nothing can resume it)."""
        if _runtime_thread_id(runtime):
            return None
        session_id = state_of(state).get(SESSION_KEY)
        return session_id if isinstance(session_id, str) and session_id else None

    # -- agent start / end -------------------------------------------------------

    def before_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Give a run without a ``thread_id`` its own session id.

        Args:
            state: The agent state.
            runtime: The run's runtime.

        Returns:
            The state update, or ``None`` when the run has a thread id.
        """
        if _runtime_thread_id(runtime) or state_of(state).get(SESSION_KEY):
            return None
        return {SESSION_KEY: f"run-{uuid.uuid4().hex}"}

    async def abefore_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of ``before_agent``."""
        return self.before_agent(state, runtime)

    def after_agent(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        """Forget the session of a run without a ``thread_id``, state included.

        Args:
            state: The agent state.
            runtime: The run's runtime.

        Returns:
            ``None``.
        """
        session_id = self._generated_id(state, runtime)
        if session_id is not None:
            self.pool.drop(session_id, forget_state=True)
        return None

    async def aafter_agent(
        self, state: AgentState[Any], runtime: Runtime[Any]
    ) -> dict[str, Any] | None:
        """Async twin of ``after_agent``."""
        session_id = self._generated_id(state, runtime)
        if session_id is not None:
            await self.pool.adrop(session_id, forget_state=True)
        return None

    # -- model calls -------------------------------------------------------------

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Add the rules to the system message, steer a new user turn, and retry on TTSR hits.

        Streamed replies are watched as they stream; a reply that did not stream
        (``invoke``, ``stream_mode="values"``) is checked whole when it arrives,
        and retried the same way.

        Args:
            request: The model request.
            handler: Runs the model.

        Returns:
            The model's response (with a state update when a streamed rule was injected
            or the turn was steered).
        """
        session = self._session_for(_runtime_thread_id(request.runtime), request.state)
        update = self._turn(session, request)
        kept = ttsr_texts(request.state)
        fresh: list[str] = []
        while True:
            watch = Watch(session)
            prepared = _prepare(request, session, [*kept, *fresh])
            try:
                with watching(StreamWatcher(watch)):
                    response = handler(prepared)
            except StreamInterruptError as stop:
                fresh.append(stop.hit.text)
                continue
            retry = None if watch.streamed else session.check_reply(*_reply_text(response))
            if _retries(retry):
                fresh.append(retry.text)  # type: ignore[union-attr]
                continue
            return _respond(response, kept, fresh, update)

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any] | AIMessage | ExtendedModelResponse[Any]:
        """Async twin of ``wrap_model_call``."""
        session = self._session_for(_runtime_thread_id(request.runtime), request.state)
        update = await self._aturn(session, request)
        kept = ttsr_texts(request.state)
        fresh: list[str] = []
        while True:
            watch = Watch(session)
            prepared = _prepare(request, session, [*kept, *fresh])
            try:
                with watching(AsyncStreamWatcher(watch)):
                    response = await handler(prepared)
            except StreamInterruptError as stop:
                fresh.append(stop.hit.text)
                continue
            retry = None if watch.streamed else await session.acheck_reply(*_reply_text(response))
            if _retries(retry):
                fresh.append(retry.text)  # type: ignore[union-attr]
                continue
            return _respond(response, kept, fresh, update)

    @staticmethod
    def _turn(session: RuleSession, request: ModelRequest[Any]) -> dict[str, Any]:
        """Steer a new user turn (the decision goes into the state too), else restore the state's."""
        turn = _user_turn(request.messages)
        if turn is not None and session.new_user_turn(turn[1], turn[0]):
            decision = session.decision_json
            return {DECISION_KEY: decision} if decision else {}
        session.restore_decision(state_of(request.state).get(DECISION_KEY))
        return {}

    @staticmethod
    async def _aturn(session: RuleSession, request: ModelRequest[Any]) -> dict[str, Any]:
        turn = _user_turn(request.messages)
        if turn is not None and await session.anew_user_turn(turn[1], turn[0]):
            decision = session.decision_json
            return {DECISION_KEY: decision} if decision else {}
        session.restore_decision(state_of(request.state).get(DECISION_KEY))
        return {}

    # -- tool calls --------------------------------------------------------------

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Refuse a forbidden call; run the tool and append the rules its files call for.

        Which notices the thread already holds comes from its state (see
        ``RuleweaveState.ruleweave_notices``); the store only makes parallel calls of
        one step claim each notice once.

        Args:
            request: The tool call request.
            handler: Runs the tool.

        Returns:
            The tool's ``ToolMessage`` (inside a ``Command`` recording the notices it
            carries), or an error ``ToolMessage`` when the call was refused.
        """
        session = self._session_for(_tool_thread_id(request), request.state)
        name, args, call_id = call_parts(request)
        state = state_of(request.state)
        session.restore_decision(state.get(DECISION_KEY))
        refusal = session.before_tool_call(name, args, call_id=call_id)
        if refusal is not None:
            return refused(name, call_id, refusal.message)
        result = handler(request)
        injection = session.after_tool_call(
            name, args, content_of(result, call_id), call_id=call_id,
            given=given_notices(state), claim_scope=step_of(state, call_id),
        )
        return with_notes(result, call_id, injection)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async twin of ``wrap_tool_call``."""
        session = self._session_for(_tool_thread_id(request), request.state)
        name, args, call_id = call_parts(request)
        state = state_of(request.state)
        session.restore_decision(state.get(DECISION_KEY))
        refusal = await session.abefore_tool_call(name, args, call_id=call_id)
        if refusal is not None:
            return refused(name, call_id, refusal.message)
        result = await handler(request)
        injection = await session.aafter_tool_call(
            name, args, content_of(result, call_id), call_id=call_id,
            given=given_notices(state), claim_scope=step_of(state, call_id),
        )
        return with_notes(result, call_id, injection)


# -- translation helpers -----------------------------------------------------------


def _runtime_thread_id(runtime: Any) -> str | None:
    """``configurable.thread_id`` as langgraph exposes it on a node's runtime."""
    info = getattr(runtime, "execution_info", None)
    thread_id = getattr(info, "thread_id", None)
    return str(thread_id) if thread_id else None


def _tool_thread_id(request: ToolCallRequest) -> str | None:
    runtime = request.runtime
    return _runtime_thread_id(runtime) or _config_thread_id(getattr(runtime, "config", None))


def _user_turn(messages: list[Any]) -> tuple[str, str] | None:
    """``(turn id, text)`` when the last message is the user's (a new turn, if not seen before)."""
    if not messages or not isinstance(messages[-1], HumanMessage):
        return None
    last = messages[-1]
    return last.id or f"{len(messages)}:{last.text}", last.text


def _prepare(request: ModelRequest[Any], session: RuleSession, ttsr: list[str]) -> ModelRequest[Any]:
    """The request with the rules (and streamed rules kept for the thread) in its system message."""
    caller = request.system_message
    caller_text = caller.text if caller is not None else ""
    ours = session.system_prompt(caller_text or None)
    addition = "\n\n".join(part for part in (ours, *ttsr) if part)
    if not addition:
        return request
    if caller is None:
        return request.override(system_message=SystemMessage(content=addition))
    return request.override(
        system_message=caller.model_copy(update={"content": appended(caller.content, addition)})
    )


def _reply_text(response: ModelResponse[Any]) -> tuple[str, str]:
    """``(text, reasoning)`` of the model's reply, for checking a reply that did not stream."""
    text: list[str] = []
    thinking: list[str] = []
    for message in response.result:
        if not isinstance(message, AIMessage):
            continue
        for block in message.content_blocks:
            if block["type"] == "text":
                text.append(block["text"])
            elif block["type"] == "reasoning":
                thinking.append(block.get("reasoning", ""))
    return "".join(text), "".join(thinking)


def _retries(route: TtsrRoute | None) -> bool:
    return route is not None and route.action is TtsrAction.RETRY


def _respond(
    response: ModelResponse[Any], kept: list[str], fresh: list[str], update: dict[str, Any]
) -> ModelResponse[Any] | ExtendedModelResponse[Any]:
    changes = {**update, **({TTSR_KEY: [*kept, *fresh]} if fresh else {})}
    if not changes:
        return response
    return ExtendedModelResponse(model_response=response, command=Command(update=changes))


def _config_thread_id(config: Any) -> str | None:
    thread_id = ((config or {}).get("configurable") or {}).get("thread_id")
    return str(thread_id) if thread_id else None
