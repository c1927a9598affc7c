"""OpenAI Agents SDK adapter: ``RuleweaveAgents`` wraps an ``Agent`` and runs it in a conversation.

Use::

    from agents import Agent, SQLiteSession
    from ruleweave import RuleweaveConfig
    from ruleweave.adapters.openai_agents import RuleweaveAgents

    rw = RuleweaveAgents(RuleweaveConfig(cwd="."))
    agent = rw.agent(Agent(name="coder", instructions="...", tools=[...], model=model))
    result = await rw.run(agent, "Fix the failing test", session=SQLiteSession("conv-1", "chat.db"))

Each piece only translates between the SDK and the conversation's
``RuleSession`` (from a ``SessionPool``; state in the configured store):

* ``instructions`` becomes a function resolved every turn: the agent's own
  instructions first, then ``system_prompt()``. Before the run's first model
  call it starts the user turn (steering, TTSR turn), once per run.
* Each ``FunctionTool``'s ``on_invoke_tool`` is wrapped (``RunHooks.on_tool_end``
  cannot change a result): ``before_tool_call`` answers a refused call with the
  refusal instead of running it; ``after_tool_call(..., call_id=tool_call_id)``
  appends the notices to the result (text, or a text item after structured
  output).
* The ``Model`` is wrapped: ``stream_response`` watches
  ``response.output_text.delta``, reasoning deltas and
  ``response.function_call_arguments.delta``; ``get_response`` checks the whole
  reply. A hit the session routes to ``retry`` stops the reply and calls the
  inner model again with the rule added to the system instructions (the rule
  then stays for the rest of the conversation, kept in the store).
* The conversation: ``run`` / ``run_sync`` / ``run_streamed`` take its id from
  ``conversation_id``, else the SDK ``session``'s ``session_id``, else
  ``run_config.group_id``, else the adapter's ``session_id``; a run with none
  gets a fresh id, forgotten when it ends. With ``Runner`` called directly,
  wrap the call in ``with rw.conversation("conv-1"):``. The agent also gets a
  ``read_rule`` tool serving ``rule://`` (``read_rule_tool=False``: none).

Notes:
    The SDK cannot change a tool result from ``RunHooks`` or an output
    guardrail, so only ``FunctionTool``s are woven: hosted tools and tools of
    ``mcp_servers`` get no notices or refusals. A tool with a declared output
    schema carries no notices (text would break its schema). Streamed rules need
    the wrapped model: a ``RunConfig(model=...)`` replaces it. Events of a stopped
    stream already reached ``stream_events()``; the stopped reply never reaches
    the run's items or the session history.
"""

from __future__ import annotations

import contextvars
import dataclasses
import inspect
import uuid
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ruleweave.adapters.seams import (
    READ_RULE_DESCRIPTION,
    ConfigError,
    MissingDependencyError,
    RuleSession,
    RuleSet,
    RuleweaveConfig,
    SessionPool,
    SessionStore,
)

try:
    from agents import (
        Agent,
        FunctionTool,
        Model,
        ModelProvider,
        RunContextWrapper,
        Runner,
        RunResult,
        RunResultStreaming,
        Tool,
        ToolOutputFileContent,
        ToolOutputImage,
        ToolOutputText,
        function_tool,
    )
    from agents.tool_context import ToolContext
except ImportError as exc:  # pragma: no cover - exercised by re-importing without the SDK
    raise MissingDependencyError("openai-agents", "openai-agents") from exc

from ruleweave.adapters._streamed import appended, joined
from ruleweave.adapters.openai_agents_stream import WatchedModel

__all__ = ["RuleweaveAgents"]

_Instructions = Callable[[RunContextWrapper[Any], Agent[Any]], Awaitable[str]]

class RuleweaveAgents:
    """ruleweave for the OpenAI Agents SDK: wrap agents, run them in conversations.

    Args:
        config: Where to find the rules (default: ``RuleweaveConfig()`` for the
            process cwd). Give this or ``ruleset``.
        ruleset: An already loaded rule set, shared with other agents.
        store: Session state shared by every conversation (default: the rule set's store).
        ttsr_retries: Model calls retried per user turn after streamed rules stop
            them (default ``config.ttsr_retries``); once spent, hits become reminders.
        session_id: The conversation used when a run has none of its own (no
            ``rw.run``, no ``rw.conversation``); without it such a run is an error.
        read_rule_tool: Give wrapped agents a ``read_rule`` tool serving ``rule://``
            (the prompt tells the model to read rules there).

    Raises:
        ConfigError: Both ``config`` and ``ruleset`` given, or ``ttsr_retries`` < 0.
    """

    def __init__(
        self,
        config: RuleweaveConfig | None = None,
        *,
        ruleset: RuleSet | None = None,
        store: SessionStore | None = None,
        ttsr_retries: int | None = None,
        session_id: str | None = None,
        read_rule_tool: bool = True,
    ) -> None:
        self.pool = SessionPool.open(
            config, ruleset=ruleset, store=store, ttsr_retries=ttsr_retries, owner="RuleweaveAgents",
            adapter="openai-agents",
        )
        self.ruleset = self.pool.ruleset
        self.store: SessionStore = self.pool.store
        self.default_session_id = session_id
        self.read_rule_tool = read_rule_tool
        self._scope: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar(
            f"ruleweave_conversation_{id(self)}", default=None
        )

    # -- conversations ---------------------------------------------------------------

    def session(self, session_id: str) -> RuleSession:
        """The session of a conversation, from the adapter's pool.

        Args:
            session_id: The conversation's id.

        Returns:
            The ``RuleSession`` (call ``compacted()`` on it when the history was summarised).
        """
        return self.pool.get(session_id)

    def current_session(self) -> RuleSession:
        """The session of the conversation this code runs in.

        Returns:
            The ``RuleSession`` of the innermost ``run`` / ``conversation``, else of
            ``session_id`` given to the adapter.

        Raises:
            ConfigError: No conversation is active and the adapter has no ``session_id``.
        """
        scope = self._scope.get()
        session_id = scope.session_id if scope is not None else self.default_session_id
        if session_id is None:
            raise ConfigError(
                "A ruleweave-wrapped agent ran outside a conversation: run it with rw.run(...), "
                "rw.run_streamed(...) or rw.run_sync(...), or call Runner inside "
                "`with rw.conversation(session_id):`, or give RuleweaveAgents(session_id=...)."
            )
        return self.pool.get(session_id)

    @contextmanager
    def conversation(self, session_id: str) -> Iterator[RuleSession]:
        """Runs started inside the block (and the tasks they start) belong to conversation ``session_id``.

        Args:
            session_id: The conversation's id (e.g. the SDK session's ``session_id``).

        Yields:
            The conversation's ``RuleSession``.
        """
        session = self.pool.get(session_id)
        token = self._scope.set(_Scope(session_id))
        try:
            yield session
        finally:
            self._scope.reset(token)

    def _enter(self, options: Mapping[str, Any]) -> tuple[contextvars.Token[_Scope | None], str, bool]:
        """Enter a run's conversation: the scope's token, the conversation id, whether it was generated."""
        session_id, generated = self._run_id(options)
        outer = self._scope.get()
        nested = outer is not None and outer.session_id == session_id and outer.turn is not None
        turn = outer.turn if nested and outer is not None else f"run:{uuid.uuid4().hex}"
        return self._scope.set(_Scope(session_id, turn)), session_id, generated

    def _run_id(self, options: Mapping[str, Any]) -> tuple[str, bool]:
        """The conversation id of a run and whether it was generated (nothing can resume it)."""
        conversation = options.get("conversation_id")
        if isinstance(conversation, str) and conversation.strip():
            return conversation.strip(), False
        sdk_session = options.get("session")
        sdk_id = getattr(sdk_session, "session_id", None) if sdk_session is not None else None
        if isinstance(sdk_id, str) and sdk_id.strip():
            return sdk_id.strip(), False
        run_config = options.get("run_config")
        group = (
            run_config.get("group_id") if isinstance(run_config, Mapping)
            else getattr(run_config, "group_id", None)
        )
        if isinstance(group, str) and group.strip():
            return group.strip(), False
        outer = self._scope.get()
        if outer is not None:  # a nested run (an agent used as a tool) belongs to its conversation
            return outer.session_id, False
        if self.default_session_id is not None:
            return self.default_session_id, False
        return f"run-{uuid.uuid4().hex}", True

    async def run(self, agent: Agent[Any], input: Any, **options: Any) -> RunResult:
        """``Runner.run(agent, input, **options)`` in the run's conversation.

        Args:
            agent: An agent from ``self.agent(...)``.
            input: The user's input (or a ``RunState`` to resume).
            **options: ``Runner.run`` options (``session``, ``conversation_id``, ``run_config``, …).

        Returns:
            The ``RunResult``.
        """
        token, session_id, generated = self._enter(options)
        try:
            return await Runner.run(agent, input, **options)
        finally:
            self._scope.reset(token)
            if generated:
                await self.pool.adrop(session_id, forget_state=True)

    def run_sync(self, agent: Agent[Any], input: Any, **options: Any) -> RunResult:
        """``Runner.run_sync`` in the run's conversation (see ``run``)."""
        token, session_id, generated = self._enter(options)
        try:
            return Runner.run_sync(agent, input, **options)
        finally:
            self._scope.reset(token)
            if generated:
                self.pool.drop(session_id, forget_state=True)

    def run_streamed(self, agent: Agent[Any], input: Any, **options: Any) -> RunResultStreaming:
        """``Runner.run_streamed`` in the run's conversation (see ``run``).

        The run's task keeps the conversation after this returns; a generated
        conversation is forgotten when that task ends.
        """
        token, session_id, generated = self._enter(options)
        try:
            result = Runner.run_streamed(agent, input, **options)
        finally:
            self._scope.reset(token)
        task = result.run_loop_task
        if generated and task is not None:
            task.add_done_callback(lambda _: self.pool.drop(session_id, forget_state=True))
        return result

    # -- wrapping ---------------------------------------------------------------------

    def agent(self, agent: Agent[Any], *, model_provider: ModelProvider | None = None) -> Agent[Any]:
        """A copy of ``agent`` with ruleweave in its instructions, function tools and model.

        Args:
            agent: The agent (left unchanged). Agents it hands off to are not
                wrapped: wrap each one.
            model_provider: Resolves ``agent.model`` when it is a name or unset
                (default: the SDK's ``MultiProvider``).

        Returns:
            The wrapped copy.
        """
        model = agent.model
        if not isinstance(model, Model):
            if model_provider is None:
                from agents import MultiProvider

                model_provider = MultiProvider()
            model = model_provider.get_model(model)
        tools = [self.tool(tool) for tool in agent.tools]
        if self.read_rule_tool and not any(getattr(t, "name", None) == "read_rule" for t in tools):
            tools.append(self._read_rule())
        instructions = self._instructions(agent.instructions)
        return agent.clone(instructions=instructions, tools=tools, model=self.model(model))

    def model(self, model: Model) -> Model:
        """``model`` with its replies watched for streamed rules (see ``openai_agents_stream``).

        Args:
            model: The model to wrap.

        Returns:
            The wrapping model.
        """
        return model if isinstance(model, WatchedModel) else WatchedModel(model, self.current_session)

    def tool(self, tool: Tool) -> Tool:
        """``tool`` with refusals before and notices after each call (other tools as they are).

        Args:
            tool: A tool of an agent.

        Returns:
            A wrapped copy of a ``FunctionTool``; any other tool unchanged.
        """
        if not isinstance(tool, FunctionTool):
            return tool
        inner = tool.on_invoke_tool
        carries_notices = tool.output_json_schema is None

        async def invoke(ctx: ToolContext[Any], arguments: str) -> Any:
            session = self.current_session()
            refusal = await session.abefore_tool_call(ctx.tool_name, arguments, call_id=ctx.tool_call_id)
            if refusal is not None:
                return refusal.message
            result = await inner(ctx, arguments)
            if not carries_notices:
                return result
            injection = await session.aafter_tool_call(
                ctx.tool_name, arguments, result, call_id=ctx.tool_call_id
            )
            return result if injection is None else _with_notice(result, injection.text)

        return dataclasses.replace(tool, on_invoke_tool=invoke)

    def _read_rule(self) -> Tool:
        """``read_rule(name)``: the rule ``rule://name`` names, in the conversation's session."""

        def read_rule(name: str) -> str:
            return self.current_session().read_rule(name)

        return function_tool(read_rule, name_override="read_rule", description_override=READ_RULE_DESCRIPTION)

    def _instructions(self, own: Any) -> _Instructions:
        async def instructions(ctx: RunContextWrapper[Any], agent: Agent[Any]) -> str:
            session = self.current_session()
            await self._user_turn(session, ctx.turn_input)
            text = own if isinstance(own, str) else None
            if callable(own):
                result = own(ctx, agent)
                text = await result if inspect.isawaitable(result) else result
            caller = text if isinstance(text, str) else ""
            return joined(caller, session.system_prompt(caller or None))

        return instructions

    async def _user_turn(self, session: RuleSession, items: Sequence[Any]) -> None:
        """Start the run's user turn (steering, TTSR turn) once, before its first model call.

        The turn's id is the run's (``run``/``run_streamed``/``run_sync``), else the
        user message's position and text in the run's input.
        """
        found = _last_user_message(items)
        if found is None:
            return
        scope = self._scope.get()
        turn = scope.turn if scope is not None and scope.turn is not None else f"{found[0]}:{found[1]}"
        await session.anew_user_turn(found[1], turn)


@dataclass(frozen=True, slots=True)
class _Scope:
    """The conversation code runs in, and the user turn of the run (``None``: derived from the input)."""

    session_id: str
    turn: str | None = None


def _last_user_message(items: Sequence[Any]) -> tuple[int, str] | None:
    """The position and text of the last user message among a run's input items."""
    for index in range(len(items) - 1, -1, -1):
        item = items[index]
        if not isinstance(item, Mapping) or item.get("role") != "user":
            continue
        content = item.get("content")
        if isinstance(content, str):
            return index, content
        parts = content if isinstance(content, list) else []
        return index, "\n".join(
            str(p.get("text")) for p in parts if isinstance(p, Mapping) and p.get("type") == "input_text"
        )
    return None


# -- tool results -----------------------------------------------------------------------

_Structured = (ToolOutputText, ToolOutputImage, ToolOutputFileContent)


def _structured(item: Any) -> bool:
    return isinstance(item, _Structured) or (isinstance(item, Mapping) and "type" in item)


def _with_notice(result: Any, notice: str) -> Any:
    """A tool's result with the notice after it: appended text, or a text item after structured output."""
    if isinstance(result, str):
        return appended(result, notice)
    if _structured(result):
        return [result, ToolOutputText(text=notice)]
    if isinstance(result, list | tuple) and result and all(_structured(item) for item in result):
        return [*result, ToolOutputText(text=notice)]
    return appended("" if result is None else str(result), notice)
