"""The scripted session the end-to-end tests run through the real Claude Code CLI (and the SDK adapter).

A project with Cursor and Copilot rules, a ``CLAUDE.md``, a SkillSpec that
forbids ``rm -rf`` when the user asks to clean up, and two streamed rules (one
on written code, one on prose). Turn 1 reads a ``.py`` file twice and two docs
in parallel; turn 2 asks to clean up, tries ``rm -rf build``, writes code the
streamed rule refuses, writes it again, and ends with prose a streamed rule
catches.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.adapters.fixtures import SPEC
from tests.hosts.claude_code.mock_messages import Reply, pause, reply, text, tool

MODEL = "claude-sonnet-4-5"
TURN_1 = "Review src/app.py and the docs."
TURN_2 = "Now clean up the build directory and add src/new.py."

FILES = {
    ".cursor/rules/python.mdc": "---\ndescription: Python style\nglobs: **/*.py\nalwaysApply: false\n---\n"
    "PY-RULE: annotate every function.\n",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS-RULE: keep changes small.\n",
    ".github/instructions/docs.instructions.md": "---\napplyTo: 'docs/**/*.md'\n---\n"
    "DOCS-RULE: docs use sentence case headings.\n",
    ".ruleweave/rules/no-eval.md": "---\ncondition: '\\beval\\('\nscope: 'tool:write'\n---\n"
    "NO-EVAL: never call eval() on input; parse it instead.\n",
    ".ruleweave/rules/no-hacks.md": "---\ncondition: '(?i)\\bquick hack\\b'\nscope: text\n---\n"
    "NO-HACKS: do not ship hacks; say what the proper fix is.\n",
    # The adapter tests' spec, also forbidding the `rm -rf` Claude Code's Bash tool would run.
    ".ruleweave/skill.spec.yml": SPEC.replace("forbid: [delete_file]", "forbid: [delete_file, rm_rf]"),
    "CLAUDE.md": "CLAUDE-MD: run the tests before you finish.\n",
    "src/app.py": "def main() -> None:\n    print('app')\n",
    "docs/guide.md": "# Guide\n",
    "docs/api.md": "# API\n",
    "build/out.txt": "artifact\n",
}

STEERING_REFUSAL = "steering rule 'never_delete_files' forbids 'rm_rf'"


def write_project(root: Path) -> Path:
    """Write the scenario's project under ``root`` (with a ``.git`` marker); return it."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for rel, body in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return root


def turn_1(root: Path) -> list[Reply]:
    """Read app.py twice, then two docs in one message (parallel tool calls), then answer."""
    app = str(root / "src/app.py")
    return [
        reply(text("Reading the app."), tool("Read", file_path=app)),
        reply(tool("Read", file_path=app)),
        reply(
            tool("Read", file_path=str(root / "docs/guide.md")),
            tool("Read", file_path=str(root / "docs/api.md")),
        ),
        reply(text("Reviewed: the app and the docs look fine.")),
    ]


def turn_2(root: Path, *, pause_after_prose: float = 0.0) -> list[Reply]:
    """Try ``rm -rf build``, write code with eval, write it again, end with prose a rule catches.

    Args:
        root: The project.
        pause_after_prose: Seconds the mock waits after the caught prose before ending the
            reply (time for a stream watcher to interrupt it; the interrupt ends it early).
    """
    new = str(root / "src/new.py")
    prose = [text("Cleaned up. This is a quick hack.")]
    if pause_after_prose:
        prose.append(pause(pause_after_prose))
    return [
        reply(tool("Bash", command="rm -rf build", description="Remove the build directory")),
        reply(tool("Write", file_path=new, content="value = eval(raw)\n")),
        reply(tool("Write", file_path=new, content="value = int(raw)\n")),
        reply(*prose),
        reply(text("Done properly: new.py parses its input.")),
    ]


def tool_results(body: dict[str, Any]) -> Iterator[tuple[str, bool, str]]:
    """Each tool result of a request: ``(tool_use_id, is_error, text)``."""
    for message in body.get("messages", []):
        content = message.get("content")
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                yield str(block.get("tool_use_id")), bool(block.get("is_error")), _flat(block.get("content"))


def user_texts(body: dict[str, Any]) -> list[str]:
    """The text blocks of the user messages of a request (not tool results), in order."""
    found: list[str] = []
    for message in body.get("messages", []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            found.append(content)
            continue
        found.extend(
            str(b.get("text")) for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return found


def tool_ids(step: Reply) -> list[str]:
    """The tool_use ids of a scripted reply."""
    return [str(b["id"]) for b in step.blocks if b["type"] == "tool_use"]


def _flat(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_flat(item.get("text", "")) for item in content if isinstance(item, dict))
    return ""


def dumped(body: dict[str, Any]) -> str:
    """A request body as JSON text (for counting occurrences anywhere in it)."""
    return json.dumps(body, ensure_ascii=False)
