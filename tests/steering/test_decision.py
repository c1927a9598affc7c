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
closures:
  remember: {}
"""


def test_to_json_has_exactly_the_documented_keys(tmp_path: Path) -> None:
    """The JSON form has the keys of spec decide --json, in order, and serialises."""
    decision = decide(load(tmp_path, BODY), "browse the page")
    data = decision.to_json()
    assert tuple(data) == DECISION_JSON_KEYS
    assert data["input"] == "browse the page"
    assert data["route"] == "browser"
    assert data["elicit"] == ["mode"]
    assert data["after_success"] == ["remember"]
    assert data["reason"] == "Read pages in the browser."
    assert data["questions"] == [
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
    assert data["matched_rules"] == [{"id": "browse", "reason": "Read pages in the browser."}]
    assert data["execution_plan"] is None
    assert data["forbidden_by"] == {"curl": "browse"}
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


PLAN = """\
routes:
  - id: api
    label: API
    rank: 5
  - id: browser
    label: Browser
    execution_plan:
      phases:
        - id: open
          owner_skill: web
          jumps: [{when: login, to_phase: ask}]
        - id: ask
          owner_skill: web
          tool_boundary: {default: deny, allow: [browser]}
rules:
  - id: reorder
    when: {user_says_any: [page]}
    route_order: [browser, api]
    allow: {zeta: 1, alpha: [read]}
    reason: Pages first.
  - id: silent
    when: {user_says_any: [page]}
"""


def test_json_matches_the_reference_shape(tmp_path: Path) -> None:
    """The reference's fields, values and order: route_selection, the full plan, sorted allow, ids."""
    data = decide(load(tmp_path, PLAN, routes=False), "open the page").to_json()
    reference = {key: data[key] for key in list(data)[:11]}
    assert reference == {
        "input": "open the page",
        "route": "browser",
        "route_selection": {
            "route": "browser",
            "basis": "route_order_default",
            "rule_id": "reorder",
            "reason": "Pages first.",
        },
        "route_order": ["browser", "api"],
        "execution_plan": {
            "mode": "ordered",
            "phases": [
                {
                    "id": "open", "owner_skill": "web", "route": None, "description": None,
                    "requires": [], "checks": [], "forbid": [], "handoff": None,
                    "jumps": [{"when": "login", "to_phase": "ask", "reason": None}],
                    "tool_boundary": None,
                },
                {
                    "id": "ask", "owner_skill": "web", "route": None, "description": None,
                    "requires": [], "checks": [], "forbid": [], "handoff": None, "jumps": [],
                    "tool_boundary": {
                        "default": "deny", "allow": ["browser"], "forbid": [], "permission_required_for": [],
                    },
                },
            ],
            "reason": None,
        },
        "forbid": [],
        "allow": {"alpha": ["read"], "zeta": 1},
        "elicit": [],
        "after_success": [],
        "matched_rules": [{"id": "reorder", "reason": "Pages first."}, {"id": "silent", "reason": None}],
        "reason": "Pages first.",
    }
    assert list(data["allow"]) == ["alpha", "zeta"]


def test_default_route_selection(tmp_path: Path) -> None:
    """With no rule choosing, the lowest rank wins with the reference's default reason."""
    data = decide(load(tmp_path, PLAN, routes=False), "hello").to_json()
    assert data["route"] == "api"
    assert data["route_selection"] == {
        "route": "api",
        "basis": "default_route_order",
        "rule_id": None,
        "reason": "selected first route by rank/default order",
    }
    assert data["reason"] is None and data["matched_rules"] == []


def test_decision_survives_the_session_store_round_trip(tmp_path: Path) -> None:
    """model_dump_json / model_validate_json keep every field, so another process gets the same JSON."""
    from ruleweave.steering import Decision

    decision = decide(load(tmp_path, PLAN, routes=False), "open the page")
    again = Decision.model_validate_json(decision.model_dump_json())
    assert again == decision
    assert again.to_json() == decision.to_json()
