"""The event log never breaks a session, and stays silent unless enabled."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from tests.conftest import WriteTree

RULE = {".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped Python."}


def test_surrogate_path_is_logged_and_the_notice_delivered(write_tree: WriteTree, tmp_path: Path) -> None:
    """A non-UTF-8 file name (a lone surrogate) is escaped in the log, not raised on."""
    root = write_tree(RULE)
    log = tmp_path / "events.jsonl"
    session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, event_log=log)).session("s")
    hit = session.after_tool_call("read", {"path": "caf\udcff.py"})
    assert hit is not None and hit.items[0].name == "py"
    touch = [json.loads(line) for line in log.read_text("utf-8").splitlines()][-2]
    assert touch["event"] == "tool_touch" and touch["injected"] == ["py"]


def test_failed_write_does_not_raise(write_tree: WriteTree, tmp_path: Path) -> None:
    """A log file that can no longer be written is reported once; calls go on."""
    root = write_tree(RULE)
    ruleset = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False, event_log=tmp_path / "e.jsonl"))
    session = ruleset.session("s")
    ruleset.events.close()
    assert session.after_tool_call("read", {"path": "a.py"}) is not None
    assert session.after_tool_call("read", {"path": "b.py"}) is None


def test_events_reach_the_stdlib_logger_when_enabled(
    write_tree: WriteTree, caplog: pytest.LogCaptureFixture
) -> None:
    """With ruleweave.events at INFO, each public call is one rendered record."""
    root = write_tree(RULE)
    with caplog.at_level(logging.INFO, logger="ruleweave.events"):
        session = RuleSet.load(RuleweaveConfig(cwd=root, builtin_rules=False)).session("s9")
        session.after_tool_call("read", {"path": "a.py"})
    messages = [r.getMessage() for r in caplog.records if r.name == "ruleweave.events"]
    assert [m.split()[0] for m in messages] == [
        "event='session_start'", "event='tool_touch'", "event='injection'"
    ]
    assert all("session='s9'" in m for m in messages)


def test_silent_by_default(write_tree: WriteTree) -> None:
    """A session with warnings and events prints nothing to stdout or stderr by default."""
    root = write_tree({**RULE, ".cursor/rules/bad.mdc": "---\nglobs: **/*.ts, *.tsx\n---\nX"})
    code = (
        "from ruleweave import RuleSet, RuleweaveConfig\n"
        f"s = RuleSet.load(RuleweaveConfig(cwd={str(root)!r})).session('x')\n"
        "s.after_tool_call('read', {'path': 'a.py'})\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert (out.stdout, out.stderr) == ("", "")
