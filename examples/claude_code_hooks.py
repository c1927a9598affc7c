"""Claude Code hooks, offline: ``ruleweave install claude-code`` and hook events round-tripped by hand.

Run: ``python examples/claude_code_hooks.py``. It copies ``examples/demo-repo``
to a temp directory, shows ``ruleweave install claude-code --project --dry-run``
(the diff; nothing written), installs, and then plays Claude Code: each event
is one ``ruleweave hook claude-code`` process with the event's JSON on stdin,
exactly as Claude Code runs the hook — the same as typing::

    echo '{"session_id": "…", "hook_event_name": "PostToolUse", "cwd": "/path/to/project",
           "tool_name": "Read", "tool_input": {"file_path": "/path/to/project/src/app.ts"},
           "tool_use_id": "toolu_1", "tool_response": {}}' | ruleweave hook claude-code

Session state lives in SQLite under ``$RULEWEAVE_STATE_DIR`` (a temp directory
here), so a notice comes once per session across processes. No network, no
Claude Code, nothing written outside the temp directory.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

DEMO = Path(__file__).resolve().parent / "demo-repo"
RULEWEAVE = Path(sys.executable).with_name("ruleweave")  # the console script of this installation
SESSION_ID = "5b1e3c1a-1111-4222-8333-944455556666"


def ruleweave(env: dict[str, str], *args: str, stdin: str | None = None) -> str:
    """Run the ``ruleweave`` command; return its stdout (a failure stops the example)."""
    done = subprocess.run([str(RULEWEAVE), *args], input=stdin, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(f"ruleweave {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def hook(env: dict[str, str], project: Path, event: str, **fields: Any) -> dict[str, Any]:
    """One hook event through ``ruleweave hook claude-code``, as Claude Code sends it; its JSON answer."""
    payload = {"session_id": SESSION_ID, "hook_event_name": event, "cwd": str(project), **fields}
    out = ruleweave(env, "hook", "claude-code", stdin=json.dumps(payload))
    answer: dict[str, Any] = json.loads(out) if out.strip() else {}
    return answer


def read(project: Path, rel: str, call_id: str) -> dict[str, Any]:
    """The fields of a ``Read`` tool event (Claude Code sends absolute paths)."""
    return {"tool_name": "Read", "tool_input": {"file_path": str(project / rel)},
            "tool_use_id": call_id, "tool_response": {}}


def show(title: str, answer: dict[str, Any]) -> None:
    """Print what a hook answered: its context's first lines, or its decision."""
    output = answer.get("hookSpecificOutput", {})
    if "permissionDecision" in output:
        reason = str(output.get("permissionDecisionReason", "")).splitlines()[0]
        print(f"{title}: {output['permissionDecision']} — {reason[:90]}…")
    elif output.get("additionalContext"):
        lines = str(output["additionalContext"]).splitlines()
        print(f"{title}: additionalContext, {len(lines)} lines, starting {lines[0]!r}")
    else:
        print(f"{title}: no output (nothing new)")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ruleweave-claude-code-") as temp:
        project = Path(temp) / "project"
        shutil.copytree(DEMO, project)
        (project / ".git").mkdir()  # the project root marker
        env = {**os.environ, "RULEWEAVE_STATE_DIR": str(Path(temp) / "state"),
               "PATH": f"{RULEWEAVE.parent}{os.pathsep}{os.environ.get('PATH', '')}"}

        print("$ ruleweave install claude-code --project --dry-run")
        diff = ruleweave(env, "install", "claude-code", "--project", "--dry-run", "--cwd", str(project))
        for line in diff.splitlines()[:14]:
            print("  ", line.replace(temp, "$TMP"))
        print("   …")
        print("settings.json written:", (project / ".claude" / "settings.json").exists())

        print("\n$ ruleweave install claude-code --project")
        print(ruleweave(env, "install", "claude-code", "--project", "--cwd", str(project))
              .replace(temp, "$TMP").rstrip())
        settings = json.loads((project / ".claude" / "settings.json").read_text(encoding="utf-8"))
        print("hook events:", ", ".join(settings["hooks"]))
        print(ruleweave(env, "install", "claude-code", "--project", "--cwd", str(project))
              .replace(temp, "$TMP").rstrip())

        print("\nHook events, one process each (echo '{…}' | ruleweave hook claude-code):")
        show("SessionStart", hook(env, project, "SessionStart", source="startup"))
        first = hook(env, project, "PostToolUse", **read(project, "src/app.ts", "toolu_1"))
        show("PostToolUse Read src/app.ts", first)
        again = hook(env, project, "PostToolUse", **read(project, "src/app.ts", "toolu_2"))
        show("PostToolUse Read src/app.ts again", again)  # another process: the SQLite store remembers
        write = {"tool_name": "Write", "tool_use_id": "toolu_3",
                 "tool_input": {"file_path": str(project / "services/api/money.py"),
                                "content": "def show(amount):\n    return float(amount) / 100\n"}}
        show("PreToolUse Write float(amount)", hook(env, project, "PreToolUse", **write))

        print("\n$ ruleweave install claude-code --project --uninstall")
        print(ruleweave(env, "install", "claude-code", "--project", "--uninstall", "--cwd", str(project))
              .replace(temp, "$TMP").rstrip())


if __name__ == "__main__":
    main()
