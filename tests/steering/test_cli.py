"""``ruleweave spec validate|test|decide``: output and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave.cli import main
from tests.steering.helpers import write_spec

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "specs"

VALID = """\
rules:
  - id: browse
    when: {user_says_any: [browse]}
    prefer: browser
    forbid: [curl]
    reason: Pages are read in the browser.
tests:
  - name: browse goes to the browser
    input: browse the docs
    expect: {route: browser, forbid_exact: [curl]}
"""


def test_every_shipped_example_passes_spec_test(capsys: pytest.CaptureFixture[str]) -> None:
    """Each example under examples/specs validates and all its scenario tests pass."""
    examples = sorted(EXAMPLES.glob("*.skill.spec.yml"))
    assert len(examples) >= 3
    for path in examples:
        assert main(["spec", "validate", str(path)]) == 0, path
        assert main(["spec", "test", str(path), "--json"]) == 0, path
        report = json.loads(capsys.readouterr().out.split("\n", 1)[1])
        assert report["failed"] == 0 and report["passed"] >= 3, path


def test_validate_valid_file_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A valid document exits 0 and says so."""
    path = write_spec(tmp_path, VALID)
    assert main(["spec", "validate", str(path)]) == 0
    assert "valid skillspec/v0 document 'test.skill'" in capsys.readouterr().out


def test_validate_invalid_file_exits_1_listing_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An invalid document exits 1 and prints every problem with file and line."""
    path = write_spec(
        tmp_path, VALID.replace("prefer: browser", "preferr: browser\n    elicit: [x]")
    )
    assert main(["spec", "validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:15: Unknown field 'preferr'" in out
    assert "unknown elicitation 'x'" in out
    assert "invalid (2 problems)" in out


def test_validate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json gives valid and the errors with file, line and reason."""
    path = write_spec(tmp_path, "rules:\n  - id: r\n    when: {nope: true}\n")
    assert main(["spec", "validate", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False
    assert data["errors"][0]["line"] == 14
    assert set(data["errors"][0]) == {"file", "line", "reason"}


def test_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file is a usage error for every action."""
    missing = str(tmp_path / "nope.yml")
    assert main(["spec", "validate", missing]) == 2
    assert main(["spec", "test", missing]) == 2
    assert main(["spec", "decide", missing, "--input", "x"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_test_json_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec test --json follows docs/cli.md#json-output and exits 1 when a scenario fails."""
    path = write_spec(tmp_path, VALID)
    assert main(["spec", "test", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "tests": [{"name": "browse goes to the browser", "passed": True, "failures": []}],
        "passed": 1,
        "failed": 0,
    }
    failing = write_spec(
        tmp_path, VALID.replace("route: browser", "route: local_cli"), name="f.yml"
    )
    assert main(["spec", "test", str(failing)]) == 1
    out = capsys.readouterr().out
    assert "FAIL browse goes to the browser" in out
    assert "route: expected 'local_cli', got 'browser'." in out


def test_test_on_invalid_spec_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Scenario tests of an invalid document do not run; the errors are shown."""
    path = write_spec(tmp_path, VALID.replace("prefer: browser", "prefer: api"))
    assert main(["spec", "test", str(path)]) == 1
    assert "unknown route 'api'" in capsys.readouterr().err


def test_test_json_on_invalid_spec_keeps_the_design_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """spec test --json on an invalid document prints only the §12 keys; the errors go to stderr."""
    path = write_spec(tmp_path, VALID.replace("prefer: browser", "prefer: api"))
    assert main(["spec", "test", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"tests": [], "passed": 0, "failed": 0}
    assert "unknown route 'api'" in captured.err


def test_decide_json_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec decide --json prints the reference's keys in its order, then ruleweave's additions."""
    path = write_spec(tmp_path, VALID)
    assert main(["spec", "decide", str(path), "--input", "browse the docs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == [
        "input",
        "route",
        "route_selection",
        "route_order",
        "execution_plan",
        "forbid",
        "allow",
        "elicit",
        "after_success",
        "matched_rules",
        "reason",
        "skill",
        "questions",
        "facts",
        "forbidden_by",
    ]
    assert data["route"] == "browser"
    assert data["route_selection"] == {
        "route": "browser",
        "basis": "rule_prefer",
        "rule_id": "browse",
        "reason": "Pages are read in the browser.",
    }
    assert data["matched_rules"] == [{"id": "browse", "reason": "Pages are read in the browser."}]


def test_decide_text_prints_the_steering_block(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --json the decision is shown as the steering block."""
    path = write_spec(tmp_path, VALID)
    assert main(["spec", "decide", str(path), "--input", "browse"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<steering>")
    assert "Do not substitute: curl." in out


def test_decide_facts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--fact NAME=true feeds task facts; a bad value or name is a usage error."""
    body = "rules:\n  - id: r\n    when: {task_recurrence_likely: true}\n    prefer: browser\n"
    path = write_spec(tmp_path, body)
    args = ["spec", "decide", str(path), "--input", "hello", "--json"]
    assert main([*args, "--fact", "task_recurrence_likely=true"]) == 0
    assert json.loads(capsys.readouterr().out)["route"] == "browser"
    assert main([*args, "--fact", "task_recurrence_likely=false"]) == 0
    assert json.loads(capsys.readouterr().out)["route"] == "local_cli"
    assert main([*args, "--fact", "task_recurrence_likely=maybe"]) == 2
    assert main([*args, "--fact", "sounds_urgent=true"]) == 2


def test_decide_on_invalid_spec_exits_1(tmp_path: Path) -> None:
    """An invalid document cannot decide."""
    path = write_spec(tmp_path, "rules:\n  - id: r\n    when: {nope: true}\n")
    assert main(["spec", "decide", str(path), "--input", "x"]) == 1


def test_relative_file_resolves_against_cwd(tmp_path: Path) -> None:
    """FILE is read relative to --cwd."""
    write_spec(tmp_path, VALID)
    assert main(["spec", "validate", "skill.spec.yml", "--cwd", str(tmp_path)]) == 0


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("needs_login=maybe", "--fact needs_login=maybe: the value must be true or false."),
        ("bogus", "--fact bogus: unknown fact; use one of "),
    ],
)
def test_a_wrong_fact_is_a_usage_error_on_either_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fact: str, said: str
) -> None:
    """A wrong ``--fact`` exits 2 with one sentence, before and after the spec's compiled form is kept
    (the warm path leaves such a call to the command)."""
    path = write_spec(tmp_path, VALID)
    for _ in range(2):
        assert main(["spec", "decide", str(path), "--input", "browse", "--fact", fact]) == 2
        assert said in capsys.readouterr().err
        assert main(["spec", "decide", str(path), "--input", "browse"]) == 0
