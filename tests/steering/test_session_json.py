"""A session's steering decision prints the same JSON as ``ruleweave spec decide --json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleweave import RuleSet, RuleweaveConfig
from ruleweave.cli import main
from ruleweave.steering import DECISION_JSON_KEYS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "specs" / "web-research.skill.spec.yml"


def test_session_steer_to_json_is_the_cli_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """session.steer(...).to_json() equals spec decide --json for the same spec and input."""
    config = RuleweaveConfig(cwd=tmp_path, builtin_rules=False, skillspec=EXAMPLE)
    decision = RuleSet.load(config).session("s").steer("browse the changelog page")
    assert decision is not None
    assert tuple(decision.to_json()) == DECISION_JSON_KEYS
    assert main(["spec", "decide", str(EXAMPLE), "--input", "browse the changelog page", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == decision.to_json()
