"""What ``RuleweaveMiddleware`` keeps in a LangChain thread, and how notices ride on tool messages.

The thread state carries the middleware's private keys (``RuleweaveState``):
the session id of a run without a ``thread_id``, streamed-rule texts that stay
in the system message, the notices the thread holds (each against the tool
call whose ``ToolMessage`` carries it) and the steering decision. The helpers
here read those keys, and append a notice to the ``ToolMessage`` answering a
call — also inside a ``Command`` — recording it in the state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any, NotRequired, cast

from ruleweave.adapters.seams import Injection, MissingDependencyError

try:
    from langchain.agents.middleware.types import AgentState, OmitFromSchema, ToolCallRequest
    from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
    from langgraph.types import Command
except ImportError as exc:  # pragma: no cover - exercised by re-importing without langchain
    raise MissingDependencyError("langchain", "langchain") from exc

SESSION_KEY = "ruleweave_session"
"""State key holding the session id of a run that has no ``thread_id``."""

TTSR_KEY = "ruleweave_ttsr"
"""State key holding the streamed-rule texts injected so far in the thread."""

NOTICES_KEY = "ruleweave_notices"
"""State key: each notice given in the thread → the id of the tool call whose result carries it."""

DECISION_KEY = "ruleweave_decision"
"""State key holding the current steering decision (JSON), so a resumed thread keeps it."""

PRIVATE = OmitFromSchema(input=True, output=True)
Content = str | list[str | dict[str, Any]]


def merge_notices(left: dict[str, str] | None, right: dict[str, str] | None) -> dict[str, str]:
    """Reducer of ``ruleweave_notices``: parallel tool calls each add their notices."""
    return {**(left or {}), **(right or {})}


class RuleweaveState(AgentState[Any]):
    """The agent state keys the middleware keeps (private: not in the agent's input or output).

    Attributes:
        ruleweave_session: The session id of a run without a ``thread_id``.
        ruleweave_ttsr: Streamed-rule texts that interrupted a model call; they stay in
            the system message for the rest of the thread.
        ruleweave_notices: Notice key → the tool call whose result carries it. A notice
            counts as given while that ``ToolMessage`` is in the thread's messages, so a
            restart on the same checkpointer does not repeat it, and a summary that drops
            the message, a fork from before it, or a thread without a checkpointer gets it
            again.
        ruleweave_decision: The steering decision of the thread's last user turn (JSON).
    """

    ruleweave_session: NotRequired[Annotated[str, PRIVATE]]
    ruleweave_ttsr: NotRequired[Annotated[list[str], PRIVATE]]
    ruleweave_notices: NotRequired[Annotated[dict[str, str], PRIVATE, merge_notices]]
    ruleweave_decision: NotRequired[Annotated[str, PRIVATE]]


def state_of(state: Any) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", state) if isinstance(state, Mapping) else {}


def ttsr_texts(state: Any) -> list[str]:
    texts = state_of(state).get(TTSR_KEY)
    return [t for t in texts if isinstance(t, str)] if isinstance(texts, list) else []


def appended(content: Content, text: str) -> Content:
    """``content`` with ``text`` after it: a blank line for strings, a text block for lists."""
    if isinstance(content, str):
        if not content:
            return text
        separator = "\n" if content.endswith("\n") else "\n\n"
        return f"{content}{separator}{text}"
    return [*content, {"type": "text", "text": text}]


def given_notices(state: Mapping[str, Any]) -> set[str]:
    """Notices the thread holds: recorded in its state, their carrying ToolMessage still present."""
    notices = state.get(NOTICES_KEY)
    if not isinstance(notices, Mapping) or not notices:
        return set()
    present = {m.tool_call_id for m in state.get("messages") or () if isinstance(m, ToolMessage)}
    return {key for key, call_id in notices.items() if call_id in present}


def step_of(state: Mapping[str, Any], call_id: str | None) -> str | None:
    """The id of the model message that issued ``call_id`` (its parallel siblings share it)."""
    messages = state.get("messages") or []
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, AIMessage) and any(c.get("id") == call_id for c in message.tool_calls):
            return message.id or f"message-{index}"
    return call_id


def call_parts(request: ToolCallRequest) -> tuple[str, dict[str, Any], str | None]:
    call = request.tool_call
    return call["name"], dict(call.get("args") or {}), call.get("id")


def refused(name: str, call_id: str | None, message: str) -> ToolMessage:
    return ToolMessage(content=message, tool_call_id=call_id or "", name=name, status="error")


def content_of(result: ToolMessage | Command[Any], call_id: str | None) -> Any:
    """The tool's output as the model will see it (for custom extractors)."""
    if isinstance(result, ToolMessage):
        return result.content
    return next((m.content for m in command_messages(result) if answers(m, call_id)), None)


def command_messages(command: Command[Any]) -> list[Any]:
    update = command.update
    if isinstance(update, dict):
        messages = update.get("messages")
        return messages if isinstance(messages, list) else []
    return list(update) if isinstance(update, list) else []


def answers(message: Any, call_id: str | None) -> bool:
    return isinstance(message, ToolMessage) and message.tool_call_id == (call_id or "")


def noted(message: ToolMessage, text: str) -> ToolMessage:
    return message.model_copy(update={"content": appended(message.content, text)})


def with_notes(
    result: ToolMessage | Command[Any], call_id: str | None, injection: Injection | None
) -> ToolMessage | Command[Any]:
    """``result`` with the notice appended to the ``ToolMessage`` answering ``call_id``.

    Notices are recorded in the thread state (``NOTICES_KEY``) against the call,
    so the result becomes a ``Command`` carrying the message and that record.
    """
    if injection is None:
        return result
    given = {item.key: call_id or "" for item in injection.items if item.key}
    if isinstance(result, ToolMessage):
        message = noted(result, injection.text)
        return Command(update={"messages": [message], NOTICES_KEY: given}) if given else message
    messages = command_messages(result)
    index = next((i for i, m in enumerate(messages) if answers(m, call_id)), None)
    if index is None:
        return result
    edited: list[BaseMessage] = list(messages)
    edited[index] = noted(messages[index], injection.text)
    update = result.update
    if isinstance(update, dict):
        new_update: Any = {**update, "messages": edited}
        if given:
            new_update[NOTICES_KEY] = merge_notices(update.get(NOTICES_KEY), given)
    else:
        new_update = edited
    return dataclasses.replace(result, update=new_update)
