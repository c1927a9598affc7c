"""Decision traces on disk: the reference's files, trace.record and trace.required."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ruleweave.cli import main
from ruleweave.errors import ConfigError
from ruleweave.steering import decide, require_trace, write_trace
from tests.steering.helpers import load, write_spec

BODY = """\
rules:
  - id: browse
    when: {user_says_any: [browse]}
    prefer: browser
    forbid: [curl]
    allow: {native_search: url_discovery_only}
    reason: Pages are read in the browser.
  - id: other
    when: {user_says_any: [never]}
tests:
  - name: browse goes to the browser
    input: browse the docs
    expect: {route: browser}
  - name: plain input stays local
    input: list files
    expect: {route: local_cli}
"""

KINDS = [
    "input_received",
    "spec_loaded",
    "rule_evaluated",
    "rule_matched",
    "route_selected",
    "forbid_added",
    "allow_added",
    "rule_evaluated",
    "outcome_recorded",
]


def runs(root: Path) -> list[Path]:
    """The run folders under a trace root."""
    return sorted(p for p in root.iterdir() if p.is_dir())


def test_decide_writes_events_jsonl_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec decide --trace-dir writes one envelope file per event, trace.jsonl and summary.json."""
    path = write_spec(tmp_path, BODY)
    traces = tmp_path / "traces"
    assert main(["spec", "decide", str(path), "--input", "browse the docs", "--trace-dir", str(traces)]) == 0
    err = capsys.readouterr().err
    (run,) = runs(traces)
    assert run.name.startswith("run-")
    assert f"trace: wrote 9 event(s) to {run}" in err
    files = sorted(p.name for p in (run / "events").iterdir())
    assert files == [f"{seq:06d}.{kind}.json" for seq, kind in enumerate(KINDS, start=1)]
    first = json.loads((run / "events" / files[3]).read_text())
    assert list(first) == [
        "schema",
        "run_id",
        "seq",
        "timestamp_unix_ms",
        "skill_id",
        "spec_schema",
        "spec_fingerprint",
        "input_sha256",
        "event",
        "event_name",
        "data",
    ]
    assert first["schema"] == "skillspec.trace/v0" and first["run_id"] == run.name and first["seq"] == 4
    assert first["data"] == {
        "event": "rule_matched",
        "rule_id": "browse",
        "reason": "Pages are read in the browser.",
    }
    digest = hashlib.sha256(b"browse the docs").hexdigest()
    assert first["input_sha256"] == f"sha256:{digest}"
    lines = [json.loads(line) for line in (run / "trace.jsonl").read_text().splitlines()]
    assert [line["event"] for line in lines] == KINDS
    summary = json.loads((run / "summary.json").read_text())
    assert summary["event_count"] == 9 and summary["skill_id"] == "test.skill"
    assert list(summary["events"].items()) == [
        ("input_received", 1),
        ("spec_loaded", 1),
        ("rule_evaluated", 2),
        ("rule_matched", 1),
        ("route_selected", 1),
        ("forbid_added", 1),
        ("allow_added", 1),
        ("outcome_recorded", 1),
    ]


def test_event_payloads_have_the_reference_shape(tmp_path: Path) -> None:
    """Each event's data carries the reference's fields for its kind."""
    decision = decide(load(tmp_path, BODY), "browse the docs")
    payloads = {event.event: event.payload() for event in decision.trace}
    assert payloads["spec_loaded"] == {
        "event": "spec_loaded",
        "skill_id": "test.skill",
        "schema": "skillspec/v0",
    }
    assert payloads["route_selected"] == {
        "event": "route_selected",
        "route": "browser",
        "basis": "rule_prefer",
        "rule_id": "browse",
        "reason": "Pages are read in the browser.",
    }
    assert payloads["outcome_recorded"]["matched_rules"] == ["browse"]
    assert payloads["outcome_recorded"]["route_selection"]["basis"] == "rule_prefer"
    assert payloads["allow_added"] == {
        "event": "allow_added",
        "allow": {"native_search": "url_discovery_only"},
    }


def test_trace_record_selects_the_events_written(tmp_path: Path) -> None:
    """Only the kinds in trace.record are written, renumbered from 1."""
    spec = load(tmp_path, BODY + "trace: {mode: event_log, record: [rule_matched, outcome_recorded]}\n")
    written = write_trace(decide(spec, "browse it"), spec, tmp_path / "t", clock=lambda: 1781900000000)
    assert written.run_id == f"run-1781900000000-{__import__('os').getpid()}"
    names = sorted(p.name for p in (written.run_dir / "events").iterdir())
    assert names == ["000001.rule_matched.json", "000002.outcome_recorded.json"]
    assert written.event_count == 2


def test_trace_required_needs_a_trace_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With trace.required, spec decide without --trace-dir is a usage error (exit 2)."""
    path = write_spec(tmp_path, BODY + "trace: {mode: event_log, required: true}\n")
    assert main(["spec", "decide", str(path), "--input", "browse"]) == 2
    assert "trace.required" in capsys.readouterr().err
    assert main(["spec", "decide", str(path), "--input", "browse", "--trace-dir", str(tmp_path / "t")]) == 0
    spec = load(tmp_path, BODY + "trace: {mode: event_log, required: true}\n")
    with pytest.raises(ConfigError):
        require_trace(spec, None)
    require_trace(spec, tmp_path)


def test_spec_test_writes_one_run_per_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec test --trace-dir writes a run folder for each scenario, each a full trace."""
    path = write_spec(tmp_path, BODY)
    traces = tmp_path / "traces"
    assert main(["spec", "test", str(path), "--trace-dir", str(traces)]) == 0
    found = runs(traces)
    assert len(found) == 2
    inputs = set()
    for run in found:
        lines = [json.loads(line) for line in (run / "trace.jsonl").read_text().splitlines()]
        inputs.add(lines[0]["data"]["input"])
    assert inputs == {"browse the docs", "list files"}
    capsys.readouterr()


def test_an_unwritable_trace_dir_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A trace directory that is a file cannot hold runs: exit 2 with a sentence."""
    path = write_spec(tmp_path, BODY)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["spec", "decide", str(path), "--input", "x", "--trace-dir", str(blocker)]) == 2
    assert "Cannot write the trace" in capsys.readouterr().err
