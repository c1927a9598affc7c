"""ruleweave's own event log (``RuleweaveConfig(event_log=PATH)``), written by a real session, audited."""

from __future__ import annotations

from pathlib import Path

from ruleweave import RuleSet, RuleweaveConfig
from tests.audit.conftest import Audit


def test_event_log_of_a_library_session(tmp_path: Path, run_audit: Audit) -> None:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    (root / ".cursor/rules").mkdir(parents=True)
    (root / ".cursor/rules/no-print.mdc").write_text(
        "---\nglobs: src/**/*.py\ncheck: 'print\\('\n---\nNO-PRINT: use logging.\n", encoding="utf-8"
    )
    log = tmp_path / "events.jsonl"
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, event_log=log))
    session = ruleset.session("s1")
    first = str(root / "src/a.py")
    session.after_tool_call("Write", {"file_path": first, "content": "print(1)\n"}, "", call_id="c1")
    second = str(root / "src/b.py")
    session.after_tool_call("Write", {"file_path": second, "content": "x = 1\n"}, "", call_id="c2")
    code, report, _ = run_audit(str(log), "--cwd", str(root), "--json")
    assert code == 0, report
    (found,) = report["sessions"]
    assert found["format"] == "event-log" and found["id"] == "s1"
    (row,) = [r for r in found["rules"] if r["rule"] == "no-print"]
    assert [r["how"] for r in row["received"]] == ["tool-result"]
    # The library's notice rides with the result of the call that wrote a.py: that write came first.
    assert row["violations"] == {"before": 1, "after": 0, "after_ttsr": 0}
