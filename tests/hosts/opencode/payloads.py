"""The events the ruleweave plugin sends ``ruleweave hook opencode`` (``ruleweave.hosts.opencode``), built
from the shapes OpenCode 1.18.33 hands the plugin (captured in real runs: docs/hosts/opencode.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SESSION = "ses_dcd4cf58effeU0hoJ124IdgjCl"


def session_start(root: Path) -> dict[str, Any]:
    """The plugin's own event: the first system-prompt transform of a session."""
    return {"event": "session.start", "session_id": SESSION, "cwd": str(root)}


def chat_message(root: Path, prompt: str, message_id: str = "msg_232b30c2e001") -> dict[str, Any]:
    """``chat.message``: the user's text parts joined."""
    return {"event": "chat.message", "session_id": SESSION, "cwd": str(root), "message_id": message_id,
            "agent": "build", "prompt": prompt}


def before(root: Path, tool: str, args: dict[str, Any], call_id: str) -> dict[str, Any]:
    """``tool.execute.before`` (``input.tool``, ``input.callID``, ``output.args``)."""
    return {"event": "tool.execute.before", "session_id": SESSION, "cwd": str(root), "tool": tool,
            "call_id": call_id, "args": args}


def after(root: Path, tool: str, args: dict[str, Any], call_id: str, output: str = "ok") -> dict[str, Any]:
    """``tool.execute.after`` (``input.args``, ``output.output``)."""
    return {"event": "tool.execute.after", "session_id": SESSION, "cwd": str(root), "tool": tool,
            "call_id": call_id, "args": args, "output": output}


def compacting(root: Path) -> dict[str, Any]:
    """``experimental.session.compacting``."""
    return {"event": "experimental.session.compacting", "session_id": SESSION, "cwd": str(root)}
