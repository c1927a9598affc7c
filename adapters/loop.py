"""Hand-written agent loops over the three common wire formats, with no SDK import.

Anthropic Messages: the assistant's ``tool_use`` blocks and the next user
message's ``tool_result`` blocks. OpenAI Chat Completions: the assistant's
``tool_calls`` and the ``role: tool`` messages. OpenAI Responses: the
``function_call`` output items and the ``function_call_output`` input items.
Each helper reads the SDKs' own objects (a ``Message``, ``ChatCompletion``,
``ChatCompletionMessage``, ``Response``, content blocks, output items —
through their ``model_dump()``) as well as plain dicts, and returns new dicts,
which both SDKs accept back (inputs are never mutated)::

    loop = AnthropicLoop(session)
    loop.user_turn(user_text)                  # once per user message: steering, a new turn
    response = client.messages.create(system=loop.system("You are a coding agent."), ...)
    refused = loop.refusals(response)          # tool_result errors for calls that must not run
    results = [...]                            # run the others; send a result for every call
    user = loop.tool_results(response, {"role": "user", "content": refused + results})

A refused call gets no notice: a loop remembers the ids it refused (the last
1,024) and claims rules only for calls that ran and whose results are given;
all else lives in the session. ``loop.stream()`` watches a streamed call (see
``ruleweave.adapters.loop_streams``); async twins use the session's async store path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from ruleweave._lru import LruCache
from ruleweave.adapters.loop_streams import (
    AnthropicStream,
    LoopStream,
    OpenAIChatStream,
    OpenAIResponsesStream,
    field,
    plain,
    plain_items,
    text_of,
)
from ruleweave.adapters.seams import (
    READ_RULE_DESCRIPTION,
    READ_RULE_TOOL,
    Injection,
    RuleSession,
    TtsrAction,
    TtsrRoute,
    parse_args,
)

__all__ = [
    "AnthropicLoop",
    "AnthropicStream",
    "LoopStream",
    "OpenAIChatLoop",
    "OpenAIChatStream",
    "OpenAIResponsesLoop",
    "OpenAIResponsesStream",
    "ToolCall",
]

REFUSED_IDS = 1024
"""How many refused call ids a loop remembers (their results get no notice)."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call, whatever the wire format.

    Attributes:
        id: The call id (``tool_use.id`` / ``tool_calls[].id`` / ``function_call.call_id``).
        name: The tool's name.
        args: The arguments, decoded.
    """

    id: str
    name: str
    args: Mapping[str, Any]


def _append_text(content: Any, text: str, part: str) -> Any:
    """Content (a string or a list of content parts of type ``part``) with ``text`` appended."""
    if content is None or content == "":
        return text
    if isinstance(content, str):
        return f"{content}\n\n{text}"
    if isinstance(content, (list, tuple)):
        return [*content, {"type": part, "text": text}]
    return f"{content}\n\n{text}"


class _WireLoop:
    """What the wire formats share; subclasses only read calls and replies and write results."""

    # How a format writes results (Anthropic's here): the key and value marking one, the key of its
    # call id and of its content, the part type a notice takes in list content, whether a refusal
    # says is_error; and the format's stream watcher.
    _result: tuple[str, str] = ("type", "tool_result")
    _id = "tool_use_id"
    _content = "content"
    _part = "text"
    _error_flag = False
    _watcher: type[LoopStream] = AnthropicStream

    def __init__(self, session: RuleSession) -> None:
        self.session = session
        self._refused: LruCache[str, bool] = LruCache(REFUSED_IDS)

    def system(self, base: str = "", extra: Sequence[str] = ()) -> str:
        """The system prompt (or Responses ``instructions``): ``base``, the session's part, then ``extra``.

        Args:
            base: Your own system prompt (generic rules it already holds are left out).
            extra: Texts of streamed rules that stopped a stream (each retry's
                ``route.text``); keep them for the rest of the turn so the model
                does not make the same mistake on its next call.

        Returns:
            The parts joined by blank lines.
        """
        addition = self.session.system_prompt(base or None)
        return "\n\n".join(part for part in (base, addition, *extra) if part)

    def read_rule_tool(self) -> dict[str, Any]:
        """The ``read_rule`` tool's definition in this wire format (add it to your ``tools``)."""
        schema = {
            "type": "object",
            "properties": {"name": {"type": "string", "description": "The rule's name or rule:// address."}},
            "required": ["name"],
        }
        return self._tool_definition(READ_RULE_TOOL, READ_RULE_DESCRIPTION, schema)

    @staticmethod
    def _tool_definition(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
        return {"name": name, "description": description, "input_schema": schema}

    def read_rule(self, call: ToolCall) -> str | None:
        """The result of a ``read_rule`` call (the rule's text), or ``None`` for another tool."""
        if call.name != READ_RULE_TOOL:
            return None
        return self.session.read_rule(str(call.args.get("name", "")))

    def user_turn(self, text: str | None = None, *, turn_id: str | None = None) -> bool:
        """Start the turn that answers a new user message: steer with its text, begin a streamed-rule turn.

        Call it once per user message, before its first model call. Nothing else
        in the loop starts a turn: the retries streamed rules may cause
        (``ttsr_retries``) are counted per turn, across its retried calls and the
        tool-call rounds that follow.

        Args:
            text: What the user said (steers with the SkillSpec, when there is one).
            turn_id: The user message's id: the turn then starts once however many
                processes see it (``session.new_user_turn``).

        Returns:
            Whether this call started the turn (``False`` when ``turn_id`` was started before).
        """
        if turn_id is not None:
            return self.session.new_user_turn(text or "", turn_id)
        if text is not None:
            self.session.steer(text)
        self.session.turn_start()
        return True

    async def auser_turn(self, text: str | None = None, *, turn_id: str | None = None) -> bool:
        """Async twin of ``user_turn``."""
        if turn_id is not None:
            return await self.session.anew_user_turn(text or "", turn_id)
        if text is not None:
            await self.session.asteer(text)
        await self.session.aturn_start()
        return True

    @staticmethod
    def tool_calls(assistant: Any) -> list[ToolCall]:  # pragma: no cover - abstract
        """The tool calls of an assistant reply."""
        raise NotImplementedError

    @staticmethod
    def _reply(assistant: Any) -> tuple[str, str]:  # pragma: no cover - abstract
        """The reply's text and reasoning."""
        raise NotImplementedError

    def stream(self) -> LoopStream:
        """A watcher for one streamed model call of this format (make one per call, retries included).

        Returns:
            ``AnthropicStream``, ``OpenAIChatStream`` or ``OpenAIResponsesStream``.
        """
        return self._watcher(self.session)

    def _refusal(self, call: ToolCall, message: str) -> dict[str, Any]:
        """The result answering a refused call with ``message`` (the call is remembered: no notice)."""
        self._refused.setdefault(call.id, True)
        key, value = self._result
        out: dict[str, Any] = {key: value, self._id: call.id, self._content: message}
        if self._error_flag:
            out["is_error"] = True
        return out

    def _result_id(self, item: Mapping[str, Any]) -> str | None:
        """The id of the call a result item answers, or ``None`` for other items."""
        key, value = self._result
        return str(item.get(self._id, "")) if item.get(key) == value else None

    def refusals(self, assistant: Any) -> list[dict[str, Any]]:
        """Results refusing the calls steering or a streamed rule forbids (run none of them).

        Args:
            assistant: The assistant reply (an SDK object or a dict).

        Returns:
            One result per refused call, to send with the other calls' results.
        """
        out = []
        for call in self.tool_calls(assistant):
            refusal = self.session.before_tool_call(call.name, call.args, call_id=call.id or None)
            if refusal is not None:
                out.append(self._refusal(call, refusal.message))
        return out

    async def arefusals(self, assistant: Any) -> list[dict[str, Any]]:
        """Async twin of ``refusals``."""
        out = []
        for call in self.tool_calls(assistant):
            refusal = await self.session.abefore_tool_call(call.name, call.args, call_id=call.id or None)
            if refusal is not None:
                out.append(self._refusal(call, refusal.message))
        return out

    def check_reply(self, assistant: Any) -> TtsrRoute | None:
        """Check a reply that was not streamed for streamed rules (its tool calls: ``refusals``).

        Args:
            assistant: The assistant reply (an SDK object or a dict).

        Returns:
            The ``retry`` route when the loop must drop the reply and call the model
            again with ``route.text`` in the system prompt, else ``None``.
        """
        return _retry(self.session.check_reply(*self._reply(assistant)))

    async def acheck_reply(self, assistant: Any) -> TtsrRoute | None:
        """Async twin of ``check_reply``."""
        return _retry(await self.session.acheck_reply(*self._reply(assistant)))

    def _due(self, assistant: Any, items: Sequence[Any]) -> list[tuple[ToolCall, Any]]:
        """The calls that ran (not refused) and have a result among ``items``, with that result."""
        results: dict[str, Any] = {}
        for item in plain_items(items):
            call_id = self._result_id(item) if isinstance(item, Mapping) else None
            if call_id is not None:
                results.setdefault(call_id, item.get(self._content))
        return [
            (call, results[call.id])
            for call in self.tool_calls(assistant)
            if call.id in results and call.id not in self._refused
        ]

    def _notify(self, assistant: Any, items: Sequence[Any]) -> list[Any]:
        injections = {
            call.id: self.session.after_tool_call(call.name, call.args, result, call_id=call.id or None)
            for call, result in self._due(assistant, items)
        }
        return self._with_notices(items, injections)

    async def _anotify(self, assistant: Any, items: Sequence[Any]) -> list[Any]:
        session = self.session
        injections = {
            call.id: await session.aafter_tool_call(call.name, call.args, result, call_id=call.id or None)
            for call, result in self._due(assistant, items)
        }
        return self._with_notices(items, injections)

    def _with_notices(self, items: Sequence[Any], injections: dict[str, Injection | None]) -> list[Any]:
        """``items``, each notice on its call's first result (a new dict); dicts copied, objects kept."""
        out: list[Any] = []
        for item in items:
            value = plain(item)
            call_id = self._result_id(value) if isinstance(value, Mapping) else None
            injection = injections.pop(call_id, None) if call_id is not None else None
            if injection is not None:
                content = _append_text(value.get(self._content), injection.text, self._part)
                out.append({**value, self._content: content})
            else:
                out.append(dict(item) if isinstance(item, Mapping) else item)
        return out


def _retry(decided: TtsrRoute | None) -> TtsrRoute | None:
    return decided if decided is not None and decided.action is TtsrAction.RETRY else None


class AnthropicLoop(_WireLoop):
    """ruleweave for a loop over the Anthropic Messages format.

    An assistant reply is a ``Message``, a message dict (``{"role": "assistant",
    "content": response.content}`` as the Anthropic docs write it) or its list of
    content blocks; blocks may be SDK objects or dicts.

    Args:
        session: The session to weave.
    """

    _error_flag = True

    @staticmethod
    def _blocks(assistant: Any) -> list[Any]:
        value = plain(assistant)
        return plain_items(value.get("content") if isinstance(value, Mapping) else value)

    @staticmethod
    def tool_calls(assistant: Any) -> list[ToolCall]:
        """The ``tool_use`` blocks of an assistant reply."""
        return [
            ToolCall(str(block.get("id", "")), str(block.get("name", "")),
                     dict(parse_args(block.get("input"))))
            for block in AnthropicLoop._blocks(assistant)
            if isinstance(block, Mapping) and block.get("type") == "tool_use"
        ]

    @staticmethod
    def _reply(assistant: Any) -> tuple[str, str]:
        blocks = [b for b in AnthropicLoop._blocks(assistant) if isinstance(b, Mapping)]
        text = "\n".join(text_of(b.get("text")) for b in blocks if b.get("type") == "text")
        thinking = "\n".join(text_of(b.get("thinking")) for b in blocks if b.get("type") == "thinking")
        return text, thinking

    @overload
    def tool_results(self, assistant: Any, user: Mapping[str, Any]) -> dict[str, Any]: ...
    @overload
    def tool_results(self, assistant: Any, user: Sequence[Any]) -> list[Any]: ...

    def tool_results(
        self, assistant: Any, user: Mapping[str, Any] | Sequence[Any]
    ) -> dict[str, Any] | list[Any]:
        """The user message (or its list of blocks) with each ``tool_result``'s notice appended.

        Args:
            assistant: The reply whose calls ran (an SDK object or a dict).
            user: The next user message, or its content blocks (refusals included).

        Returns:
            The same shape, as new dicts.
        """
        if isinstance(user, Mapping):
            if not isinstance(user.get("content"), (list, tuple)):  # string content: no results
                return dict(user)
            return {**user, "content": self._notify(assistant, user["content"])}
        return self._notify(assistant, user)

    @overload
    async def atool_results(self, assistant: Any, user: Mapping[str, Any]) -> dict[str, Any]: ...
    @overload
    async def atool_results(self, assistant: Any, user: Sequence[Any]) -> list[Any]: ...

    async def atool_results(
        self, assistant: Any, user: Mapping[str, Any] | Sequence[Any]
    ) -> dict[str, Any] | list[Any]:
        """Async twin of ``tool_results``."""
        if isinstance(user, Mapping):
            if not isinstance(user.get("content"), (list, tuple)):  # string content: no results
                return dict(user)
            return {**user, "content": await self._anotify(assistant, user["content"])}
        return await self._anotify(assistant, user)


class _ListedResults(_WireLoop):
    """Formats whose results are items of a list: Chat's tool messages, Responses' input items."""

    def tool_results(self, assistant: Any, items: Sequence[Any]) -> list[Any]:
        """The result items, each with its call's notice appended.

        Chat: to a ``role: tool`` message's ``content``; Responses: to a
        ``function_call_output`` item's ``output``.

        Args:
            assistant: The reply whose calls ran (an SDK object or a dict).
            items: The results, refusals included; other items are copied (dicts) or kept (objects).

        Returns:
            The items in order, each result with a notice as a new dict.
        """
        return self._notify(assistant, items)

    async def atool_results(self, assistant: Any, items: Sequence[Any]) -> list[Any]:
        """Async twin of ``tool_results``."""
        return await self._anotify(assistant, items)


class OpenAIChatLoop(_ListedResults):
    """ruleweave for a loop over the OpenAI Chat Completions format.

    An assistant reply is a ``ChatCompletion`` (its first choice's message is
    read), a ``ChatCompletionMessage`` or a message dict.

    Args:
        session: The session to weave.
    """

    _result = ("role", "tool")
    _id = "tool_call_id"
    _watcher = OpenAIChatStream

    @staticmethod
    def _tool_definition(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
        function = {"name": name, "description": description, "parameters": schema}
        return {"type": "function", "function": function}

    @staticmethod
    def _message(assistant: Any) -> Mapping[str, Any]:
        value = plain(assistant)
        choices = field(value, "choices")
        if isinstance(choices, (list, tuple)):
            value = plain(field(plain(choices[0]), "message")) if choices else {}
        return value if isinstance(value, Mapping) else {}

    @staticmethod
    def tool_calls(assistant: Any) -> list[ToolCall]:
        """The function ``tool_calls`` of an assistant reply (arguments JSON decoded)."""
        out = []
        for call in plain_items(OpenAIChatLoop._message(assistant).get("tool_calls")):
            if not isinstance(call, Mapping) or call.get("type", "function") not in ("function", None):
                continue
            function = call.get("function")
            function = function if isinstance(function, Mapping) else {}
            out.append(
                ToolCall(str(call.get("id", "")), str(function.get("name", "")),
                         dict(parse_args(function.get("arguments"))))
            )
        return out

    @staticmethod
    def _reply(assistant: Any) -> tuple[str, str]:
        message = OpenAIChatLoop._message(assistant)
        content = message.get("content")
        if isinstance(content, (list, tuple)):
            content = "\n".join(text_of(field(part, "text")) for part in plain_items(content))
        thinking = text_of(message.get("reasoning_content")) or text_of(message.get("reasoning"))
        return text_of(content), thinking



class OpenAIResponsesLoop(_ListedResults):
    """ruleweave for a loop over the OpenAI Responses format (``client.responses.create``).

    An assistant reply is a ``Response`` (its ``output`` is read), a response
    dict, or its list of output items (SDK objects or dicts). The system prompt
    goes into ``instructions``.

    Args:
        session: The session to weave.
    """

    _result = ("type", "function_call_output")
    _id = "call_id"
    _content = "output"
    _part = "input_text"
    _watcher = OpenAIResponsesStream

    @staticmethod
    def _tool_definition(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
        return {"type": "function", "name": name, "description": description, "parameters": schema}

    @staticmethod
    def _output(response: Any) -> list[Any]:
        value = plain(response)
        return plain_items(value.get("output") if isinstance(value, Mapping) else value)

    @staticmethod
    def tool_calls(assistant: Any) -> list[ToolCall]:
        """The ``function_call`` items of a response (``id`` is their ``call_id``)."""
        return [
            ToolCall(str(item.get("call_id", "")), str(item.get("name", "")),
                     dict(parse_args(item.get("arguments"))))
            for item in OpenAIResponsesLoop._output(assistant)
            if isinstance(item, Mapping) and item.get("type") == "function_call"
        ]

    @staticmethod
    def _reply(assistant: Any) -> tuple[str, str]:
        text: list[str] = []
        thinking: list[str] = []
        for item in OpenAIResponsesLoop._output(assistant):
            kind = field(item, "type")
            if kind == "message":
                text += [text_of(field(p, "text")) for p in plain_items(field(item, "content"))]
            elif kind == "reasoning":
                parts = [*plain_items(field(item, "summary")), *plain_items(field(item, "content"))]
                thinking += [text_of(field(p, "text")) for p in parts]
        return "\n".join(filter(None, text)), "\n".join(filter(None, thinking))

