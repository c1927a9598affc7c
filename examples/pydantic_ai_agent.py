"""ruleweave in a pydantic-ai agent: ``Agent(..., capabilities=[RuleweaveCapability(config)])``.

Run: ``python examples/pydantic_ai_agent.py`` (offline: pydantic-ai's own
``FunctionModel`` stands in for a model). ``--stream`` runs the agent with
``run_stream`` instead of ``run``; ``--model NAME`` uses a real model
(e.g. ``openai:gpt-4.1-mini``, with that provider's extra and API key);
``--event-log PATH`` writes the run's event log for ``ruleweave replay``.

The agent works on ``examples/demo-repo`` with two tools, ``read`` and
``write`` (writes stay in memory: the demo repository is never changed), in
the conversation ``pydantic-ai-demo``. The run prints what the model saw in
its instructions, the notices ruleweave appended to tool results, and the
reply it dropped and asked for again (``RetryModelRequest``; streamed: the
stream it stopped and opened again).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from invoice_task import CENTS_FIX, FLOAT_FIX, REPO, SYSTEM, TASK
from pydantic_ai import Agent, ModelResponse, TextPart, ToolCallPart, models
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from ruleweave import RuleweaveConfig
from ruleweave.adapters.pydantic_ai import RuleweaveCapability

CONVERSATION = "pydantic-ai-demo"

# What a model might answer, one reply per request. The third writes money
# through float(): the demo repo's streamed rule `no-float-money` drops that
# reply, and the request is made again with the rule in its instructions.
SCRIPT: list[list[Any]] = [
    [("read", "c1", {"path": "services/api/handlers.py"})],
    [("read", "c2", {"path": "services/api/store.py"}), ("read", "c3", {"path": "src/app.ts"})],
    [("write", "c4", {"path": "services/api/handlers.py", "content": FLOAT_FIX})],
    [("write", "c5", {"path": "services/api/handlers.py", "content": CENTS_FIX})],
    ["Fixed: totals are summed as integer cents, never through float()."],
]


@dataclass
class Scripted:
    """``SCRIPT`` as a ``FunctionModel``, whole or streamed; records the instructions of each request."""

    requests: list[tuple[str, int]] = field(default_factory=list)

    def _next(self, messages: list[ModelMessage], info: AgentInfo) -> list[Any]:
        self.requests.append((info.instructions or "", len(messages)))
        return SCRIPT[len(self.requests) - 1]

    def reply(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        """The next reply, whole."""
        return ModelResponse(parts=[
            TextPart(p) if isinstance(p, str) else ToolCallPart(p[0], p[2], tool_call_id=p[1])
            for p in self._next(messages, info)
        ])

    async def stream(
        self, messages: list[ModelMessage], info: AgentInfo
    ) -> AsyncIterator[str | DeltaToolCalls]:
        """The next reply, streamed: text in words, tool arguments in chunks of 24 characters."""
        for index, part in enumerate(self._next(messages, info)):
            if isinstance(part, str):
                for number, word in enumerate(part.split(" ")):
                    yield word if number == 0 else f" {word}"
                continue
            text = json.dumps(part[2])
            for start in range(0, len(text), 24):
                head = start == 0
                yield {index: DeltaToolCall(part[0] if head else None, text[start : start + 24],
                                            tool_call_id=part[1] if head else None)}


def build(model: Any, config: RuleweaveConfig, written: dict[str, str]) -> Agent[None, str]:
    """The agent: ruleweave as a capability, tools ``read`` and ``write``."""
    agent = Agent(model, instructions=SYSTEM, capabilities=[RuleweaveCapability(config)])

    @agent.tool_plain
    def read(path: str) -> str:
        """Read a file of the repository."""
        if path in written:
            return written[path]
        target = (REPO / path).resolve()
        if not target.is_relative_to(REPO) or not target.is_file():
            return f"error: no file {path}"
        return target.read_text(encoding="utf-8")

    @agent.tool_plain
    def write(path: str, content: str) -> str:
        """Write a file of the repository."""
        written[path] = content
        return f"wrote {len(content)} bytes to {path}"

    return agent


def notice_lines(text: str) -> list[str]:
    """The header line of each notice ruleweave appended to a tool result."""
    return [line for line in text.splitlines() if line.startswith(("[rule: ", "[file: ", "[ruleweave]"))]


def indent(text: str, prefix: str = "    | ") -> str:
    """``text`` with every line prefixed."""
    return "\n".join(prefix + line for line in text.splitlines())


async def run(args: argparse.Namespace) -> None:
    """Run the agent once and print what ruleweave did."""
    config = RuleweaveConfig(cwd=REPO, project_root=REPO, event_log=args.event_log)
    scripted = Scripted()
    model: Any = args.model or FunctionModel(scripted.reply, stream_function=scripted.stream)
    written: dict[str, str] = {}
    agent = build(model, config, written)
    if args.stream:
        async with agent.run_stream(args.prompt, conversation_id=CONVERSATION) as streamed:
            output = await streamed.get_output()
        messages = streamed.all_messages()
    else:
        result = await agent.run(args.prompt, conversation_id=CONVERSATION)
        output, messages = result.output, result.all_messages()

    if scripted.requests:
        print(f"== the instructions of request 1: {SYSTEM!r}, then what ruleweave added")
        print(indent(scripted.requests[0][0]))
        print(f"\n== model requests ({'streamed' if args.stream else 'not streamed'})\nuser: {args.prompt}")
        previous = scripted.requests[0][0]
        for number, (instructions, seen) in enumerate(scripted.requests, start=1):
            dropped = number < len(scripted.requests) and scripted.requests[number][1] == seen
            outcome = "dropped for a streamed rule; asked again" if dropped else "kept"
            print(f"request {number} (sees {seen} message(s)) -> {outcome}")
            if instructions != previous and instructions.startswith(previous):
                added = instructions[len(previous) :].strip().splitlines()[0]
                print(f"    its instructions now also carry: {added[:90]}...")
            previous = instructions

    print("\n== tool results, and the notices ruleweave appended to them")
    calls = {p.tool_call_id: p for m in messages for p in m.parts if isinstance(p, ToolCallPart)}
    for message in messages:
        if not isinstance(message, ModelRequest):
            continue
        for part in message.parts:
            if isinstance(part, ToolReturnPart) and part.tool_call_id in calls:
                call, notes = calls[part.tool_call_id], notice_lines(str(part.content))
                path = call.args_as_dict().get("path", "")
                print(f"{call.tool_name}({path}): {', '.join(notes) or 'nothing new'}")
    print(f"\nassistant: {output}")
    if written:
        print("\n== files written (kept in memory; the demo repository is unchanged)")
        for path, content in written.items():
            print(f"{path}:\n{indent(content)}")
    if args.event_log is not None:
        print(f"\nevent log: {args.event_log}; check it against today's rules with")
        print(f"  ruleweave replay {args.event_log} --cwd {REPO}")


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run the agent."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", help="a real model, e.g. openai:gpt-4.1-mini")
    parser.add_argument("--stream", action="store_true", help="run with run_stream instead of run")
    parser.add_argument("--prompt", default=TASK, help="the user's request")
    parser.add_argument("--event-log", type=Path, help="write the run's event log (JSON lines) here")
    args = parser.parse_args(argv)
    if args.event_log is not None:
        args.event_log.unlink(missing_ok=True)
    if not args.model:
        models.ALLOW_MODEL_REQUESTS = False  # offline: only the scripted model answers
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
