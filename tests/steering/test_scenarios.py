"""Scenario tests: every expect key, passing and failing."""

from __future__ import annotations

from pathlib import Path

from ruleweave.steering import run_tests
from tests.steering.helpers import load

RULES = """\
routes:
  - id: local_cli
    label: Local
    rank: 1
  - id: browser
    label: Browser
    rank: 2
    execution_plan:
      phases:
        - id: open
          owner_skill: s
          jumps: [{when: login, to_phase: ask}]
        - id: ask
          owner_skill: s
rules:
  - id: browse
    when: {user_says_any: [browse]}
    prefer: browser
    route_order: [browser, local_cli]
    forbid: [curl, raw_playwright]
    elicit: [mode]
    after_success: [remember]
elicitations:
  mode:
    question: Which?
    choices: [{id: a, label: A}]
closures: {remember: {}, share: {}}
"""


def run(tmp_path: Path, expect: str) -> tuple[bool, tuple[str, ...]]:
    """Run one scenario with input 'browse it' and the given expect body."""
    indented = "\n".join("      " + line for line in expect.strip().splitlines())
    body = RULES + f"tests:\n  - name: t\n    input: browse it\n    expect:\n{indented}\n"
    result = run_tests(load(tmp_path, body, routes=False)).results[0]
    return result.passed, result.failures


PASSING = [
    "route: browser",
    "route_order: [browser, local_cli]",
    "plan_phases: [open, ask]",
    'plan_jumps: ["open:login->ask"]',
    "forbid: [curl]",
    "forbid_exact: [raw_playwright, curl]",
    "not_forbid: [native_search_as_answer]",
    "elicit: [mode]",
    "elicit_exact: [mode]",
    "after_success: [remember]",
    "after_success_exact: [remember]",
    "not_after_success: [share]",
    "matched_rules: [browse]",
    "matched_rules_exact: [browse]",
]

FAILING = {
    "route: local_cli": "route: expected 'local_cli', got 'browser'.",
    "route_order: [local_cli, browser]": (
        "route_order: expected [local_cli, browser], got [browser, local_cli]."
    ),
    "plan_phases: [ask, open]": "plan_phases: expected [ask, open], got [open, ask].",
    'plan_jumps: ["open:timeout->ask"]': (
        "plan_jumps: expected 'open:timeout->ask' among [open:login->ask]."
    ),
    "forbid: [wget]": "forbid: expected 'wget' among [curl, raw_playwright].",
    "forbid_exact: [curl]": "forbid_exact: expected [curl], got [curl, raw_playwright].",
    "not_forbid: [curl]": "not_forbid: 'curl' should be absent but is present.",
    "elicit_exact: []": "elicit_exact: expected [], got [mode].",
    "not_elicit: [mode]": "not_elicit: 'mode' should be absent but is present.",
    "after_success: [share]": "after_success: expected 'share' among [remember].",
    "after_success_exact: []": "after_success_exact: expected [], got [remember].",
    "not_after_success: [remember]": (
        "not_after_success: 'remember' should be absent but is present."
    ),
    "matched_rules_exact: []": "matched_rules_exact: expected [], got [browse].",
    "not_matched_rules: [browse]": "not_matched_rules: 'browse' should be absent but is present.",
}


def test_every_expect_key_passes_when_it_holds(tmp_path: Path) -> None:
    """Each assertion kind passes on a decision that satisfies it."""
    for index, expect in enumerate(PASSING):
        folder = tmp_path / str(index)
        folder.mkdir()
        assert run(folder, expect) == (True, ()), expect


def test_every_expect_key_fails_with_a_sentence(tmp_path: Path) -> None:
    """Each assertion kind fails with one readable sentence when it does not hold."""
    for index, (expect, failure) in enumerate(FAILING.items()):
        folder = tmp_path / str(index)
        folder.mkdir()
        assert run(folder, expect) == (False, (failure,)), expect


def test_all_failures_of_a_test_are_reported(tmp_path: Path) -> None:
    """Several failing assertions in one test each produce a failure."""
    passed, failures = run(tmp_path, "route: local_cli\nforbid: [wget]\nnot_elicit: [mode]")
    assert not passed
    assert len(failures) == 3


def test_report_json_matches_the_cli_contract(tmp_path: Path) -> None:
    """The report JSON has tests with name/passed/failures and the two counts."""
    body = RULES + (
        "tests:\n"
        "  - {name: ok, input: browse it, expect: {route: browser}}\n"
        "  - {name: bad, input: hello, expect: {route: browser}}\n"
    )
    report = run_tests(load(tmp_path, body, routes=False))
    assert report.to_json() == {
        "tests": [
            {"name": "ok", "passed": True, "failures": []},
            {
                "name": "bad",
                "passed": False,
                "failures": ["route: expected 'browser', got 'local_cli'."],
            },
        ],
        "passed": 1,
        "failed": 1,
    }
    assert report.results[1].decision.route == "local_cli"
