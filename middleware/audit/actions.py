"""What a tool call wrote or ran, from its name and input (Claude Code's and Codex's tool shapes, and close
kin), and what a reply said."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ruleweave.audit.timeline import Action

_PATH_KEYS = ("file_path", "path", "notebook_path")
_COMMAND_TOOLS = frozenset(
    {"Bash", "bash", "shell", "exec_command", "run_command", "execute_command", "run_shell_command"}
)
_COMMAND_KEYS = ("command", "cmd")  # Codex 0.171.0's exec_command takes ``cmd`` (a string)


def paths_of(tool_input: Mapping[str, Any]) -> list[str]:
    """The paths a tool call names (reads and writes alike)."""
    return [v for k in _PATH_KEYS if isinstance(v := tool_input.get(k), str) and v]


def actions_of(
    tool: str, call: str, tool_input: Mapping[str, Any], seq: int, at: float | None
) -> list[Action]:
    """The writes and commands of one tool call.

    Write ``content``, Edit ``new_string``, MultiEdit ``edits[].new_string``,
    NotebookEdit ``new_source``; a command tool's ``command`` or ``cmd`` (a list is joined with spaces).

    Args:
        tool: The tool's name.
        call: The call id.
        tool_input: Its input.
        seq: The call's position in the session.
        at: When it was made.

    Returns:
        The call's actions (none for a read or an unknown tool).
    """
    command = next((c for k in _COMMAND_KEYS if (c := tool_input.get(k))), None)
    if tool in _COMMAND_TOOLS and command:
        text = " ".join(str(c) for c in command) if isinstance(command, list) else str(command)
        return [Action(seq, at, tool, call, "", text, "command")]
    paths = paths_of(tool_input)
    path = paths[0] if paths else ""
    for key in ("content", "new_string", "new_source"):
        value = tool_input.get(key)
        if isinstance(value, str):
            return [Action(seq, at, tool, call, path, value, "write")]
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        parts = [str(e["new_string"]) for e in edits if isinstance(e, Mapping) and "new_string" in e]
        if parts:
            return [Action(seq, at, tool, call, path, "\n".join(parts), "write")]
    return []


def reply_action(text: str, seq: int, at: float | None) -> list[Action]:
    """A reply's text as an action (what a streamed rule watching ``text`` checks); none when empty."""
    return [Action(seq, at, "reply", "", "", text, "reply")] if text.strip() else []


def patch_actions(patch: str, call: str, tool: str, seq: int, at: float | None) -> list[Action]:
    """The files an ``apply_patch`` envelope adds or updates, each with its added lines.

    The envelope (Codex's ``apply_patch`` tool): ``*** Add File: PATH`` / ``*** Update File: PATH``
    headers, added lines prefixed ``+``.
    """
    out: list[Action] = []
    path: str | None = None
    added: list[str] = []

    def flush() -> None:
        if path is not None:
            out.append(Action(seq, at, tool, call, path, "\n".join(added), "write"))

    for line in patch.splitlines():
        for header in ("*** Add File: ", "*** Update File: ", "*** Delete File: "):
            if line.startswith(header):
                flush()
                path, added = (line[len(header):].strip() if "Delete" not in header else None), []
                break
        else:
            if path is not None and line.startswith("+") and not line.startswith("+++"):
                added.append(line[1:])
    flush()
    return out
