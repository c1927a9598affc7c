"""Points 4 and 5: a replay log is input: its options are vetted, and a malformed or cut log is an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ruleweave.cli import main
from ruleweave.replay import MAX_LOG_BYTES
from tests.conftest import WriteTree
from tests.security.helpers import load, write

FILES = {
    ".cursor/rules/py.mdc": "---\nglobs: '**/*.py'\n---\nTyped Python.",
    ".cursor/rules/always.mdc": "---\nalwaysApply: true\n---\nBe brief.",
    "CLAUDE.md": "Project instructions.\n\n@../outside.md\n",
}


def record(root: Path, log: Path) -> None:
    """A small real session: two tool calls."""
    ruleset = load(root, event_log=log)
    session = ruleset.session("rec")
    session.after_tool_call("read", {"path": "src/a.py"})
    session.after_tool_call("read", {"path": "README.md"})
    ruleset.events.close()


def tamper(log: Path, **fields: Any) -> None:
    """Rewrite the log's session_start as an attacker committing it would."""
    lines = []
    for line in log.read_text().splitlines():
        event = json.loads(line)
        if event["event"] == "session_start":
            event.update(fields)
        lines.append(json.dumps(event))
    log.write_text("\n".join(lines) + "\n")


def test_logged_options_cannot_write_read_or_widen(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """event_log, skillspec, home, attribute-access templates, outside imports, link-following: ignored."""
    write(tmp_path, {"outside.md": "OUTSIDE import.", "spec.yml": "id: x\n"})
    write(tmp_path / "elsewhere", {"rules/evil.mdc": "---\nalwaysApply: true\n---\nOUTSIDE rule."})
    root = write_tree(FILES)
    (root / ".github").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    log = tmp_path / "events.jsonl"
    record(root, log)
    planted = tmp_path / "planted" / "events.jsonl"
    options = json.loads(log.read_text().splitlines()[0])["options"]
    options.update(
        event_log=str(planted), skillspec=str(tmp_path / "spec.yml"), home=str(tmp_path),
        allow_outside_imports=True, symlinks="follow",
        templates={"notice": "{name.__class__.__mro__}", "generic": "{rules:>999999999}"},
    )
    tamper(log, options=options)
    capsys.readouterr()

    assert main(["replay", str(log)]) == 0  # nothing the log asked for changed what is loaded
    err = capsys.readouterr().err
    assert not planted.exists() and not planted.parent.exists()
    ignored = ("event_log", "skillspec", "home", "allow_outside_imports", "symlinks", "notice", "generic")
    for option in ignored:
        assert f"'{option}'" in err, option
    assert all(line.startswith("ruleweave: session rec: ") for line in err.splitlines())


def test_a_replay_options_note_is_in_the_json_report(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` carries each ignored option as a note of its session."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    tamper(log, options={"event_log": str(tmp_path / "x.jsonl")})
    capsys.readouterr()
    assert main(["replay", "--json", str(log)]) == 0
    [session] = json.loads(capsys.readouterr().out)["sessions"]
    assert len(session["notes"]) == 1 and "'event_log'" in session["notes"][0]


def _one_sentence_exit_2(log: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["replay", str(log)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("ruleweave: ") and captured.err.count("\n") == 1
    return captured.err


def test_malformed_lines_exit_2_with_one_sentence(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 100,000-deep line, a non-list generic_rules, non-string injected names: malformed, not 'differs'."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    good = log.read_text()

    deep = '{"event": "tool_touch", "session": "rec", "args": ' + "[" * 100_000 + "]" * 100_000 + "}"
    log.write_text(good + deep + "\n")
    assert f"line {len(good.splitlines()) + 1} " in _one_sentence_exit_2(log, capsys)

    log.write_text(good)
    tamper(log, generic_rules=5)
    assert "generic_rules" in _one_sentence_exit_2(log, capsys)

    log.write_text(good.replace('"injected": [', '"injected": [{"x": 1}, '))
    assert "injected" in _one_sentence_exit_2(log, capsys)

    log.write_text(good)
    tamper(log, options={"max_file_bytes": 10**15})
    assert "max_file_bytes" in _one_sentence_exit_2(log, capsys)


def test_a_log_larger_than_the_cap_is_an_error_never_clean(
    write_tree: WriteTree, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log whose only difference lies past 64 MiB exits 2 instead of reporting 'clean'."""
    root = write_tree(FILES)
    log = tmp_path / "events.jsonl"
    record(root, log)
    start = log.read_text().splitlines()[0]
    filler = json.dumps({"event": "prompt", "session": "rec", "prompt_sha256": "0" * 64, "prompt_bytes": 1})
    differing = json.dumps(
        {"event": "tool_touch", "session": "rec", "tool": "read", "args": {"path": "b.py"}, "injected": []}
    )
    with log.open("w") as out:
        out.write(start + "\n")
        line = filler + "\n"
        for _ in range(MAX_LOG_BYTES // len(line) + 1):
            out.write(line)
        out.write(differing + "\n")
    assert log.stat().st_size > MAX_LOG_BYTES
    assert "larger than" in _one_sentence_exit_2(log, capsys)
