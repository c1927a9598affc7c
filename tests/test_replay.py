"""Logged sessions replayed against today's rules: clean, changed, unusable."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.cli import main
from ruleweave.testing import assert_replays
from tests.conftest import WriteTree

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "examples" / "demo-repo"

FILES = {
    ".cursor/rules/ts.mdc": "---\ndescription: TS\nglobs: src/**/*.ts\n---\nStrict TS.",
    ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped Python.",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.",
}


def record(root: Path, log: Path, disabled_rules: frozenset[str] = frozenset()) -> None:
    """A small session: three tool calls, a compaction, one more call."""
    ruleset = RuleSet.load(
        RuleweaveConfig(cwd=root, builtin_rules=False, event_log=log, disabled_rules=disabled_rules)
    )
    session = ruleset.session("rec")
    session.after_tool_call("read_file", {"path": "src/app.ts"})
    session.after_tool_call("read_file", {"path": str(root / "src" / "b.ts")})
    session.after_tool_call("edit", {"file_path": "tools/x.py"})
    session.compacted()
    session.after_tool_call("read_file", {"path": "src/c.ts"})
    ruleset.events.close()


def test_unchanged_repo_replays_clean(write_tree: WriteTree, tmp_path: Path) -> None:
    """Replaying against the same files reports nothing, through the API and the CLI."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    report = assert_replays(log)
    assert [s.replayed for s in report.sessions] == [4]
    assert main(["replay", str(log)]) == 0


def test_changed_glob_fails_and_names_the_rule(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Narrowing a rule's glob makes replay fail, naming the rule that disappeared."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    (root / ".cursor/rules/ts.mdc").write_text("---\ndescription: TS\nglobs: lib/**/*.ts\n---\nStrict TS.")
    with pytest.raises(AssertionError, match=r"- ts is no longer injected"):
        assert_replays(log)
    capsys.readouterr()
    assert main(["replay", str(log), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    calls = data["sessions"][0]["calls"]
    assert [(c["index"], c["disappeared"]) for c in calls] == [(1, ["ts"]), (4, ["ts"])]
    assert data["sessions"][0]["prompt"]["changed"] is True


def test_new_generic_rule_is_named(write_tree: WriteTree, tmp_path: Path) -> None:
    """A rule added to <generic-rules> since the recording is named in the diff."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    (root / ".cursor/rules/extra.mdc").write_text("---\nalwaysApply: true\n---\nNew rule.")
    with pytest.raises(AssertionError, match=r"\+ extra now in <generic-rules>"):
        assert_replays(log)


def test_replay_in_another_directory(write_tree: WriteTree, tmp_path: Path) -> None:
    """A log replays in a copy of the project: recorded absolute paths move with it."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    moved = tmp_path / "moved"
    shutil.copytree(root, moved)
    assert_replays(log, cwd=moved)


def test_unusable_logs_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing log, a binary one and one without sessions exit 2 with one sentence."""
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\x00\x01")
    empty = tmp_path / "e.jsonl"
    empty.write_text('{"event": "tool_touch", "session": "x"}\nnot json\n')
    for path in (tmp_path / "missing.jsonl", binary, empty):
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("ruleweave: ") and err.count("\n") == 1


@pytest.mark.parametrize("log", sorted((HERE / "replays").glob("*.jsonl")), ids=lambda p: p.name)
def test_recorded_examples_replay(log: Path) -> None:
    """Every example's recorded event log still replays against examples/demo-repo."""
    report = assert_replays(log, cwd=DEMO)
    assert sum(s.replayed for s in report.sessions) > 0


def _edit_start(log: Path, edit: dict[str, object]) -> None:
    """Rewrite the log's session_start event with ``edit`` (a ``None`` value drops the key)."""
    lines = []
    for line in log.read_text().splitlines():
        event = json.loads(line)
        if event.get("event") == "session_start":
            for key, value in edit.items():
                if value is None:
                    event.pop(key, None)
                else:
                    event[key] = value
        lines.append(json.dumps(event))
    log.write_text("\n".join(lines) + "\n")


def test_odd_session_start_fields_do_not_crash(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No project_root, a root that is only a string prefix of the cwd, or odd options still replay."""
    root = write_tree(FILES)
    codes = []
    for edit in ({"project_root": None}, {"project_root": str(root)[:-1]}, {"options": [1, 2]}):
        log = tmp_path / "events.jsonl"
        log.unlink(missing_ok=True)
        record(root, log, frozenset({"always"}))
        _edit_start(log, {"options": {"disabled_rules": ["always"]}, **edit})
        codes.append(main(["replay", str(log)]))
    assert codes == [0, 0, 1]  # options that are not a mapping are dropped: the disabled rule returns
    assert "not a mapping; ignored" in capsys.readouterr().err  # and the replay notes it
    _edit_start(log, {"options": {"ttsr_window": "wide"}})
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "ttsr_window" in err and err.count("\n") == 1


def test_logged_options_are_deterministic(write_tree: WriteTree, tmp_path: Path) -> None:
    """Set-valued options are logged sorted, and replay rebuilds the same configuration."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    config = RuleweaveConfig(
        cwd=root, builtin_rules=False, event_log=log, disabled_rules={"py", "always", "zeta", "beta"}
    )
    session = RuleSet.load(config).session("opts")
    assert session.after_tool_call("read", {"path": "x.py"}) is None
    start = json.loads(log.read_text().splitlines()[0])
    assert start["options"]["disabled_rules"] == ["always", "beta", "py", "zeta"]
    assert_replays(log)
