"""Hook inputs as Gemini CLI 0.61.0 sends them, captured from real runs (a hook that copied its stdin).

Only the paths and texts are parametrised; the keys and their shapes are the CLI's
(``HookEventHandler.createBaseInput`` and the ``fire…Event`` methods of its core).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SESSION = "6535ec26-f928-466c-a390-a770509a5fd2"


def base(root: Path, name: str, session: str = SESSION) -> dict[str, Any]:
    """The keys every event carries."""
    return {
        "session_id": session,
        "transcript_path": f"/home/u/.gemini/tmp/p/chats/session-2026-12-01T17-32-{session[:8]}.jsonl",
        "cwd": str(root),
        "hook_event_name": name,
        "timestamp": "2026-12-01T17:32:01.307Z",
    }


def session_start(root: Path, source: str = "startup", session: str = SESSION) -> dict[str, Any]:
    """SessionStart (``source``: startup, resume, clear)."""
    return {**base(root, "SessionStart", session), "source": source}


def before_agent(root: Path, prompt: str, session: str = SESSION) -> dict[str, Any]:
    """BeforeAgent: the user's prompt (or an AfterAgent deny's reason, for the continuation)."""
    return {**base(root, "BeforeAgent", session), "prompt": prompt}


def before_tool(root: Path, tool: str, args: dict[str, Any], session: str = SESSION) -> dict[str, Any]:
    """BeforeTool: the model's raw arguments (a relative path stays relative)."""
    return {**base(root, "BeforeTool", session), "tool_name": tool, "tool_input": args}


def after_tool(root: Path, tool: str, args: dict[str, Any], output: str = "",
               session: str = SESSION) -> dict[str, Any]:
    """AfterTool: BeforeTool's keys and ``tool_response`` (``llmContent`` is what the model sees)."""
    return {
        **base(root, "AfterTool", session), "tool_name": tool, "tool_input": args,
        "tool_response": {"llmContent": output, "returnDisplay": ""},
    }


def request(*messages: str) -> dict[str, Any]:
    """An ``llm_request``: the conversation's text so far (user and model turns alternating)."""
    roles = ("user", "model")
    return {
        "model": "gemini-2.5-flash",
        "messages": [{"role": roles[i % 2], "content": text} for i, text in enumerate(messages)],
        "config": {},
    }


def after_model(root: Path, chunk: str, llm_request: dict[str, Any], *, last: bool = False,
                session: str = SESSION) -> dict[str, Any]:
    """AfterModel: one streamed chunk (``text`` is its delta; the last chunk has a finish reason)."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [chunk] if chunk else []}, "index": 0}
    response: dict[str, Any] = {"text": chunk, "candidates": [candidate]}
    if last:
        candidate["finishReason"] = "STOP"
        response["usageMetadata"] = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
    return {**base(root, "AfterModel", session), "llm_request": llm_request, "llm_response": response}


def after_agent(root: Path, prompt: str, response: str, *, active: bool = False,
                session: str = SESSION) -> dict[str, Any]:
    """AfterAgent: the turn's prompt and displayed reply; ``stop_hook_active`` on a continuation."""
    return {**base(root, "AfterAgent", session), "prompt": prompt, "prompt_response": response,
            "stop_hook_active": active}


def pre_compress(root: Path, trigger: str, session: str = SESSION) -> dict[str, Any]:
    """PreCompress: ``auto`` before every model request, ``manual`` for ``/compress``."""
    return {**base(root, "PreCompress", session), "trigger": trigger}
