"""ruleweave in a LangChain v1 agent: ``create_agent(..., middleware=[RuleweaveMiddleware(config)])``.

Run: ``python examples/langchain_agent.py`` (offline: a scripted chat model
stands in for a real one). ``--model NAME`` uses a real provider through
``langchain.chat_models.init_chat_model`` (e.g. ``openai:gpt-4o-mini``, with
that provider's package and API key); ``--event-log PATH`` writes the run's
event log for ``ruleweave replay``.

The agent works on ``examples/demo-repo`` with two tools, ``read`` and
``write`` (writes stay in memory: the demo repository is never changed). The
run prints what the model saw in its system message, the notices ruleweave
appended to tool results, and the streamed reply it stopped and retried.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from invoice_task import CENTS_FIX, FLOAT_FIX, REPO, SYSTEM, TASK
from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, AgentState, ModelRequest, ModelResponse
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    ToolCall,
    ToolMessage,
)
from langchain_core.outputs import ChatGenerationChunk, ChatResult
from langchain_core.tools import BaseTool, tool

from ruleweave import RuleweaveConfig
from ruleweave.adapters.langchain import RuleweaveMiddleware

THREAD = "langchain-demo"


def call(name: str, call_id: str, **args: str) -> ToolCall:
    """One tool call of a scripted reply."""
    return ToolCall(name=name, args=args, id=call_id)


# What a model might answer, one reply per model call. The third reply writes
# money through float(): the demo repo's streamed rule `no-float-money` stops
# it mid-stream, and the model is asked again with the rule in its prompt.
SCRIPT: list[AIMessage] = [
    AIMessage("", id="reply-1", tool_calls=[call("read", "c1", path="services/api/handlers.py")]),
    AIMessage("", id="reply-2", tool_calls=[call("read", "c2", path="services/api/store.py"),
                                            call("read", "c3", path="src/app.ts")]),
    AIMessage("", id="reply-3", tool_calls=[call("write", "c4", path="services/api/handlers.py",
                                                 content=FLOAT_FIX)]),
    AIMessage("", id="reply-4", tool_calls=[call("write", "c5", path="services/api/handlers.py",
                                                 content=CENTS_FIX)]),
    AIMessage("Fixed: totals are summed as integer cents, never through float().", id="reply-5"),
]


class ScriptedModel(GenericFakeChatModel):
    """A stand-in chat model: replays ``SCRIPT``, streaming text and tool-call arguments."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedModel:
        """The replies are scripted, so the tools change nothing."""
        return self

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        result: ChatResult = self._generate(messages, stop=stop)
        reply = result.generations[0].message
        assert isinstance(reply, AIMessage) and isinstance(reply.content, str)
        for token in re.split(r"(\s)", reply.content) if reply.content else []:
            yield ChatGenerationChunk(message=AIMessageChunk(content=token, id=reply.id))
        for index, one in enumerate(reply.tool_calls):
            text = json.dumps(one["args"])
            for start in range(0, len(text), 16):
                head = start == 0
                chunk = AIMessageChunk(content="", id=reply.id, tool_call_chunks=[{
                    "type": "tool_call_chunk", "index": index, "args": text[start : start + 16],
                    "id": one["id"] if head else None, "name": one["name"] if head else None,
                }])
                yield ChatGenerationChunk(message=chunk)


@dataclass
class Workspace:
    """The demo repository as the tools see it: reads from disk, writes kept in memory."""

    root: Path
    written: dict[str, str] = field(default_factory=dict)

    def tools(self) -> list[BaseTool]:
        """The agent's tools: ``read`` and ``write``."""

        @tool
        def read(path: str) -> str:
            """Read a file of the repository."""
            if path in self.written:
                return self.written[path]
            target = (self.root / path).resolve()
            if not target.is_relative_to(self.root) or not target.is_file():
                return f"error: no file {path}"
            return target.read_text(encoding="utf-8")

        @tool
        def write(path: str, content: str) -> str:
            """Write a file of the repository."""
            self.written[path] = content
            return f"wrote {len(content)} bytes to {path}"

        return [read, write]


@dataclass
class Recorder(AgentMiddleware[AgentState[Any], Any, Any]):
    """Records each model request as the model receives it (listed after ruleweave: inside it)."""

    calls: list[tuple[ModelRequest[Any], str]] = field(default_factory=list)

    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        """Pass the request on; note how it ended."""
        try:
            response = handler(request)
        except Exception as exc:
            self.calls.append((request, f"stopped: {exc}"))
            raise
        self.calls.append((request, describe(response.result[-1])))
        return response

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        """Async twin of ``wrap_model_call``."""
        try:
            response = await handler(request)
        except Exception as exc:
            self.calls.append((request, f"stopped: {exc}"))
            raise
        self.calls.append((request, describe(response.result[-1])))
        return response


def describe(message: BaseMessage) -> str:
    """A reply in one line: its tool calls, else its text."""
    if isinstance(message, AIMessage) and message.tool_calls:
        return ", ".join(f"{c['name']}({c['args'].get('path', '')})" for c in message.tool_calls)
    return repr(message.text[:100])


def notice_lines(result: str) -> list[str]:
    """The header line of each notice ruleweave appended to a tool result."""
    return [line for line in result.splitlines() if line.startswith(("[rule: ", "[file: ", "[ruleweave]"))]


def indent(text: str, prefix: str = "    | ") -> str:
    """``text`` with every line prefixed."""
    return "\n".join(prefix + line for line in text.splitlines())


def main(argv: list[str] | None = None) -> None:
    """Run the agent once and print what ruleweave did."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", help="a real chat model for init_chat_model, e.g. openai:gpt-4o-mini")
    parser.add_argument("--prompt", default=TASK, help="the user's request")
    parser.add_argument("--event-log", type=Path, help="write the run's event log (JSON lines) here")
    args = parser.parse_args(argv)

    if args.event_log is not None:
        args.event_log.unlink(missing_ok=True)
    config = RuleweaveConfig(cwd=REPO, project_root=REPO, event_log=args.event_log)
    if args.model:
        from langchain.chat_models import init_chat_model

        model: BaseChatModel = init_chat_model(args.model)
    else:
        model = ScriptedModel(messages=iter(SCRIPT))
    workspace, recorder = Workspace(REPO), Recorder()
    agent = create_agent(
        model,
        workspace.tools(),
        system_prompt=SYSTEM,
        middleware=[RuleweaveMiddleware(config), recorder],
    )

    state: dict[str, Any] = {}
    run = agent.stream(
        {"messages": [HumanMessage(args.prompt)]},
        {"configurable": {"thread_id": THREAD}},
        stream_mode=["messages", "values"],
    )
    for mode, chunk in run:  # "messages" carries the tokens as they stream
        if mode == "values" and isinstance(chunk, dict):
            state = chunk

    first = recorder.calls[0][0].system_message if recorder.calls else None
    previous = first.text if first is not None else ""
    print(f"== the system message of model call 1: {SYSTEM!r}, then what ruleweave added")
    print(indent(previous))

    print(f"\n== model calls, as the model received them\nuser: {args.prompt}")
    for number, (request, outcome) in enumerate(recorder.calls, start=1):
        system = request.system_message.text if request.system_message is not None else ""
        print(f"call {number} (sees {len(request.messages)} message(s)) -> {outcome}")
        if system != previous and system.startswith(previous):
            added = system[len(previous) :].strip().splitlines()[0]
            print(f"    its system message now also carries: {added[:90]}...")
        previous = system

    print("\n== tool results, and the notices ruleweave appended to them")
    calls = {c["id"]: c for m in state["messages"] if isinstance(m, AIMessage) for c in m.tool_calls}
    for message in state["messages"]:
        if not isinstance(message, ToolMessage) or message.tool_call_id not in calls:
            continue
        one = calls[message.tool_call_id]
        notes = notice_lines(message.text)
        print(f"{one['name']}({one['args'].get('path', '')}): {', '.join(notes) or 'nothing new'}")
    print(f"\nassistant: {state['messages'][-1].text}")
    if workspace.written:
        print("\n== files written (kept in memory; the demo repository is unchanged)")
        for path, content in workspace.written.items():
            print(f"{path}:\n{indent(content)}")
    if args.event_log is not None:
        print(f"\nevent log: {args.event_log}; check it against today's rules with")
        print(f"  ruleweave replay {args.event_log} --cwd {REPO}")


if __name__ == "__main__":
    main()
