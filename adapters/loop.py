"""Hand-written agent loops over the two common wire formats, with no SDK import.

Anthropic Messages: the assistant's ``tool_use`` blocks and the next user
message's ``tool_result`` blocks. OpenAI Chat Completions: the assistant's
``tool_calls`` and the ``role: tool`` messages. Each helper takes plain
dicts and returns new dicts (inputs are never mutated)::

    loop = AnthropicLoop(session)
    system = loop.system("You are a coding agent.")
    ...                                   # the model answers with tool_use blocks
    refused = loop.refusals(assistant)    # tool_result errors for forbidden calls
    user = loop.tool_results(assistant, user)   # notices appended to tool_result content

Both classes keep no state of their own: the session does (what was
injected, steering). Async twins use the session's async store path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ruleweave.notices import Injection
from ruleweave.session import RuleSession
from ruleweave.touch import parse_args


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call, whatever the wire format.

    Attributes:
        id: The call id (``tool_use.id`` / ``tool_calls[].id``).
        name: The tool's name.
        args: The arguments, decoded.
    """

    id: str
    name: str
    args: Mapping[str, Any]


def _append_text(content: Any, text: str) -> Any:
    """Content (a string or a list of content blocks) with ``text`` appended."""
    if content is None or content == "":
        return text
    if isinstance(content, str):
        return f"{content}\n\n{text}"
    if isinstance(content, list):
        return [*content, {"type": "text", "text": text}]
    return f"{content}\n\n{text}"


class _WireLoop:
    """What both wire formats share; subclasses only read calls and write results."""

    def __init__(self, session: RuleSession) -> None:
        self.session = session

    def system(self, base: str = "") -> str:
        """``base`` followed by what the session adds to the system prompt."""
        addition = self.session.system_prompt(base or None)
        return f"{base}\n\n{addition}" if base and addition else base or addition

    @staticmethod
    def tool_calls(assistant: Mapping[str, Any]) -> list[ToolCall]:  # pragma: no cover - abstract
        """The tool calls of an assistant message."""
        raise NotImplementedError

    @staticmethod
    def _refusal(call: ToolCall, message: str) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def refusals(self, assistant: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Results refusing the calls steering or a streamed rule forbids (run none of them)."""
        out = []
        for call in self.tool_calls(assistant):
            refusal = self.session.before_tool_call(call.name, call.args, call_id=call.id or None)
            if refusal is not None:
                out.append(self._refusal(call, refusal.message))
        return out

    def _injections(self, assistant: Mapping[str, Any]) -> dict[str, Injection | None]:
        return {
            call.id: self.session.after_tool_call(call.name, call.args, call_id=call.id or None)
            for call in self.tool_calls(assistant)
        }

    async def _ainjections(self, assistant: Mapping[str, Any]) -> dict[str, Injection | None]:
        return {
            call.id: await self.session.aafter_tool_call(call.name, call.args, call_id=call.id or None)
            for call in self.tool_calls(assistant)
        }


class AnthropicLoop(_WireLoop):
    """ruleweave for a loop over the Anthropic Messages format.

    Args:
        session: The session to weave.
    """

    @staticmethod
    def tool_calls(assistant: Mapping[str, Any]) -> list[ToolCall]:
        """The ``tool_use`` blocks of an assistant message."""
        content = assistant.get("content")
        if not isinstance(content, list):
            return []
        return [
            ToolCall(
                str(block.get("id", "")), str(block.get("name", "")), dict(parse_args(block.get("input")))
            )
            for block in content
            if isinstance(block, Mapping) and block.get("type") == "tool_use"
        ]

    @staticmethod
    def _refusal(call: ToolCall, message: str) -> dict[str, Any]:
        return {"type": "tool_result", "tool_use_id": call.id, "content": message, "is_error": True}

    def tool_results(self, assistant: Mapping[str, Any], user: Mapping[str, Any]) -> dict[str, Any]:
        """The user message with each ``tool_result``'s notice appended."""
        return _with_anthropic_notices(user, self._injections(assistant))

    async def atool_results(
        self, assistant: Mapping[str, Any], user: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Async twin of ``tool_results``."""
        return _with_anthropic_notices(user, await self._ainjections(assistant))


def _with_anthropic_notices(
    user: Mapping[str, Any], injections: Mapping[str, Injection | None]
) -> dict[str, Any]:
    content = user.get("content")
    if not isinstance(content, list):
        return dict(user)
    blocks = []
    for block in content:
        if isinstance(block, Mapping) and block.get("type") == "tool_result":
            injection = injections.get(str(block.get("tool_use_id", "")))
            if injection is not None:
                block = {**block, "content": _append_text(block.get("content"), injection.text)}
        blocks.append(block)
    return {**user, "content": blocks}


class OpenAIChatLoop(_WireLoop):
    """ruleweave for a loop over the OpenAI Chat Completions format.

    Args:
        session: The session to weave.
    """

    @staticmethod
    def tool_calls(assistant: Mapping[str, Any]) -> list[ToolCall]:
        """The ``tool_calls`` of an assistant message (arguments JSON decoded)."""
        calls = assistant.get("tool_calls")
        if not isinstance(calls, list):
            return []
        out = []
        for call in calls:
            if not isinstance(call, Mapping):
                continue
            function = call.get("function")
            function = function if isinstance(function, Mapping) else {}
            out.append(
                ToolCall(str(call.get("id", "")), str(function.get("name", "")),
                         dict(parse_args(function.get("arguments"))))
            )
        return out

    @staticmethod
    def _refusal(call: ToolCall, message: str) -> dict[str, Any]:
        return {"role": "tool", "tool_call_id": call.id, "content": message}

    def tool_results(
        self, assistant: Mapping[str, Any], tool_messages: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The ``role: tool`` messages, each with its notice appended."""
        return _with_openai_notices(tool_messages, self._injections(assistant))

    async def atool_results(
        self, assistant: Mapping[str, Any], tool_messages: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Async twin of ``tool_results``."""
        return _with_openai_notices(tool_messages, await self._ainjections(assistant))


def _with_openai_notices(
    messages: Iterable[Mapping[str, Any]], injections: Mapping[str, Injection | None]
) -> list[dict[str, Any]]:
    out = []
    for message in messages:
        injection = injections.get(str(message.get("tool_call_id", "")))
        if message.get("role") == "tool" and injection is not None:
            message = {**message, "content": _append_text(message.get("content"), injection.text)}
        out.append(dict(message))
    return out
