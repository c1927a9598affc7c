"""ruleweave in hand-written agent loops, in the three common wire formats, with plain dicts and no SDK.

Run: ``python examples/custom_loop.py [--event-log PATH]``. A scripted
"model" stands in for a real one so the example runs offline; the loops are
what you would write around the Anthropic Messages API, the OpenAI Chat
Completions API and the OpenAI Responses API (``examples/sdk_loops.py`` runs
them with the SDKs themselves, streamed, and shows a streamed rule stopping a
reply):

1. start a turn for the user message; put the session's prompt into the system prompt;
2. before running tools, answer the calls that must not run with refusals
   (here the demo repository's ``no-float-money`` rule refuses a ``write``);
3. run the others, append the notices to their results, and send a result
   for every call, refusals included, in the next message (the APIs require one).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop, OpenAIResponsesLoop

REPO = Path(__file__).resolve().parent / "demo-repo"
BASE = "You are a careful coding agent."
TASK = "Keep the invoice totals in integer cents."
READS = ("services/api/handlers.py", "services/api/store.py", "src/app.ts", "src/api/client.ts")
FLOAT_WRITE = {"path": "services/api/store.py", "content": "total = float(amount)\n"}


def read_file(path: str) -> str:
    """Read a file of the demo repository (the first 300 characters)."""
    target = (REPO / path).resolve()
    if not target.is_relative_to(REPO):
        return "error: outside the repository"
    try:
        return target.read_text(encoding="utf-8")[:300]
    except OSError as exc:
        return f"error: {exc.strerror}"


def run_tool(name: str, args: Mapping[str, Any]) -> str:
    """The example's tools: ``read_file``, and a ``write`` that writes nothing."""
    if name == "read_file":
        return read_file(str(args.get("path", "")))
    return "error: this example writes nothing"


def summary(content: str, refused: bool) -> str:
    """What a result carries: the notices' headers, or the rule that refused the call."""
    if refused:
        names = re.findall(r"rule `([^`]+)`", content)
        return f"refused by {', '.join(names) or 'steering'}"
    notices = [line for line in content.splitlines() if line.startswith("[")]
    return ", ".join(notices) or "no notice"


def anthropic_model(system: str) -> Iterator[dict[str, Any]]:
    """Scripted assistant messages in the Anthropic Messages format."""
    assert "<domain-rules>" in system
    yield {"role": "assistant", "content": [
        {"type": "text", "text": f"Reading {READS[0]}."},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": READS[0]}},
    ]}
    yield {"role": "assistant", "content": [
        {"type": "text", "text": "Now the store, and a fix."},
        {"type": "tool_use", "id": "toolu_2", "name": "read_file", "input": {"path": READS[1]}},
        {"type": "tool_use", "id": "toolu_3", "name": "write", "input": FLOAT_WRITE},
    ]}
    yield {"role": "assistant", "content": [{"type": "text", "text": "Amounts are integer cents."}]}


def openai_model(system: str) -> Iterator[dict[str, Any]]:
    """Scripted assistant messages in the OpenAI Chat Completions format (two calls at once)."""
    assert "<domain-rules>" in system
    yield {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{n}", "type": "function",
         "function": {"name": "read_file", "arguments": f'{{"path": "{path}"}}'}}
        for n, path in enumerate(READS[2:], start=1)
    ]}
    yield {"role": "assistant", "content": "The client only talks to the API."}


def responses_model(instructions: str) -> Iterator[list[dict[str, Any]]]:
    """Scripted response outputs in the OpenAI Responses format."""
    assert "<domain-rules>" in instructions
    yield [
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read_file",
         "arguments": '{"path": "src/components/InvoiceRow.tsx"}'},
        {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "write",
         "arguments": '{"path": "services/api/handlers.py", "content": "x = float(amount)"}'},
    ]
    yield [{"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "The row renders cents as they are."}]}]


def run_anthropic(ruleset: RuleSet) -> list[str]:
    loop = AnthropicLoop(ruleset.session("anthropic-demo"))
    loop.user_turn(TASK)
    messages: list[dict[str, Any]] = [{"role": "user", "content": TASK}]
    log = []
    for assistant in anthropic_model(loop.system(BASE)):
        messages.append(assistant)
        calls = loop.tool_calls(assistant)
        if not calls:
            log.append(f"assistant: {assistant['content'][0]['text']}")
            break
        refused = {result["tool_use_id"]: result for result in loop.refusals(assistant)}
        results = [
            refused.get(call.id)
            or {"type": "tool_result", "tool_use_id": call.id, "content": run_tool(call.name, call.args)}
            for call in calls
        ]
        user = loop.tool_results(assistant, {"role": "user", "content": results})
        messages.append(user)
        for block in user["content"]:
            log.append(f"tool_result {block['tool_use_id']}: "
                       f"{summary(block['content'], block['tool_use_id'] in refused)}")
    return log


def run_openai(ruleset: RuleSet) -> list[str]:
    loop = OpenAIChatLoop(ruleset.session("openai-demo"))
    loop.user_turn(TASK)
    messages: list[dict[str, Any]] = [{"role": "system", "content": loop.system(BASE)},
                                      {"role": "user", "content": TASK}]
    log = []
    for assistant in openai_model(messages[0]["content"]):
        messages.append(assistant)
        calls = loop.tool_calls(assistant)
        if not calls:
            log.append(f"assistant: {assistant['content']}")
            break
        refused = {result["tool_call_id"]: result for result in loop.refusals(assistant)}
        results = [
            refused.get(call.id)
            or {"role": "tool", "tool_call_id": call.id, "content": run_tool(call.name, call.args)}
            for call in calls
        ]
        for message in loop.tool_results(assistant, results):
            messages.append(message)
            call_id = message["tool_call_id"]
            log.append(f"tool {call_id}: {summary(message['content'], call_id in refused)}")
    return log


def run_responses(ruleset: RuleSet) -> list[str]:
    loop = OpenAIResponsesLoop(ruleset.session("responses-demo"))
    loop.user_turn(TASK)
    input_items: list[dict[str, Any]] = [{"role": "user", "content": TASK}]
    log = []
    for output in responses_model(loop.system(BASE)):
        input_items += output
        calls = loop.tool_calls(output)
        if not calls:
            log.append(f"assistant: {output[0]['content'][0]['text']}")
            break
        refused = {result["call_id"]: result for result in loop.refusals(output)}
        results = [
            refused.get(call.id)
            or {"type": "function_call_output", "call_id": call.id, "output": run_tool(call.name, call.args)}
            for call in calls
        ]
        for item in loop.tool_results(output, results):
            input_items.append(item)
            log.append(f"function_call_output {item['call_id']}: "
                       f"{summary(item['output'], item['call_id'] in refused)}")
    return log


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--event-log", type=Path, help="write the sessions' events here")
    args = parser.parse_args(argv)
    config = RuleweaveConfig(cwd=REPO, project_root=REPO, event_log=args.event_log)
    ruleset = RuleSet.load(config)
    for title, run in (("Anthropic Messages", run_anthropic), ("OpenAI Chat Completions", run_openai),
                       ("OpenAI Responses", run_responses)):
        print(f"{title} loop:")
        print("\n".join(f"  {line}" for line in run(ruleset)))
    ruleset.events.close()


if __name__ == "__main__":
    main()
