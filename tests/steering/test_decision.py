"""The Decision data object and its JSON form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from ruleweave.steering import DECISION_JSON_KEYS, decide
from tests.steering.helpers import load

BODY = """\
rules:
  - id: browse
    when: {user_says_any: [browse]}
    prefer: browser
    forbid: [curl]
    allow: {native_search: url_discovery_only}
    elicit: [mode]
    after_success: [remember]
    reason: Read pages in the browser.
elicitations:
  mode:
    question: Which browser?
    choices:
      - {id: attach, label: Attach, description: Uses your sessions.}
      - {id: headless, label: Headless}
"""


def test_to_json_has_exactly_the_documented_keys(tmp_path: Path) -> None:
    """The JSON form has the keys of spec decide --json, in order, and serialises."""
    decision = decide(load(tmp_path, BODY), "browse the page")
    data = decision.to_json()
    assert tuple(data) == DECISION_JSON_KEYS
    assert data["route"] == "browser"
    assert data["elicit"] == [
        {
            "id": "mode",
            "question": "Which browser?",
            "choices": [
                {"id": "attach", "label": "Attach", "description": "Uses your sessions."},
                {"id": "headless", "label": "Headless", "description": None},
            ],
            "default": None,
        }
    ]
    assert data["reasons"] == [{"rule": "browse", "reason": "Read pages in the browser."}]
    assert data["plan"] is None
    json.dumps(data)


def test_decision_is_frozen(tmp_path: Path) -> None:
    """A decision cannot be changed after it is made."""
    decision = decide(load(tmp_path, BODY), "browse")
    with pytest.raises(ValidationError):
        decision.route = "local_cli"  # type: ignore[misc]


def test_reason_of_looks_up_a_matched_rule(tmp_path: Path) -> None:
    """reason_of returns a matched rule's reason and None otherwise."""
    decision = decide(load(tmp_path, BODY), "browse")
    assert decision.reason_of("browse") == "Read pages in the browser."
    assert decision.reason_of("ghost") is None


def test_allow_values_of_any_yaml_type_serialise(tmp_path: Path) -> None:
    """Dates and nested values in allow still produce JSON."""
    body = BODY.replace(
        "allow: {native_search: url_discovery_only}",
        "allow: {until: 2025-01-31, scopes: [read, list]}",
    )
    data = decide(load(tmp_path, body), "browse").to_json()
    assert json.loads(json.dumps(data))["allow"] == {
        "until": "2025-01-31",
        "scopes": ["read", "list"],
    }
