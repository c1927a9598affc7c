"""ruleweave in hand-written agent loops, in both common wire formats, with no SDK.

Run: ``python examples/custom_loop.py [--event-log PATH]``. A scripted
"model" stands in for a real one so the example runs offline; the loops are
what you would write around the Anthropic Messages API or the OpenAI Chat
Completions API:

1. put the session's prompt into the system prompt;
2. before running tools, answer the calls steering forbids with refusals;
3. after running them, append the notices to their results.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.adapters.loop import AnthropicLoop, OpenAIChatLoop

REPO = Path(__file__).resolve().parent / "demo-repo"
READS = ("services/api/handlers.py", "services/api/store.py", "src/app.ts", "src/api/client.ts")


def read_file(path: str) -> str:
    """The one tool of this example: read a file of the demo repository."""
    target = (REPO / path).resolve()
    if not target.is_relative_to(REPO):
        return "error: outside the repository"
    try:
        return target.read_text(encoding="utf-8")[:300]
    except OSError as exc:
        return f"error: {exc.strerror}"


def anthropic_model(system: str) -> Iterator[dict[str, Any]]:
    """Scripted assistant messages in the Anthropic Messages format."""
    assert "<domain-rules>" in system
    for number, path in enumerate(READS[:2], start=1):
        yield {"role": "assistant", "content": [
            {"type": "text", "text": f"Reading {path}."},
            {"type": "tool_use", "id": f"toolu_{number}", "name": "read_file", "input": {"path": path}},
        ]}
    yield {"role": "assistant", "content": [{"type": "text", "text": "Amounts are integer cents."}]}


def openai_model(system: str) -> Iterator[dict[str, Any]]:
    """Scripted assistant messages in the OpenAI Chat Completions format (two calls at once)."""
    assert "<domain-rules>" in system
    yield {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{n}", "type": "function",
         "function": {"name": "read_file", "arguments": json.dumps({"path": path})}}
        for n, path in enumerate(READS[2:], start=1)
    ]}
    yield {"role": "assistant", "content": "The client only talks to the API."}


def run_anthropic(ruleset: RuleSet) -> list[str]:
    loop = AnthropicLoop(ruleset.session("anthropic-demo"))
    log = []
    for assistant in anthropic_model(loop.system("You are a careful coding agent.")):
        calls = loop.tool_calls(assistant)
        if not calls:
            log.append(f"assistant: {assistant['content'][0]['text']}")
            break
        refused = {block["tool_use_id"] for block in loop.refusals(assistant)}
        results = [
            {"type": "tool_result", "tool_use_id": call.id, "content": read_file(**call.args)}
            for call in calls if call.id not in refused
        ]
        user = loop.tool_results(assistant, {"role": "user", "content": results})
        for block in user["content"]:
            notices = [line for line in block["content"].splitlines() if line.startswith("[")]
            log.append(f"tool_result {block['tool_use_id']}: {', '.join(notices) or 'no notice'}")
    return log


def run_openai(ruleset: RuleSet) -> list[str]:
    loop = OpenAIChatLoop(ruleset.session("openai-demo"))
    log = []
    for assistant in openai_model(loop.system("You are a careful coding agent.")):
        calls = loop.tool_calls(assistant)
        if not calls:
            log.append(f"assistant: {assistant['content']}")
            break
        messages = [
            {"role": "tool", "tool_call_id": call.id, "content": read_file(**call.args)}
            for call in calls
        ]
        for message in loop.tool_results(assistant, messages):
            notices = [line for line in message["content"].splitlines() if line.startswith("[")]
            log.append(f"tool {message['tool_call_id']}: {', '.join(notices) or 'no notice'}")
    return log


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--event-log", type=Path, help="write the sessions' events here")
    args = parser.parse_args(argv)
    config = RuleweaveConfig(cwd=REPO, project_root=REPO, event_log=args.event_log)
    ruleset = RuleSet.load(config)
    print("Anthropic Messages loop:")
    print("\n".join(f"  {line}" for line in run_anthropic(ruleset)))
    print("OpenAI Chat Completions loop:")
    print("\n".join(f"  {line}" for line in run_openai(ruleset)))
    ruleset.events.close()


if __name__ == "__main__":
    main()
