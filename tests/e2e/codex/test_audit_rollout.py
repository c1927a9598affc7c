"""``ruleweave audit`` of a rollout file the real Codex CLI (``@openai/codex@0.171.0``) writes, with
ruleweave's hooks installed, against the local Responses API mock — joined with the hooks' store.

What 0.171.0 writes to ``$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`` (read from the
file this test makes; middleware/audit/codex.py documents the shape):

* each hook's ``additionalContext`` is a ``developer`` message of its own, marked
  ``content_item_kinds: ["hooks.additional_context"]``; a tool hook's sits between the call and its
  output;
* ``exec_command`` calls take ``cmd`` (a string); ``apply_patch`` is a ``custom_tool_call``;
* a PreToolUse refusal is the call's output, ``Command blocked by PreToolUse hook: <reason>``;
* a Stop block reaches the model as a ``user`` message ``<hook_prompt …>reason</hook_prompt>`` with the
  reason's ``<`` and ``>`` escaped; Codex then asks again, and the next reply is let through
  (``stop_hook_active``);
* auto-compaction writes a ``compacted`` line; SessionStart (``compact``) then sends the start context
  again under ruleweave's compaction header.

A streamed rule stops once per session (``repeat: once``, docs/streamed-rules.md), so the second
``eval(`` patch goes through: a violation after the interrupt.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave.cli import main
from tests.e2e.codex.driving import run_turn
from tests.e2e.mock_responses import call, custom, reply, text

pytestmark = pytest.mark.e2e


FILES = {
    ".cursor/rules/ts.mdc": "---\nglobs: '**/*.ts'\ncheck: 'as any'\n---\nTS-RULE: no `any` in TypeScript.\n",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nALWAYS: keep commits small.\n",
    ".ruleweave/rules/no-eval.md": (
        "---\ncondition: 'eval\\('\nscope: 'tool:edit'\n---\nNO-EVAL: never call eval.\n"
    ),
    ".ruleweave/rules/no-hacks.md": (
        "---\ncondition: '(?i)quick hack'\nscope: text\n---\nNO-HACKS: say what the proper fix is.\n"
    ),
    "src/a.ts": "export const a = 1;\n",
}


def _patch(path: str, line: str, *, add: bool = True) -> str:
    if add:
        return f"*** Begin Patch\n*** Add File: {path}\n+{line}\n*** End Patch\n"
    return f"*** Begin Patch\n*** Update File: {path}\n@@\n-export const a = 1;\n+{line}\n*** End Patch\n"


READ = call("exec_command", cmd="cat src/a.ts")
ANY = custom("apply_patch", _patch("src/a.ts", "export const a = 1 as any;", add=False))
EVAL = custom("apply_patch", _patch("src/n.ts", "export const n = eval('1');"))
FIXED = custom("apply_patch", _patch("src/n.ts", "export const n = 1;"))
EVAL_AGAIN = custom("apply_patch", _patch("src/m.ts", "export const m = eval('2');"))
READ_AGAIN = call("exec_command", cmd="cat src/a.ts")
SCRIPT = [
    reply(text("Reading."), READ),
    reply(ANY),  # after TS-RULE arrived with the read: broken after delivery
    reply(EVAL),  # refused at PreToolUse
    reply(FIXED),
    reply(EVAL_AGAIN, input_tokens=9_000),  # goes through; over the compaction limit
    reply(READ_AGAIN),  # after compaction: TS-RULE again
    reply(text("All done. A quick hack.")),  # blocked at Stop
    reply(text("Still a quick hack.")),  # let through
]


def _run(tmp: Path) -> tuple[Path, Path, str]:
    """Install the hooks and run the scripted turn; return the project, the rollout file and the store URL."""
    turn = run_turn(tmp, FILES, SCRIPT, "Fix the TypeScript files.")
    assert len(turn.mock.loop_requests) == len(SCRIPT)
    (rollout,) = (turn.codex_home / "sessions").rglob("rollout-*.jsonl")
    return turn.project, rollout, f"sqlite:///{tmp / 'state' / 'state.db'}"


def test_audit_of_a_real_codex_rollout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project, rollout, store = _run(tmp_path)

    def audit(*args: str) -> tuple[int, str]:
        code = main(["audit", str(sessions_of(rollout)), "--cwd", str(project), "--store", store, *args])
        return code, capsys.readouterr().out

    code, out = audit("--json", "--fail-on", "broken")
    assert code == 1
    report = json.loads(out)
    assert report["warnings"] == [] and report["files"] == [str(rollout)]
    (session,) = report["sessions"]
    assert session["format"] == "codex" and session["cwd"] == str(project)
    assert rollout.name.endswith(f"{session['id']}.jsonl")
    assert session["actions"] == 6 and session["start_context"] == "per-rule"
    rows = {row["rule"]: row for row in session["rules"]}

    always = rows["always"]
    assert [r["how"] for r in always["received"]] == ["start", "compaction"]
    assert always["delivered"] == 2 and always["gap"] == "ok"

    ts = rows["ts"]
    assert [(r["how"], r["call"]) for r in ts["received"]] == [
        ("tool-result", READ["call_id"]), ("tool-result", READ_AGAIN["call_id"])
    ]
    assert ts["delivered"] == 2 and ts["gap"] == "ok" and ts["touched"] is True
    assert ts["violations"] == {"before": 0, "after": 1, "after_ttsr": 0}
    assert [f["path"] for f in ts["files"]] == [str(project / "src/a.ts")]

    no_eval = rows["no-eval"]
    assert [(r["how"], r["call"]) for r in no_eval["received"]] == [("ttsr-interrupt", EVAL["call_id"])]
    assert no_eval["violations"] == {"before": 1, "after": 1, "after_ttsr": 1}
    assert [(f["path"], f["when"], f["stopped"]) for f in no_eval["files"]] == [
        (str(project / "src/n.ts"), "before", True), (str(project / "src/m.ts"), "after", False)
    ]
    assert not (project / "src/n.ts").read_text(encoding="utf-8").count("eval")  # the refused patch never ran

    no_hacks = rows["no-hacks"]
    assert [r["how"] for r in no_hacks["received"]] == ["ttsr-interrupt"]  # from the escaped <hook_prompt>
    assert no_hacks["violations"] == {"before": 1, "after": 1, "after_ttsr": 1}

    assert report["totals"]["broken"] == ["no-eval", "no-hacks", "ts"]
    assert report["totals"]["violations_after_ttsr"] == 2 and report["totals"]["stopped"] == 1

    code, shown = audit()
    assert code == 0 and all(len(line) <= 100 for line in shown.splitlines())
    assert "compact×1,start×1" in shown and "n.ts (before, stopped)" in shown


def sessions_of(rollout: Path) -> Path:
    """The ``sessions`` folder above a rollout file (audit walks it, as a user would point it there)."""
    return rollout.parents[3]
