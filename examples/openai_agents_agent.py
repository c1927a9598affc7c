"""ruleweave in an OpenAI Agents SDK agent: ``rw.agent(Agent(...))``, run with ``rw.run_streamed``.

Run: ``python examples/openai_agents_agent.py`` (offline: the SDK's own
``agents.testing.ScriptedModel`` stands in for a model). ``--model NAME`` uses
a real model through the SDK's provider (e.g. ``gpt-4.1-mini``, with
``OPENAI_API_KEY`` set); ``--event-log PATH`` writes the run's event log for
``ruleweave replay``.

The agent works on ``examples/demo-repo`` with two tools, ``read`` and
``write`` (writes stay in memory: the demo repository is never changed), in a
conversation kept by an SDK ``SQLiteSession``. The run prints what the model
saw in its system instructions, the notices ruleweave appended to tool
results, and the streamed reply it stopped and asked for again.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from agents import Agent, SQLiteSession, Tool, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call
from invoice_task import CENTS_FIX, FLOAT_FIX, REPO, SYSTEM, TASK

from ruleweave import RuleweaveConfig
from ruleweave.adapters.openai_agents import RuleweaveAgents

CONVERSATION = "openai-agents-demo"

# What a model might answer, one step per model call. The third writes money
# through float(): the demo repo's streamed rule `no-float-money` stops that
# stream, and the model is asked again with the rule in its instructions.
SCRIPT: list[Any] = [
    [function_call("read", {"path": "services/api/handlers.py"}, call_id="c1")],
    [function_call("read", {"path": "services/api/store.py"}, call_id="c2"),
     function_call("read", {"path": "src/app.ts"}, call_id="c3")],
    [function_call("write", {"path": "services/api/handlers.py", "content": FLOAT_FIX}, call_id="c4")],
    [function_call("write", {"path": "services/api/handlers.py", "content": CENTS_FIX}, call_id="c5")],
    [assistant_message("Fixed: totals are summed as integer cents, never through float().")],
]


def tools(written: dict[str, str]) -> list[Tool]:
    """The agent's tools: ``read`` (from disk, or what was written) and ``write`` (kept in memory)."""

    @function_tool
    def read(path: str) -> str:
        """Read a file of the repository."""
        if path in written:
            return written[path]
        target = (REPO / path).resolve()
        if not target.is_relative_to(REPO) or not target.is_file():
            return f"error: no file {path}"
        return target.read_text(encoding="utf-8")

    @function_tool
    def write(path: str, content: str) -> str:
        """Write a file of the repository."""
        written[path] = content
        return f"wrote {len(content)} bytes to {path}"

    return [read, write]


def notice_lines(text: str) -> list[str]:
    """The header line of each notice ruleweave appended to a tool result."""
    return [line for line in text.splitlines() if line.startswith(("[rule: ", "[file: ", "[ruleweave]"))]


def indent(text: str, prefix: str = "    | ") -> str:
    """``text`` with every line prefixed."""
    return "\n".join(prefix + line for line in text.splitlines())


async def run(args: argparse.Namespace) -> None:
    """Run the agent once, streamed, and print what ruleweave did."""
    config = RuleweaveConfig(cwd=REPO, project_root=REPO, event_log=args.event_log)
    rw = RuleweaveAgents(config)
    scripted = None if args.model else ScriptedModel(SCRIPT)
    written: dict[str, str] = {}
    agent = rw.agent(
        Agent(name="larkspur", instructions=SYSTEM, tools=tools(written), model=args.model or scripted)
    )
    result = rw.run_streamed(agent, args.prompt, session=SQLiteSession(CONVERSATION))
    deltas = 0
    async for event in result.stream_events():  # the tokens, as they stream
        deltas += getattr(getattr(event, "data", None), "type", "").endswith(".delta")

    if scripted is not None:
        calls = scripted.calls
        print(f"== the system instructions of model call 1: {SYSTEM!r}, then what ruleweave added")
        print(indent(calls[0].system_instructions or ""))
        print(f"\n== model calls ({deltas} streamed deltas)\nuser: {args.prompt}")
        for number, call in enumerate(calls, start=1):
            stopped = number < len(calls) and calls[number].input == call.input
            outcome = "stopped by a streamed rule; asked again" if stopped else "answered"
            print(f"call {number} (sees {len(call.input)} item(s)) -> {outcome}")
            previous = calls[number - 2].system_instructions or "" if number > 1 else ""
            system = call.system_instructions or ""
            if number > 1 and system != previous and system.startswith(previous):
                added = system[len(previous) :].strip().splitlines()[0]
                print(f"    its system instructions now also carry: {added[:90]}...")

    print("\n== tool results, and the notices ruleweave appended to them")
    items: list[dict[str, Any]] = [dict(item) for item in result.to_input_list()]
    requested = {i["call_id"]: i for i in items if i.get("type") == "function_call"}
    for item in items:
        if item.get("type") != "function_call_output" or item.get("call_id") not in requested:
            continue
        asked = requested[item["call_id"]]
        notes = notice_lines(str(item.get("output", "")))
        print(f"{asked['name']}({asked['arguments'][:45]}…): {', '.join(notes) or 'nothing new'}")
    print(f"\nassistant: {result.final_output}")
    if written:
        print("\n== files written (kept in memory; the demo repository is unchanged)")
        for path, content in written.items():
            print(f"{path}:\n{indent(content)}")
    if args.event_log is not None:
        rw.ruleset.events.close()
        print(f"\nevent log: {args.event_log}; check it against today's rules with")
        print(f"  ruleweave replay {args.event_log} --cwd {REPO}")


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run the agent."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", help="a real model name for the SDK's provider, e.g. gpt-4.1-mini")
    parser.add_argument("--prompt", default=TASK, help="the user's request")
    parser.add_argument("--event-log", type=Path, help="write the run's event log (JSON lines) here")
    args = parser.parse_args(argv)
    if args.event_log is not None:
        args.event_log.unlink(missing_ok=True)
    if not args.model:
        set_tracing_disabled(True)  # offline: no trace export either
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
