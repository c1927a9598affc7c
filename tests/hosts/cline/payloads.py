"""Hook inputs shaped as Cline 3.0.65 sends them (captured from the real CLI with a logging hook file).

``tool_call`` (PreToolUse) and ``tool_result`` (PostToolUse) carry the structured call; the
``preToolUse``/``postToolUse`` copies JSON-encode every non-string argument as a string, as Cline
does. There is no ``cwd``: ``workspaceRoots`` is the git root, and the hook runs in the session's cwd.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _strings(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {k: v if isinstance(v, str) else json.dumps(v, separators=(",", ":")) for k, v in value.items()}


def base(root: Path, hook: str, *, session: str = "1796146504384_81hco", agent: str = "agent_1",
         parent: str | None = None) -> dict[str, Any]:
    """The keys every Cline hook payload has."""
    return {
        "clineVersion": "", "hookName": hook, "timestamp": "2026-12-01T17:35:06.563Z",
        "taskId": "conv_1796146505324_0d1y452", "sessionContext": {"rootSessionId": session},
        "workspaceRoots": [str(root)], "workspaceInfo": {"rootPath": str(root), "hint": root.name},
        "userId": "unknown", "agent_id": agent, "parent_agent_id": parent,
    }


def pre(root: Path, tool: str, args: Any, call_id: str, **keys: Any) -> dict[str, Any]:
    """A PreToolUse (``tool_call``) payload."""
    return {**base(root, "tool_call", **keys), "iteration": 1,
            "tool_call": {"id": call_id, "name": tool, "input": args},
            "preToolUse": {"toolName": tool, "parameters": _strings(args)}}


def post(root: Path, tool: str, args: Any, call_id: str, output: Any = "ok", **keys: Any) -> dict[str, Any]:
    """A PostToolUse (``tool_result``) payload."""
    text = output if isinstance(output, str) else json.dumps(output, separators=(",", ":"))
    return {**base(root, "tool_result", **keys), "iteration": 1,
            "tool_result": {"id": call_id, "name": tool, "input": args, "output": output, "durationMs": 3,
                            "startedAt": "2026-12-01T17:35:06.400Z", "endedAt": "2026-12-01T17:35:06.403Z"},
            "postToolUse": {"toolName": tool, "parameters": _strings(args), "result": text, "success": True,
                            "executionTimeMs": 3}}


def read(root: Path, *paths: str, call_id: str = "call_000001", **keys: Any) -> dict[str, Any]:
    """PostToolUse of ``read_files`` reading ``paths``."""
    args = {"files": [{"path": p} for p in paths]}
    output = [{"query": p, "result": "1 | x", "success": True} for p in paths]
    return post(root, "read_files", args, call_id, output, **keys)
