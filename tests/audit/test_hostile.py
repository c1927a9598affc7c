"""Untrusted transcripts: every bad file is a warning naming it; the good lines around it still count."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ruleweave.audit import jsonl
from tests.audit.conftest import Audit

GOOD = [
    {"type": "user", "sessionId": "s", "cwd": "/p", "timestamp": "2025-01-01T00:00:00Z",
     "message": {"role": "user", "content": "<system-reminder>\nSessionStart hook additional context: "
                 "[rule: always]\nALWAYS.\n</system-reminder>"}},
    {"type": "assistant", "sessionId": "s", "timestamp": "2025-01-01T00:00:01Z",
     "message": {"role": "assistant", "content": [
         {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}},
]


def _good_lines() -> list[bytes]:
    return [json.dumps(g).encode() + b"\n" for g in GOOD]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    return root


def test_truncated_transcript_keeps_its_whole_lines(tmp_path: Path, project: Path, run_audit: Audit) -> None:
    path = tmp_path / "cut.jsonl"
    whole = b"".join(_good_lines())
    path.write_bytes(whole + whole[: len(whole) // 3])  # the last line cut mid-object, no newline
    code, report, _ = run_audit(str(path), "--cwd", str(project), "--json")
    assert code == 0
    assert report["totals"]["sessions"] == 1 and report["sessions"][0]["actions"] == 1
    assert report["warnings"] == [f"{path}: skipped 1 cut-short last line."]


def test_hostile_lines_are_skipped_with_warnings(
    tmp_path: Path, project: Path, run_audit: Audit, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", 4096)
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"".join([
        _good_lines()[0],
        b'{"type": "user", "x": "' + b"a" * 10_000 + b'"}\n',  # a huge line
        b'{"type": "user", "bad": "\xff\xfe"}\n',  # not UTF-8
        b"[" * 100_000 + b"\n",  # nested past what json parses
        b"not json at all\n",
        _good_lines()[1],
    ]))
    code, report, _ = run_audit(str(path), "--cwd", str(project), "--json")
    assert code == 0
    assert report["sessions"][0]["actions"] == 1
    assert [r["rule"] for r in report["rules"]] == ["always"]
    warnings = report["warnings"]
    assert all(w.startswith(f"{path}: ") for w in warnings)
    joined = " ".join(warnings)
    for problem in ("line over the size limit", "not UTF-8", "not JSON"):
        assert problem in joined
    assert "nested too deep" in joined or "not JSON" in joined


def test_foreign_binary_missing_and_fifo_files(tmp_path: Path, project: Path, run_audit: Audit) -> None:
    foreign = tmp_path / "package.json"
    foreign.write_text(json.dumps({"name": "x", "version": "1"}) + "\n")
    binary = tmp_path / "blob.jsonl"
    binary.write_bytes(os.urandom(4096))
    missing = tmp_path / "missing.jsonl"
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    code, report, _ = run_audit(str(foreign), str(binary), str(missing), str(fifo), "--cwd", str(project),
                                "--json")
    assert code == 0 and report["totals"]["sessions"] == 0
    for path in (foreign, binary, missing, fifo):
        assert any(w.startswith(f"{path}: ") for w in report["warnings"]), path
    code, text, _ = run_audit(str(foreign), "--cwd", str(project))
    assert code == 0 and "not a Claude Code transcript" in " ".join(text.split())
    assert all(len(line) <= 100 for line in text.splitlines())


def test_control_characters_from_a_transcript_are_escaped(
    tmp_path: Path, project: Path, run_audit: Audit
) -> None:
    path = tmp_path / "t.jsonl"
    hostile = dict(GOOD[0])
    hostile["message"] = {"role": "user", "content": "[rule: evil\x1b[2J]\nx"}
    path.write_text(json.dumps(hostile) + "\n", encoding="utf-8")
    code, text, _ = run_audit(str(path), "--cwd", str(project))
    assert code == 0 and "evil" in text and "\x1b" not in text


def test_usage_errors_exit_2(tmp_path: Path, project: Path, run_audit: Audit) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(_good_lines()))
    assert run_audit(str(path), "--cwd", str(project), "--since", "yesterday")[0] == 2
    assert run_audit("--cwd", str(project))[0] == 2
    assert run_audit(str(path), "--cwd", str(tmp_path / "nowhere"))[0] == 2
    assert run_audit(str(path), "--cwd", str(project), "--store", f"sqlite:///{tmp_path}/none.db")[0] == 2
