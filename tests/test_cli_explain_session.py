"""``ruleweave explain --session ID``: a hook session's delivery record, from the store the hooks wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave import RuleweaveConfig
from ruleweave.cli import main
from ruleweave.hosts.claude_code import ClaudeCodeHooks
from ruleweave.store import SQLiteStore
from tests.conftest import WriteTree


def big(n: int) -> str:
    return "---\nglobs: src/**/*.py\n---\n" + "\n".join(f"R{n} {i} " + "z" * 70 for i in range(80)) + "\n"


@pytest.fixture
def recorded(write_tree: WriteTree, tmp_path: Path) -> str:
    """A SQLite store where a hook session got three 6 KB rules for one file over three reads."""
    root = write_tree({**{f".cursor/rules/r{n}.mdc": big(n) for n in (1, 2, 3)}, "src/app.py": "x\n"})
    store = SQLiteStore(tmp_path / "state.db")
    hooks = ClaudeCodeHooks(RuleweaveConfig(cwd=root), store=store)
    for i in range(2):
        hooks.handle({
            "session_id": "s1", "hook_event_name": "PostToolUse", "cwd": str(root), "tool_name": "Read",
            "tool_input": {"file_path": str(root / "src/app.py")}, "tool_use_id": f"toolu_{i}",
        })
    store.close()
    return f"sqlite:///{tmp_path / 'state.db'}"


def test_json_summarises_each_rule(recorded: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Per rule: delivered or still waiting, with the bytes; entries carry event and tool call id."""
    assert main(["explain", "--session", "s1", "--store", recorded, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {row["name"]: row for row in report["rules"]}
    assert (rows["r1"]["delivered"], rows["r2"]["delivered"], rows["r3"]["delivered"]) == (1, 1, 0)
    assert rows["r3"]["waiting"] and not rows["r2"]["waiting"] and rows["r2"]["dequeued"] == 1
    assert rows["r1"]["bytes"] > 6000 and rows["r1"]["cut"] == 0
    first = report["entries"][0]
    assert (first["action"], first["event"], first["call"], first["name"]) == (
        "delivered", "PostToolUse", "toolu_0", "r1",
    )


def test_text_names_each_rule_and_what_waits(recorded: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The terminal report: a line per rule (``yes`` under waits for the one still queued), then entries."""
    assert main(["explain", "--session", "s1", "--store", recorded]) == 0
    out = capsys.readouterr().out
    assert "session s1: " in out and "rule r3" in out
    waiting = [line for line in out.splitlines() if line.rstrip().endswith("rule r3") and " yes " in line]
    assert len(waiting) == 1
    assert "dequeued  rule r2" in out and "at PostToolUse toolu_1" in out


def test_unknown_session_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A session with no record says so; a store file that does not exist is not created."""
    missing = tmp_path / "none" / "state.db"
    assert main(["explain", "--session", "s9", "--store", f"sqlite:///{missing}"]) == 0
    assert "session s9: no delivery record" in capsys.readouterr().out
    assert not missing.exists()


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Paths and --session are exclusive; --store needs --session; a bad store URL is one sentence."""
    assert main(["explain", "--session", "s1", "src/app.py"]) == 2
    assert main(["explain"]) == 2
    assert main(["explain", "--store", "memory://", "x.py"]) == 2
    assert main(["explain", "--session", "s1", "--store", "nope://x"]) == 2
    err = capsys.readouterr().err
    assert "not both" in err and "needs a PATH" in err and "--store goes with --session" in err
