"""pydantic-ai adapter: ``RuleweaveCapability``, an agent capability.

Use::

    from pydantic_ai import Agent
    from ruleweave import RuleweaveConfig
    from ruleweave.adapters.pydantic_ai import RuleweaveCapability

    agent = Agent(model, instructions="...", tools=[...],
                  capabilities=[RuleweaveCapability(RuleweaveConfig(cwd="."))])
    result = await agent.run("Fix the failing test", conversation_id="conv-1")

Each hook only translates between pydantic-ai and the conversation's
``RuleSession`` (from a ``SessionPool``; state in the configured store):

* ``for_run``: the run's own capability, bound to the session of the run's
  ``conversation_id`` (the one passed, else the one of ``message_history``,
  else pydantic-ai's fresh one); ``before_run`` starts a user turn with the
  run's prompt (steering, TTSR turn).
* ``get_instructions``: ``system_prompt()``, plus the streamed rules that
  stopped a reply earlier in the conversation (kept in the store).
* ``before_tool_execute`` raises ``ModelRetry`` with the refusal;
  ``after_tool_execute`` appends the notices (to a text result, else as
  ``ToolReturn.content``).
* Streamed rules, not streamed: ``after_model_request`` checks the whole
  reply; a hit routed to ``retry`` raises ``RetryModelRequest`` (the reply
  stays out of history) and ``prepare_model_request`` adds the rule to that
  attempt's instructions. Streamed (``run_stream``, ``iter``, an event stream
  handler): the wrapper model's ``request_stream`` watches text, thinking and
  tool-argument deltas and, on a retry hit, closes the stream and opens a new
  one with the rule in its instructions, inside the same response
  (``pydantic_ai_stream``).

Notes:
    A refusal is a ``ModelRetry``, so it counts against the tool's retry budget
    (``Agent(retries=...)``). Deltas of a stopped stream already reached the
    consumer (``stream_text(delta=False)`` keeps them in its running text); the
    response the run records, and the output, are the new stream's.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ruleweave.adapters.seams import (
    READ_RULE_DESCRIPTION,
    MissingDependencyError,
    RuleSession,
    RuleSet,
    RuleweaveConfig,
    SessionPool,
    SessionStore,
)

try:
    from pydantic_ai import ModelRetry, RetryModelRequest, RunContext, Tool, ToolReturn
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import BaseToolCallPart, ModelResponse
    from pydantic_ai.models import Model, ModelRequestContext
    from pydantic_ai.tools import ToolDefinition
    from pydantic_ai.toolsets import FunctionToolset
except ImportError as exc:  # pragma: no cover - exercised by re-importing without pydantic-ai
    raise MissingDependencyError("pydantic-ai", "pydantic-ai") from exc

from ruleweave.adapters._streamed import appended, first_retry, joined, keep_text, kept_texts
from ruleweave.adapters.pydantic_ai_stream import WatchedModel, reply_deltas, with_instructions

__all__ = ["RuleweaveCapability"]

class RuleweaveCapability(AbstractCapability[Any]):
    """ruleweave as a pydantic-ai capability (``Agent(..., capabilities=[RuleweaveCapability(config)])``).

    Args:
        config: Where to find the rules (default: ``RuleweaveConfig()`` for the
            process cwd). Give this or ``ruleset``.
        ruleset: An already loaded rule set, shared with other agents.
        store: Session state shared by every conversation (default: the rule set's store).
        ttsr_retries: Replies retried per user turn after streamed rules stop them
            (default ``config.ttsr_retries``); once spent, hits become reminders.
        read_rule_tool: Give the agent a ``read_rule`` tool serving ``rule://`` (the
            prompt tells the model to read rules there).

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
        read_rule_tool: bool = True,
    ) -> None:
        self.read_rule_tool = read_rule_tool
        self.pool = SessionPool.open(
            config, ruleset=ruleset, store=store, ttsr_retries=ttsr_retries, owner="RuleweaveCapability",
            adapter="pydantic-ai",
        )
        self.ruleset = self.pool.ruleset
        self.store: SessionStore = self.pool.store
        self._session: RuleSession | None = None
        self._step_texts: list[str] = []

    def session(self, conversation_id: str) -> RuleSession:
        """The session of a conversation, from the capability's pool.

        Args:
            conversation_id: The conversation's id (``result.conversation_id``).

        Returns:
            The ``RuleSession`` (call ``compacted()`` on it when the history was summarised).
        """
        return self.pool.get(conversation_id)

    def _bound(self, ctx: RunContext[Any]) -> RuleSession:
        if self._session is not None:
            return self._session
        return self.pool.get(ctx.conversation_id or f"run-{ctx.run_id}")

    # -- the run ------------------------------------------------------------------------

    async def for_run(self, ctx: RunContext[Any]) -> AbstractCapability[Any]:
        """This run's capability: bound to the session of ``ctx.conversation_id``.

        Args:
            ctx: The run's context.

        Returns:
            A copy sharing the pool, with the run's session and per-attempt state.
        """
        bound = copy.copy(self)
        bound._session = self._bound(ctx)
        bound._step_texts = []
        return bound

    async def before_run(self, ctx: RunContext[Any]) -> None:
        """Start a user turn with the run's prompt (once, however many processes see it).

        Args:
            ctx: The run's context.
        """
        text = _prompt_text(ctx.prompt)
        if text is not None:
            await self._bound(ctx).anew_user_turn(text, f"run:{ctx.run_id}")

    def get_instructions(self) -> Callable[[RunContext[Any]], Awaitable[str]]:
        """The prompt contribution, resolved for every model request.

        Returns:
            A function of the run context giving ``system_prompt()`` and the kept streamed rules.
        """

        async def instructions(ctx: RunContext[Any]) -> str:
            session = self._bound(ctx)
            return joined(session.system_prompt(), *await kept_texts(session))

        return instructions

    # -- tools --------------------------------------------------------------------------

    def get_toolset(self) -> FunctionToolset[Any] | None:
        """The ``read_rule`` tool (unless turned off), reading in the run's conversation.

        Returns:
            A toolset with ``read_rule(name)``, or ``None``.
        """
        if not self.read_rule_tool:
            return None

        def read_rule(ctx: RunContext[Any], name: str) -> str:
            return self._bound(ctx).read_rule(name)

        return FunctionToolset([Tool(read_rule, name="read_rule", description=READ_RULE_DESCRIPTION)])

    async def before_tool_execute(
        self, ctx: RunContext[Any], *, call: BaseToolCallPart, tool_def: ToolDefinition, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Refuse a call steering or a streamed rule forbids.

        Args:
            ctx: The run's context.
            call: The tool call.
            tool_def: The tool's definition.
            args: The validated arguments.

        Returns:
            ``args`` unchanged.

        Raises:
            ModelRetry: The call is refused; the message says why.
        """
        refusal = await self._bound(ctx).abefore_tool_call(call.tool_name, args, call_id=call.tool_call_id)
        if refusal is not None:
            raise ModelRetry(refusal.message)
        return args

    async def after_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: BaseToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
        result: Any,
    ) -> Any:
        """Append the notices the call's files call for.

        Args:
            ctx: The run's context.
            call: The tool call.
            tool_def: The tool's definition.
            args: The validated arguments.
            result: The tool's result.

        Returns:
            The result with the notices (a text result gets them appended; any
            other goes into a ``ToolReturn`` whose ``content`` carries them).
        """
        injection = await self._bound(ctx).aafter_tool_call(
            call.tool_name, args, result, call_id=call.tool_call_id
        )
        return result if injection is None else _with_notice(result, injection.text)

    # -- streamed rules -----------------------------------------------------------------

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        """A new request step: no rule added to its attempts yet."""
        self._step_texts = []
        return request_context

    async def prepare_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        """Add the rules that stopped this step's earlier attempts to this attempt's instructions."""
        if self._step_texts:
            request_context.model_request_parameters = with_instructions(
                request_context.model_request_parameters, self._step_texts
            )
        return request_context

    async def after_model_request(
        self, ctx: RunContext[Any], *, request_context: ModelRequestContext, response: ModelResponse
    ) -> ModelResponse:
        """Check a whole (not streamed) reply; a retry hit drops it and asks again with the rule.

        Raises:
            RetryModelRequest: A streamed rule stops the reply.
        """
        if request_context.streaming:
            return response
        session = self._bound(ctx)
        retry = await first_retry(session, reply_deltas(response.parts))
        if retry is None:
            return response
        self._step_texts.append(retry.text)
        await keep_text(session, retry.text)
        raise RetryModelRequest()

    def get_wrapper_model(self, model: Model) -> Model | None:
        """Watch streamed replies of this run's model requests."""
        if self._session is None:
            return None
        return WatchedModel(model, self._session)


# -- translation helpers ----------------------------------------------------------------------


def _prompt_text(prompt: Any) -> str | None:
    """The text of a run's user prompt (``None`` for a run without one, e.g. resuming deferred tools)."""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, Sequence):
        texts = [item for item in prompt if isinstance(item, str)]
        return "\n".join(texts) if texts else None
    return None


def _with_notice(result: Any, notice: str) -> Any:
    """A tool result with the notice: appended to text, else carried by a ``ToolReturn``'s content."""
    if isinstance(result, str):
        return appended(result, notice)
    if isinstance(result, ToolReturn):
        if isinstance(result.return_value, str):
            return dataclasses.replace(result, return_value=appended(result.return_value, notice))
        content = result.content
        if content is None:
            merged: Any = notice
        elif isinstance(content, str):
            merged = appended(content, notice)
        else:
            merged = [*content, notice]
        return dataclasses.replace(result, content=merged)
    return ToolReturn(return_value=result, content=notice)
