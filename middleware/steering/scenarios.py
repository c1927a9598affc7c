"""Scenario tests: run each ``tests:`` entry through :func:`decide` and compare.

Expectation keys (SkillSpec v0):

- ``route``: the selected route;
- ``route_order`` and ``plan_phases``: equal, in order (checked when non-empty);
- ``plan_jumps``: each ``phase:when->to_phase`` is among the plan's jumps;
- for ``forbid``, ``elicit``, ``after_success`` and ``matched_rules``: the
  plain key lists items that must be present, ``<key>_exact`` the exact set
  (order ignored; ``[]`` asserts none), ``not_<key>`` items that must be absent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from ruleweave.steering.decision import Decision
from ruleweave.steering.evaluate import ExtensionPredicate, decide
from ruleweave.steering.facts import Heuristic
from ruleweave.steering.model import Expectation, SkillSpec

_LISTS: tuple[str, ...] = ("forbid", "elicit", "after_success", "matched_rules")


class TestResult(BaseModel):
    """One scenario's outcome.

    Attributes:
        name: The test name.
        input: The user text.
        passed: Whether every assertion held.
        failures: One sentence per failed assertion.
        decision: The decision the input produced.
    """

    __test__ = False  # not a pytest class
    model_config = ConfigDict(frozen=True)

    name: str
    input: str
    passed: bool
    failures: tuple[str, ...]
    decision: Decision


class TestReport(BaseModel):
    """Every scenario's outcome.

    Attributes:
        results: One result per test, in file order.
    """

    __test__ = False
    model_config = ConfigDict(frozen=True)

    results: tuple[TestResult, ...]

    @property
    def passed(self) -> int:
        """How many scenarios passed."""
        return sum(1 for result in self.results if result.passed)

    @property
    def failed(self) -> int:
        """How many scenarios failed."""
        return len(self.results) - self.passed

    def to_json(self) -> dict[str, Any]:
        """The report as ``ruleweave spec test --json`` prints it (docs/cli.md#json-output).

        Returns:
            ``{"tests": [{"name", "passed", "failures"}], "passed", "failed"}``.
        """
        return {
            "tests": [
                {"name": r.name, "passed": r.passed, "failures": list(r.failures)}
                for r in self.results
            ],
            "passed": self.passed,
            "failed": self.failed,
        }


def run_tests(
    spec: SkillSpec,
    *,
    predicates: Mapping[str, ExtensionPredicate] | None = None,
    heuristics: Mapping[str, Heuristic] | None = None,
) -> TestReport:
    """Run every scenario test of a spec.

    Args:
        spec: A validated document.
        predicates: Functions deciding ``x-`` predicates, by name.
        heuristics: Replacements for the keyword heuristics.

    Returns:
        The report.
    """
    results = []
    for test in spec.tests:
        decision = decide(spec, test.input, predicates=predicates, heuristics=heuristics)
        failures = compare(test.expect, decision)
        results.append(
            TestResult(
                name=test.name,
                input=test.input,
                passed=not failures,
                failures=failures,
                decision=decision,
            )
        )
    return TestReport(results=tuple(results))


def compare(expect: Expectation, decision: Decision) -> tuple[str, ...]:
    """Check one expectation against a decision.

    Args:
        expect: The assertions.
        decision: What the input produced.

    Returns:
        One sentence per failed assertion (empty when all hold).
    """
    failures: list[str] = []
    if expect.route is not None and decision.route != expect.route:
        failures.append(f"route: expected {expect.route!r}, got {decision.route!r}.")
    _ordered(failures, "route_order", expect.route_order, decision.route_order)
    _ordered(failures, "plan_phases", expect.plan_phases, decision.plan_phases)
    for jump in expect.plan_jumps:
        if jump not in decision.plan_jumps:
            failures.append(f"plan_jumps: expected {jump!r} among {_show(decision.plan_jumps)}.")
    actual: dict[str, tuple[str, ...]] = {
        "forbid": decision.forbid,
        "elicit": decision.elicit_ids,
        "after_success": decision.after_success,
        "matched_rules": decision.matched_rules,
    }
    for key in _LISTS:
        got = actual[key]
        for item in getattr(expect, key):
            if item not in got:
                failures.append(f"{key}: expected {item!r} among {_show(got)}.")
        exact: tuple[str, ...] | None = getattr(expect, f"{key}_exact")
        if exact is not None and set(exact) != set(got):
            failures.append(f"{key}_exact: expected {_show(sorted(set(exact)))}, got {_show(got)}.")
        for item in getattr(expect, f"not_{key}"):
            if item in got:
                failures.append(f"not_{key}: {item!r} should be absent but is present.")
    return tuple(failures)


def _ordered(failures: list[str], key: str, expected: Sequence[str], got: Sequence[str]) -> None:
    if expected and tuple(expected) != tuple(got):
        failures.append(f"{key}: expected {_show(expected)}, got {_show(got)}.")


def _show(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"
