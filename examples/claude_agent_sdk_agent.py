"""The Claude Agent SDK with ruleweave, offline: the options it builds, and its hooks run in process.

Run: ``python examples/claude_agent_sdk_agent.py`` (needs ``pip install ruleweave[claude-agent]``).
No network, no API key, no Claude Code CLI: the example builds the
``ClaudeAgentOptions`` a real client would get, prints what ruleweave put in
them, and then calls the hook callbacks the way the CLI calls them, on
scripted ``PostToolUse`` / ``PreToolUse`` payloads — a notice, once, and a
refusal. With a real client the same options go to ``ClaudeSDKClient``::

    async with ClaudeSDKClient(options) as client:
        await client.query("Fix the rounding bug in the invoice handler")
        async for message in rw.receive(client):  # streamed rules: interrupt-and-correct
            ...
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

from claude_agent_sdk import ClaudeAgentOptions
from claude_agent_sdk.types import HookEvent, HookInput

from ruleweave import RuleweaveConfig
from ruleweave.adapters.claude_agent import RuleweaveClaudeAgent

REPO = Path(__file__).resolve().parent / "demo-repo"
SESSION_ID = "0c8f6f0e-5d2b-4c43-9a57-3d1f1b6a2e11"  # fixed, so the output is the same every run


async def call_hook(options: ClaudeAgentOptions, event: HookEvent, payload: dict[str, Any]) -> dict[str, Any]:
    """Run every callback registered for ``event`` as the CLI does; return the last non-empty answer."""
    assert options.hooks is not None
    answer: dict[str, Any] = {}
    data = {"hook_event_name": event, "session_id": options.session_id, "cwd": str(REPO), **payload}
    for matcher in options.hooks.get(event, []):
        for callback in matcher.hooks:
            got = await callback(cast(HookInput, data), payload.get("tool_use_id"), {"signal": None})
            answer = dict(got) or answer
    return answer


def read(rel: str, call_id: str) -> dict[str, Any]:
    """A ``PostToolUse`` payload for Claude Code's ``Read`` tool (paths are absolute, as the CLI sends)."""
    return {"tool_name": "Read", "tool_input": {"file_path": str(REPO / rel)},
            "tool_use_id": call_id, "tool_response": {"type": "text"}}


async def main() -> None:
    rw = RuleweaveClaudeAgent(RuleweaveConfig(cwd=REPO, project_root=REPO))
    mine = ClaudeAgentOptions(cwd=REPO, allowed_tools=["Read", "Edit", "Write", "Bash"])
    options = rw.options(mine, session_id=SESSION_ID)  # a copy: ``mine`` is left as it was

    assert options.hooks is not None
    print("hook events:", ", ".join(sorted(options.hooks)))
    print("session_id:", options.session_id)
    print("include_partial_messages:", options.include_partial_messages)
    prompt: dict[str, Any] = dict(options.system_prompt or {})  # type: ignore[arg-type]
    print(f"system_prompt: preset {prompt['preset']!r}, append ({len(prompt['append'])} characters):")
    for line in prompt["append"].splitlines()[:6]:
        print("    |", line)

    # Claude Code loads CLAUDE.md, AGENTS.md and .claude/rules itself (project settings are on by
    # default), so the claude provider's api-handlers rule is left out of these notices.
    print("\nPostToolUse, Read services/api/handlers.py:")
    answer = await call_hook(options, "PostToolUse", read("services/api/handlers.py", "toolu_1"))
    notice = answer.get("hookSpecificOutput", {}).get("additionalContext", "")
    for line in notice.splitlines():
        if line.startswith("[rule: "):
            print("    |", line)
    answer = await call_hook(options, "PostToolUse", read("services/api/store.py", "toolu_2"))
    again = "a notice" if answer else "nothing new (once per session)"
    print("PostToolUse, Read services/api/store.py:", again)

    print("\nPreToolUse, Write services/api/money.py with float(amount):")
    write = {"tool_name": "Write", "tool_use_id": "toolu_3",
             "tool_input": {"file_path": str(REPO / "services/api/money.py"),
                            "content": "def show(amount):\n    return float(amount) / 100\n"}}
    answer = await call_hook(options, "PreToolUse", write)
    decision = answer.get("hookSpecificOutput", {})
    print("    permissionDecision:", decision.get("permissionDecision"))
    print("    reason:", str(decision.get("permissionDecisionReason", "")).splitlines()[0])


if __name__ == "__main__":
    asyncio.run(main())
