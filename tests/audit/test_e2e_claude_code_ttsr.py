"""End to end: streamed-rule interrupts, a rule cut to the hook limit and a start context in parts, in a
transcript the real Claude Code CLI (2.1.332, bundled in claude-agent-sdk) writes offline against the mock
Messages API with ruleweave's hooks installed — audited against the hooks' store.

What the CLI records (seen in the transcript at ``~/.claude/projects/<project>/<session>.jsonl``):

* a PreToolUse refusal as the refused call's ``tool_result`` (``is_error``, ``PreToolUse:Write hook
  error: [ruleweave] Your output was stopped … <rule name="no-eval" …>``) — the write never ran;
* a Stop block as a ``user`` message ``Stop hook feedback:\\n[ruleweave] Your output was stopped …``;
  the CLI then asks the model again, and the Stop hook lets the next reply through
  (``stop_hook_active``: ruleweave never blocks twice in a row);
* a streamed rule stops once per session (``repeat: once``, the default: docs/streamed-rules.md), so
  the second ``eval(`` write goes through: a violation after the TTSR interrupt;
* the ``big`` rule's body is over the 10,000-character hook limit: its notice ends in the cut marker
  ``[ruleweave: N bytes left out; whole text at mcp__ruleweave__read_rule name="big"]`` and the
  store's record says the same ``cut``;
* three always-on rules make a start context over the limit: the record holds it as "start context,
  part 1 of 2" (SessionStart) and "part 2 of 2" (the next event), one piece each, no rule names.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.audit.conftest import Audit
from tests.hosts.claude_code.mock_messages import MockMessages, reply, text, tool
from tests.hosts.claude_code.test_e2e_cli import cli_env, install_hooks, run_cli

__all__ = ["cli_env"]  # the CLI environment fixture, shared with test_e2e_cli

BIG = "\n".join(f"BIG-{n:05d}: one line of a rule longer than one hook answer may be." for n in range(400))
ALWAYS = {
    f"always-{n}": "\n".join(f"ALWAYS-{n}-{line:03d}: keep the changes small." for line in range(100))
    for n in (1, 2, 3)
}


def _project(root: Path) -> Path:
    (root / ".git").mkdir(parents=True)
    rules = root / ".ruleweave" / "rules"
    rules.mkdir(parents=True)
    (rules / "no-eval.md").write_text(
        "---\ncondition: '\\beval\\('\nscope: 'tool:write'\n---\nNO-EVAL: never call eval().\n",
        encoding="utf-8",
    )
    (rules / "no-hacks.md").write_text(
        "---\ncondition: '(?i)\\bquick hack\\b'\nscope: text\n---\nNO-HACKS: say what the proper fix is.\n",
        encoding="utf-8",
    )
    cursor = root / ".cursor" / "rules"
    cursor.mkdir(parents=True)
    (cursor / "big.mdc").write_text(f"---\nglobs: docs/**/*.md\n---\n{BIG}\n", encoding="utf-8")
    for name, body in ALWAYS.items():
        (cursor / f"{name}.mdc").write_text(f"---\nalwaysApply: true\n---\n{body}\n", encoding="utf-8")
    (root / "src").mkdir()
    (root / "docs").mkdir()
    (root / "docs" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    return root


def _session(tmp_path: Path, cli_env: dict[str, str]) -> tuple[Path, Path, str, list[Any]]:
    """Run the scripted session; return the project, its transcript, the store URL and the script."""
    project = _project(tmp_path / "project")
    env = {**cli_env, "RULEWEAVE_STATE_DIR": str(tmp_path / "state")}
    install_hooks(project, env)
    code = str(project / "src" / "a.py")
    script = [
        reply(tool("Write", file_path=code, content="value = eval(raw)\n")),  # refused at PreToolUse
        reply(tool("Write", file_path=code, content="value = eval(raw or '0')\n")),  # goes through
        reply(tool("Write", file_path=code, content="value = int(raw)\n")),
        reply(tool("Read", file_path=str(project / "docs" / "guide.md"))),  # the cut notice
        reply(text("Done. This is a quick hack.")),  # blocked at Stop
        reply(text("Still a quick hack, sorry.")),  # let through: the Stop hook never blocks twice
    ]
    with MockMessages(script) as mock:
        run_cli(project, {**env, "ANTHROPIC_BASE_URL": mock.url}, "Parse the input in src/a.py.")
    assert len(mock.loop_requests) == len(script)
    (transcript,) = Path(cli_env["HOME"], ".claude", "projects").rglob("*.jsonl")
    return project, transcript, f"sqlite:///{tmp_path / 'state' / 'state.db'}", script


def test_audit_of_ttsr_interrupts_a_cut_rule_and_a_split_start_context(
    tmp_path: Path, cli_env: dict[str, str], run_audit: Audit
) -> None:
    project, transcript, store, script = _session(tmp_path, cli_env)
    refused_call = script[0].content[0]["id"]

    code, report, _ = run_audit(str(transcript), "--cwd", str(project), "--store", store, "--json",
                                "--fail-on", "broken")
    assert code == 1 and report["warnings"] == []
    (session,) = report["sessions"]
    assert session["actions"] == 3 and session["replies"] == 2
    assert session["start_context"] == "per-rule"
    rows = {row["rule"]: row for row in session["rules"]}

    no_eval = rows["no-eval"]
    assert [(r["how"], r["call"]) for r in no_eval["received"]] == [("ttsr-interrupt", refused_call)]
    assert no_eval["violations"] == {"before": 1, "after": 1, "after_ttsr": 1}
    assert [(f["when"], f["stopped"]) for f in no_eval["files"]] == [("before", True), ("after", False)]
    assert no_eval["stopped"] == 1
    # A refusal is the hook's answer, not a delivery: the record holds none, and that is no gap.
    assert no_eval["delivered"] == 0 and no_eval["gap"] == "ok"

    no_hacks = rows["no-hacks"]
    assert [(r["how"], r["call"]) for r in no_hacks["received"]] == [("ttsr-interrupt", None)]
    assert no_hacks["violations"] == {"before": 1, "after": 1, "after_ttsr": 1}
    assert [(f["path"], f["stopped"]) for f in no_hacks["files"]] == [("(reply)", False), ("(reply)", False)]

    big = rows["big"]
    assert [r["how"] for r in big["received"]] == ["tool-result"]
    assert big["touched"] is True and big["delivered"] == 1 and big["gap"] == "ok"
    assert big["cut"] > 0 and big["delivered_cut"] == big["cut"]  # the marker and the record agree
    assert big["cut"] > len(BIG.encode()) // 2

    for name in ALWAYS:  # each always-on rule of the split start context, per rule
        assert rows[name]["delivered"] == 1 and rows[name]["gap"] == "ok", rows[name]
        assert [r["how"] for r in rows[name]["received"]] == ["start"]
    events = {name: rows[name]["received"][0]["event"] for name in ALWAYS}
    assert events["always-1"] == "SessionStart" and "UserPromptSubmit" in events.values()

    totals = {row["rule"]: row for row in report["rules"]}
    assert totals["no-eval"]["status"] == "broken" and totals["no-hacks"]["status"] == "broken"
    assert totals["no-eval"]["check"]["source"] == "condition" and totals["no-eval"]["check"]["scope"] == [
        "tool:write"
    ]
    assert any("repeat: after-gap" in advice for advice in totals["no-eval"]["advice"])
    assert totals["big"]["cut"] == 1 and totals["big"]["cut_bytes"] == big["cut"]
    assert any("cut in 1 session" in advice for advice in totals["big"]["advice"])
    assert report["totals"]["violations_after_ttsr"] == 2 and report["totals"]["stopped"] == 1
    assert report["totals"]["broken"] == ["no-eval", "no-hacks"] and report["totals"]["cut"] == 1

    code, shown, _ = run_audit(str(transcript), "--cwd", str(project), "--store", store)
    assert code == 0
    assert all(len(line) <= 100 for line in shown.splitlines())
    table = {line.split()[0]: line.split() for line in shown.splitlines() if line.startswith("  no-") or
             line.startswith("  big ")}
    # rule, status, recv, lost, cut, before, after, ttsr, how
    assert table["no-eval"][:8] == ["no-eval", "broken", "1", "0", "0", "1", "1", "1"]
    assert table["no-hacks"][:8] == ["no-hacks", "broken", "1", "0", "0", "1", "1", "1"]
    assert table["big"][:5] == ["big", "unchecked", "1", "0", "1"]
    assert "a.py (before, stopped)" in shown and "2 after (2 after a TTSR hit, 1 stopped)" in shown


def test_a_start_context_the_transcript_lost_reads_lost_per_rule(
    tmp_path: Path, cli_env: dict[str, str], run_audit: Audit
) -> None:
    project, transcript, store, _ = _session(tmp_path, cli_env)
    # The same session as if the CLI had dropped SessionStart's context: the record still says it went out.
    kept = [line for line in transcript.read_text(encoding="utf-8").splitlines()
            if json.loads(line).get("attachment", {}).get("hookEvent") != "SessionStart"]
    dropped = tmp_path / "dropped.jsonl"
    dropped.write_text("\n".join(kept) + "\n", encoding="utf-8")
    code, report, _ = run_audit(str(dropped), "--cwd", str(project), "--store", store, "--json")
    assert code == 0
    (session,) = report["sessions"]
    rows = {row["rule"]: row for row in session["rules"]}
    gaps = {name: rows[name]["gap"] for name in ALWAYS}
    assert sorted(gaps.values()) == ["lost", "lost", "ok"]  # part 1's rules lost, part 2's arrived
    assert gaps["always-1"] == "lost"
    totals = {row["rule"]: row for row in report["rules"]}
    assert totals["always-1"]["lost"] == 1 and report["totals"]["lost"] == 2
