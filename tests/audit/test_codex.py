"""Codex CLI rollout files (hand-written, in the shape middleware/audit/codex.py documents: openai/codex
``RolloutLine {timestamp, type, payload}``, ``ResponseItem`` payloads), audited."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.audit.conftest import Audit

RULES = {
    ".cursor/rules/no-print.mdc": (
        "---\nglobs: src/**/*.py\ncheck:\n  regex: 'print\\('\n---\nNO-PRINT: use logging.\n"
    ),
    ".cursor/rules/no-sudo.mdc": (
        "---\nalwaysApply: true\ncheck: '\\bsudo\\b'\n---\nNO-SUDO: never run sudo.\n"
    ),
    ".cursor/rules/docs.mdc": "---\nglobs: docs/**/*.md\n---\nDOCS: sentence case.\n",
}


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    for rel, body in RULES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(body, encoding="utf-8")
    return root


def _line(kind: str, payload: dict[str, Any], minute: int = 0) -> str:
    return json.dumps({"timestamp": f"2025-10-29T01:{minute:02d}:00.000Z", "type": kind, "payload": payload})


def _rollout(path: Path, cwd: str, sid: str, *items: str) -> Path:
    meta = _line("session_meta", {"id": sid, "timestamp": "2025-10-29T01:00:00.000Z", "cwd": cwd,
                                  "originator": "codex_cli_rs", "cli_version": "0.46.0", "source": "cli"})
    path.write_text("\n".join([meta, *items]) + "\n", encoding="utf-8")
    return path


def _message(role: str, text: str) -> str:
    kind = "output_text" if role == "assistant" else "input_text"
    content = [{"type": kind, "text": text}]
    return _line("response_item", {"type": "message", "role": role, "content": content})


def _patch(call: str, body: str) -> str:
    return _line("response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": call,
                                   "input": body, "status": "completed"})


def _output(call: str, text: str) -> str:
    return _line("response_item", {"type": "function_call_output", "call_id": call, "output": text})


def _shell(call: str, command: list[str]) -> str:
    return _line("response_item", {"type": "function_call", "name": "shell", "call_id": call,
                                   "arguments": json.dumps({"command": command})})


def test_codex_rollout_broken_after_delivery(tmp_path: Path, run_audit: Audit) -> None:
    project = _project(tmp_path / "project")
    recorded = "/home/someone/work/project"  # recorded elsewhere: paths move onto --cwd
    log = _rollout(
        tmp_path / "rollout-2025-10-29T01-00-00-abc.jsonl", recorded, "abc",
        _message("developer", "<user_instructions>\n[rule: no-sudo] .cursor/rules/no-sudo.mdc\n"
                              "NO-SUDO: never run sudo.\n</user_instructions>"),
        _message("user", "Add the module."),
        _patch("c1", "*** Begin Patch\n*** Add File: src/a.py\n+print('a')\n*** End Patch"),
        _output("c1", "Success.\n\n[rule: no-print]\nNO-PRINT: use logging."),
        _patch("c2", f"*** Begin Patch\n*** Update File: {recorded}/src/a.py\n@@\n-print('a')\n+print('b')\n"
                     "*** End Patch"),
        _output("c2", "Success."),
        _shell("c3", ["bash", "-lc", "ls src"]),
        _output("c3", "a.py"),
    )
    code, report, _ = run_audit(str(log), "--cwd", str(project), "--json", "--fail-on", "broken")
    assert code == 1
    assert report["warnings"] == []
    (session,) = report["sessions"]
    assert session["format"] == "codex" and session["id"] == "abc" and session["actions"] == 3
    rules = {r["rule"]: r for r in report["rules"]}
    assert rules["no-print"]["how"] == {"tool-result": 1}
    assert rules["no-print"]["violations"] == {"before": 1, "after": 1, "after_ttsr": 0}
    assert rules["no-print"]["files"] == [str(project / "src/a.py")]
    assert rules["no-print"]["status"] == "broken"
    # Reached the model at the start, three checked actions, never broken: leave it out.
    assert rules["no-sudo"]["how"] == {"start": 1} and rules["no-sudo"]["status"] == "clean"
    assert any("candidate to leave out" in a for a in rules["no-sudo"]["advice"])
    assert report["totals"]["broken"] == ["no-print"]

    code, _, _ = run_audit(
        str(log), "--cwd", str(project), "--json", "--rule", "no-sudo", "--fail-on", "broken"
    )
    assert code == 0


def test_globs_too_wide_across_sessions_in_a_folder(tmp_path: Path, run_audit: Audit) -> None:
    project = _project(tmp_path / "project")
    folder = tmp_path / "sessions" / "2025" / "10" / "29"
    folder.mkdir(parents=True)
    for n in range(3):
        _rollout(folder / f"rollout-{n}.jsonl", str(project), f"s{n}",
                 _message("developer", "[rule: docs] .cursor/rules/docs.mdc\nDOCS: sentence case."),
                 _shell(f"c{n}", ["bash", "-lc", "make test"]), _output(f"c{n}", "ok"))
    code, report, _ = run_audit(str(tmp_path / "sessions"), "--cwd", str(project), "--json")
    assert code == 0 and report["totals"]["sessions"] == 3
    (docs,) = [r for r in report["rules"] if r["rule"] == "docs"]
    assert docs["sessions_received"] == 3 and docs["sessions_untouched"] == 3
    assert any("globs are too wide" in a for a in docs["advice"])

    code, report, _ = run_audit(str(tmp_path / "sessions"), "--cwd", str(project), "--json",
                                "--since", "2030-01-01")
    assert code == 0 and report["totals"]["sessions"] == 0
