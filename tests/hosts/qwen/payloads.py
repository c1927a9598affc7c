"""Hook inputs as Qwen Code 0.24.4 sends them, captured from real runs (a hook that copied its stdin).

Only the paths and ids are parametrised; the keys and their shapes are the CLI's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SESSION = "506222a0-f7bf-465e-be35-064802a142bd"
PROMPT_ID = f"{SESSION}########0"


def base(root: Path, name: str, session: str = SESSION) -> dict[str, Any]:
    """The keys every event carries (``createBaseInput``)."""
    return {
        "session_id": session,
        "transcript_path": f"/home/u/.qwen/projects/p/chats/{session}.jsonl",
        "cwd": str(root),
        "hook_event_name": name,
        "timestamp": "2026-12-01T17:29:55.521Z",
        "permission_mode": "yolo",
    }


def session_start(root: Path, source: str = "startup", session: str = SESSION) -> dict[str, Any]:
    """SessionStart (``source``: startup, resume, clear, compact)."""
    return {**base(root, "SessionStart", session), "source": source, "model": "mock-model"}


def user_prompt(root: Path, prompt: str, session: str = SESSION) -> dict[str, Any]:
    """UserPromptSubmit; Qwen sends ``prompt: ""`` before each follow-up request of a turn."""
    found = {**base(root, "UserPromptSubmit", session), "prompt_id": PROMPT_ID, "prompt": prompt}
    if prompt:
        found["submitted_prompt"] = prompt
    return found


def pre_tool(
    root: Path, tool: str, args: dict[str, Any], call: str, session: str = SESSION
) -> dict[str, Any]:
    """PreToolUse: Qwen's own ``tool_use_id`` and the model's ``tool_call_id``."""
    return {
        **base(root, "PreToolUse", session), "prompt_id": PROMPT_ID, "tool_name": tool, "tool_input": args,
        "tool_use_id": f"toolu_1796146195071_{call}", "tool_call_id": call,
    }


def post_tool(root: Path, tool: str, args: dict[str, Any], call: str, output: str = "",
              session: str = SESSION) -> dict[str, Any]:
    """PostToolUse: PreToolUse's keys, ``tool_response`` and ``duration_ms``."""
    return {
        **pre_tool(root, tool, args, call, session), "hook_event_name": "PostToolUse",
        "tool_response": {"llmContent": output, "returnDisplay": ""}, "duration_ms": 24,
    }


def stop(root: Path, message: str, active: bool = False, session: str = SESSION) -> dict[str, Any]:
    """Stop."""
    return {
        **base(root, "Stop", session), "prompt_id": PROMPT_ID, "stop_hook_active": active,
        "last_assistant_message": message, "background_tasks": [], "crons": [], "context_usage": 5e-05,
        "context_limit": 200000, "input_tokens": 10,
    }
