"""``ruleweave replay LOG --economy``: bytes delivered against the two baselines, on a logged session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave import MemoryStore, RuleSet, RuleweaveConfig
from ruleweave.cli import main
from ruleweave.replay.economy import economy
from tests.conftest import WriteTree

BIG = "\n".join(f"- line {i}: keep the handler small and typed" for i in range(200))


def logged_session(write_tree: WriteTree, tmp_path: Path) -> Path:
    root = write_tree(
        {
            ".git/HEAD": "x",
            ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.",
            ".cursor/rules/api.mdc": f"---\nglobs: src/api/**\n---\n{BIG}",
            ".cursor/rules/ui.mdc": "---\nglobs: src/ui/**\n---\nUse the design system.",
            ".cursor/rules/never.mdc": "---\nglobs: docs/**\n---\nNever matched.",
            ".cursor/rules/book.mdc": "---\ndescription: Releases\n---\nTag releases.",
        }
    )
    log = tmp_path / "events.jsonl"
    session = RuleSet.load(RuleweaveConfig(cwd=root, event_log=log)).session("e", store=MemoryStore())
    for _ in range(5):
        session.after_tool_call("read_file", {"path": "src/api/handler.ts"})
    session.after_tool_call("edit_file", {"path": "src/ui/button.tsx"})
    return log


def test_economy_counts_delivered_bytes_and_both_baselines(write_tree: WriteTree, tmp_path: Path) -> None:
    """The api rule is delivered once but re-injected five times in the baseline; unmatched ones cost 0."""
    (report,) = economy(logged_session(write_tree, tmp_path))
    api = len(BIG.encode())
    assert report.calls == 6 and report.notice_count == 2
    assert report.reinject_every_call >= 5 * api
    assert report.all_in_prompt >= api + len("Never matched.") + len("Tag releases.")
    assert report.delivered == report.prompt + report.notices
    names = [cost.name for cost in report.top]
    assert names[0] == "rule://api" and "rule://never" not in names
    assert report.ratio(report.reinject_every_call) < 0.5


def test_replay_economy_cli_prints_text_and_json(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI prints both ratios and the costliest rules; ``--json`` has the same numbers."""
    log = logged_session(write_tree, tmp_path)
    assert main(["replay", str(log), "--economy"]) == 0
    out = capsys.readouterr().out
    assert "ruleweave delivered" in out and "all rules in prompt" in out and "re-inject every call" in out
    assert "rule://api (notice)" in out
    assert main(["replay", str(log), "--economy", "--json"]) == 0
    (data,) = json.loads(capsys.readouterr().out)["sessions"]
    assert set(data) == {"session", "calls", "delivered", "baselines", "ratios", "top"}
    assert data["delivered"]["total"] == data["delivered"]["prompt"] + data["delivered"]["notices"]
    assert data["top"][0] == {"name": "rule://api", "where": "notice", "bytes": data["top"][0]["bytes"]}
