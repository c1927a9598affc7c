"""Hook payloads as Codex 0.171.0 sends them (captured from real runs: /work/research/codex/FACTS.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def event(root: Path, name: str, session: str = "s1", **fields: Any) -> dict[str, Any]:
    """A hook payload with the keys every Codex event carries (``turn_id`` on turn-scoped events)."""
    common: dict[str, Any] = {
        "session_id": session, "transcript_path": str(root / "rollout.jsonl"), "cwd": str(root),
        "hook_event_name": name, "model": "gpt-5.5",
    }
    if name not in ("PreCompact", "PostCompact", "SessionEnd"):
        common["permission_mode"] = "bypassPermissions"
    if name not in ("SessionStart", "SessionEnd"):
        common["turn_id"] = "turn-1"
    return {**common, **fields}


def bash(root: Path, command: str, call: str, session: str = "s1", *, after: bool = True) -> dict[str, Any]:
    """A PostToolUse (or PreToolUse) payload for ``exec_command``: Codex names it ``Bash``."""
    name = "PostToolUse" if after else "PreToolUse"
    fields: dict[str, Any] = {"tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": call}
    if after:
        fields["tool_response"] = "output\n"
    return event(root, name, session, **fields)


def patch(root: Path, text: str, call: str, session: str = "s1", *, after: bool = True) -> dict[str, Any]:
    """A PostToolUse (or PreToolUse) payload for ``apply_patch``: the patch under ``tool_input.command``."""
    name = "PostToolUse" if after else "PreToolUse"
    fields: dict[str, Any] = {
        "tool_name": "apply_patch", "tool_input": {"command": text}, "tool_use_id": call,
    }
    if after:
        fields["tool_response"] = "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess.\n"
    return event(root, name, session, **fields)
