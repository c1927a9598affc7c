"""Codex CLI rollout files, hand-written in the shape the real Codex CLI 0.171.0 writes (read from the
rollouts tests/e2e/codex/test_audit_rollout.py makes; middleware/audit/codex.py documents it), audited."""

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
    meta = _line("session_meta", {"session_id": sid, "id": sid, "timestamp": "2025-10-29T01:00:00.000Z",
                                  "cwd": cwd, "originator": "codex_exec", "cli_version": "0.171.0",
                                  "source": "exec"})
    turn = _line("turn_context", {"turn_id": "t1", "cwd": cwd, "model": "gpt-5.5"})
    path.write_text("\n".join([meta, turn, *items]) + "\n", encoding="utf-8")
    return path


def _message(role: str, text: str) -> str:
    kind = "output_text" if role == "assistant" else "input_text"
    content = [{"type": kind, "text": text}]
    return _line("response_item", {"type": "message", "role": role, "content": content})


def _hook(text: str) -> str:
    """A hook's additionalContext: a developer message of its own, marked as hook context."""
    meta = {"turn_id": "t1", "content_item_kinds": ["hooks.additional_context"],
            "content_item_metadata": [{"provenance": {"type": "harness", "hook": True}}]}
    return _line("response_item", {"type": "message", "role": "developer",
                                   "content": [{"type": "input_text", "text": text}],
                                   "internal_chat_message_metadata_passthrough": meta})


def _patch(call: str, body: str) -> str:
    return _line("response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": call,
                                   "input": body, "status": "completed"})


def _output(call: str, text: str, kind: str = "custom_tool_call_output") -> str:
    return _line("response_item", {"type": kind, "call_id": call, "output": text})


def _exec(call: str, cmd: str) -> str:
    return _line("response_item", {"type": "function_call", "name": "exec_command", "call_id": call,
                                   "arguments": json.dumps({"cmd": cmd})})


def _shell(call: str, command: list[str]) -> str:
    """An older release's ``shell`` call (``command`` a list): still read."""
    return _line("response_item", {"type": "function_call", "name": "shell", "call_id": call,
                                   "arguments": json.dumps({"command": command})})


def test_codex_rollout_broken_after_delivery(tmp_path: Path, run_audit: Audit) -> None:
    project = _project(tmp_path / "project")
    recorded = "/home/someone/work/project"  # recorded elsewhere: paths move onto --cwd
    log = _rollout(
        tmp_path / "rollout-2025-10-29T01-00-00-abc.jsonl", recorded, "abc",
        _hook("<generic-rules>\n[rule: no-sudo] .cursor/rules/no-sudo.mdc\nNO-SUDO: never run sudo.\n"
              "</generic-rules>"),
        _message("user", "Add the module."),
        _patch("c1", "*** Begin Patch\n*** Add File: src/a.py\n+print('a')\n*** End Patch"),
        _hook("[rule: no-print]\nNO-PRINT: use logging."),  # between the call and its output
        _output("c1", "Exit code: 0\nOutput:\nSuccess. Updated the following files:\nA src/a.py\n"),
        _patch("c2", f"*** Begin Patch\n*** Update File: {recorded}/src/a.py\n@@\n-print('a')\n+print('b')\n"
                     "*** End Patch"),
        _output("c2", "Exit code: 0\nOutput:\nSuccess."),
        _exec("c3", "ls src"),
        _output("c3", "Process exited with code 0\nOutput:\na.py\n", "function_call_output"),
        _message("assistant", "Done."),
    )
    code, report, _ = run_audit(str(log), "--cwd", str(project), "--json", "--fail-on", "broken")
    assert code == 1
    assert report["warnings"] == []
    (session,) = report["sessions"]
    assert session["format"] == "codex" and session["id"] == "abc" and session["actions"] == 3
    assert session["replies"] == 1
    (printed,) = [r for r in session["rules"] if r["rule"] == "no-print"]
    assert [(r["how"], r["call"]) for r in printed["received"]] == [("tool-result", "c1")]
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
                 _hook("[rule: docs] .cursor/rules/docs.mdc\nDOCS: sentence case."),
                 _shell(f"c{n}", ["bash", "-lc", "make test"]),
                 _output(f"c{n}", "ok", "function_call_output"))
    code, report, _ = run_audit(str(tmp_path / "sessions"), "--cwd", str(project), "--json")
    assert code == 0 and report["totals"]["sessions"] == 3
    (docs,) = [r for r in report["rules"] if r["rule"] == "docs"]
    assert docs["sessions_received"] == 3 and docs["sessions_untouched"] == 3
    assert any("globs are too wide" in a for a in docs["advice"])

    code, report, _ = run_audit(str(tmp_path / "sessions"), "--cwd", str(project), "--json",
                                "--since", "2030-01-01")
    assert code == 0 and report["totals"]["sessions"] == 0


def test_codex_refusal_and_stop_block_count_violations_after_the_interrupt(
    tmp_path: Path, run_audit: Audit
) -> None:
    project = _project(tmp_path / "project")
    rules = project / ".ruleweave/rules"
    rules.mkdir(parents=True)
    (rules / "no-eval.md").write_text("---\ncondition: 'eval\\('\nscope: 'tool:edit'\n---\nNO-EVAL.\n")
    (rules / "no-hacks.md").write_text("---\ncondition: '(?i)quick hack'\nscope: text\n---\nNO-HACKS.\n")
    stopped = ("[ruleweave] Your output was stopped because it matches rule `{0}` of this project. Read the "
               "rule text below, then write your response again so that it follows it.\n\n"
               "{1}rule name=\"{0}\" path=\".ruleweave/rules/{0}.md\"{2}\nNO.\n{1}/rule{2}")
    eval_patch = "*** Begin Patch\n*** Add File: src/n.ts\n+export const n = eval('1');\n*** End Patch\n"
    log = _rollout(
        tmp_path / "rollout.jsonl", str(project), "s1",
        _message("user", "Go."),
        _patch("c1", eval_patch),
        _output("c1", "Command blocked by PreToolUse hook: " + stopped.format("no-eval", "<", ">")
                + ". Command: " + eval_patch),
        _patch("c2", eval_patch.replace("n.ts", "m.ts")),  # once per session: this one went through
        _output("c2", "Exit code: 0\nOutput:\nSuccess."),
        _message("assistant", "Done, a quick hack."),
        # Codex 0.171.0 wraps a Stop hook's reason in <hook_prompt> and escapes its < and >.
        _message("user", '<hook_prompt hook_run_id="stop:5:/p/.codex/hooks.json">'
                         + stopped.format("no-hacks", "&lt;", "&gt;") + "</hook_prompt>"),
        _message("assistant", "Still a quick hack."),
    )
    code, report, _ = run_audit(str(log), "--cwd", str(project), "--json")
    assert code == 0 and report["warnings"] == []
    rows = {row["rule"]: row for row in report["sessions"][0]["rules"]}
    assert [(r["how"], r["call"]) for r in rows["no-eval"]["received"]] == [("ttsr-interrupt", "c1")]
    assert rows["no-eval"]["violations"] == {"before": 1, "after": 1, "after_ttsr": 1}
    files = rows["no-eval"]["files"]
    assert [(f["when"], f["stopped"]) for f in files] == [("before", True), ("after", False)]
    assert [r["how"] for r in rows["no-hacks"]["received"]] == ["ttsr-interrupt"]
    assert rows["no-hacks"]["violations"] == {"before": 1, "after": 1, "after_ttsr": 1}
    assert report["totals"]["broken"] == ["no-eval", "no-hacks"] and report["totals"]["stopped"] == 1
