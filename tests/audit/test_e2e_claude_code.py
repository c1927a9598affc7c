"""End to end: a transcript the real Claude Code CLI (2.1.332, bundled in claude-agent-sdk) writes,
offline against the mock Messages API, with ruleweave's hooks installed, audited.

The model writes ``src/a.py`` with ``print(`` first: the hooks answer that Write's PreToolUse with
the rule's notice, which the CLI records as a ``hook_additional_context`` attachment after the
``tool_use`` and shows the model with the tool's result (seen in the transcript at the hook input's
``transcript_path``, ``~/.claude/projects/<project>/<session>.jsonl``). Then it writes a compliant
``src/b.py`` and runs a command.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.audit.conftest import Audit
from tests.hosts.claude_code.mock_messages import MockMessages, reply, text, tool
from tests.hosts.claude_code.test_e2e_cli import cli_env, install_hooks, run_cli

__all__ = ["cli_env"]  # the CLI environment fixture, shared with test_e2e_cli

RULE = "---\nglobs: src/**/*.py\ncheck: 'print\\('\n---\nNO-PRINT: use logging, never print().\n"


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/no-print.mdc").write_text(RULE, encoding="utf-8")
    (root / ".cursor/rules/always.mdc").write_text("---\nalwaysApply: true\n---\nALWAYS: be brief.\n")
    (root / "src").mkdir()
    return root


def test_audit_of_a_real_claude_code_transcript(
    tmp_path: Path, cli_env: dict[str, str], run_audit: Audit
) -> None:
    project = _project(tmp_path / "project")
    env = {**cli_env, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    install_hooks(project, env)
    script = [
        reply(tool("Write", file_path=str(project / "src/a.py"), content="print('x')\n")),
        reply(tool("Write", file_path=str(project / "src/b.py"), content="import logging\nlogging.info(1)")),
        reply(tool("Bash", command="echo done", description="Say done")),
        reply(text("Done.")),
    ]
    with MockMessages(script) as mock:
        run_cli(project, {**env, "ANTHROPIC_BASE_URL": mock.url}, "Add two files.")
    transcripts = list(Path(cli_env["HOME"], ".claude", "projects").rglob("*.jsonl"))
    assert len(transcripts) == 1
    store = f"sqlite:///{tmp_path / 'state' / 'state.db'}"

    code, report, _ = run_audit(str(transcripts[0]), "--cwd", str(project), "--store", store, "--json",
                                "--fail-on", "broken")
    assert code == 0, report["warnings"]
    assert report["warnings"] == []
    (session,) = report["sessions"]
    assert session["format"] == "claude-code" and session["cwd"] == str(project)
    rows = {row["rule"]: row for row in session["rules"]}
    printed = rows["no-print"]
    assert [r["how"] for r in printed["received"]] == ["pretool"]
    assert printed["received"][0]["event"] == "PreToolUse"
    assert printed["delivered"] == 1 and printed["gap"] == "ok"  # the store's record agrees
    assert printed["violations"] == {"before": 1, "after": 0, "after_ttsr": 0}
    assert [f["path"] for f in printed["files"]] == [str(project / "src/a.py")]
    assert printed["touched"] is True
    assert [r["how"] for r in rows["always"]["received"]] == ["start"]
    # The record holds the start context as one piece; the audit tells its rules apart (per rule).
    assert session["start_context"] == "per-rule"
    assert rows["always"]["delivered"] == 1 and rows["always"]["gap"] == "ok"
    totals = {row["rule"]: row for row in report["rules"]}
    assert totals["no-print"]["status"] == "followed"
    assert totals["no-print"]["check"]["source"] == "check"
    assert report["totals"]["violations_before"] == 1 and report["totals"]["broken"] == []

    # The same transcript, with one more Write of ``print(`` after the notice: broken, exit 1.
    lines = transcripts[0].read_text(encoding="utf-8").splitlines()
    extra = next(found for line in lines if (found := json.loads(line)).get("type") == "assistant"
                 and "src/b.py" in line)
    block = extra["message"]["content"][0]
    block["id"] = "toolu_extra"
    block["input"] = {"file_path": str(project / "src/c.py"), "content": "print(1)\n"}
    later = tmp_path / "later.jsonl"
    later.write_text("\n".join([*lines, json.dumps(extra)]) + "\n", encoding="utf-8")
    code, report, _ = run_audit(str(later), "--cwd", str(project), "--json", "--fail-on", "broken")
    assert code == 1
    (row,) = [r for r in report["rules"] if r["rule"] == "no-print"]
    assert row["status"] == "broken" and row["violations"]["after"] == 1
    assert any("streamed rule" in advice for advice in row["advice"])

    # The always-on rule edited since: no start context built now matches the recorded piece's size,
    # so its rules are joined by what the transcript shows ("whole"), never read as unrecorded.
    (project / ".cursor/rules/always.mdc").write_text("---\nalwaysApply: true\n---\nALWAYS: be brief!!\n")
    code, report, _ = run_audit(str(transcripts[0]), "--cwd", str(project), "--store", store, "--json")
    assert code == 0 and report["sessions"][0]["start_context"] == "whole"
    (always,) = [row for row in report["sessions"][0]["rules"] if row["rule"] == "always"]
    assert always["delivered"] == 1 and always["gap"] == "ok"

    code, shown, _ = run_audit(str(transcripts[0]), "--cwd", str(project))
    assert code == 0
    assert all(len(line) <= 100 for line in shown.splitlines())
    assert "no-print" in shown and "followed" in shown
    assert os.path.basename(str(project / "src/a.py")) in shown
