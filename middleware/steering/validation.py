"""Cross-reference checks of a SkillSpec document (the grammar's reference rules).

Run on the parsed YAML (not the models) so that reference problems are listed
together with shape problems. Items of the wrong shape are skipped here: the
models report them.

Checked:

- identifiers (``[a-z][a-z0-9_.-]*``) of the skill, routes, rules,
  elicitations and choices; duplicate route, rule, phase, choice and test ids;
- ``prefer`` and ``route_order`` name routes; ``elicit`` names elicitations;
  ``after_success`` names a command, recipe, code block or closure when the
  document declares any of those sections;
- an elicitation has a question and choices, and its ``default`` is one of
  them; choice and ``required_when`` routes exist; choice ``next`` names a
  state when ``states`` is declared;
- plan jumps go to a phase of the same plan; a phase's route exists;
- every scenario test has at least one assertion, and the routes,
  elicitations, actions and rules it names exist.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ruleweave.errors import SpecIssue
from ruleweave.steering.model import ACTION_SECTIONS, Expectation
from ruleweave.steering.source import SourceMap, YamlPath, describe

IDENTIFIER = re.compile(r"[a-z][a-z0-9_.\-]*")
"""SkillSpec identifiers: a lowercase letter, then lowercase letters, digits, ``_ - .``."""

_ASSERTIONS = frozenset(Expectation.model_fields)


def check_references(data: dict[str, Any], source: SourceMap) -> list[SpecIssue]:
    """Every identifier, duplicate and reference problem in a parsed document.

    Args:
        data: The parsed YAML mapping.
        source: Lines of the document, for locating problems.

    Returns:
        The problems found, in document order.
    """
    checker = _Checker(data, source)
    checker.run()
    return checker.issues


class _Checker:
    """One pass over a document, collecting issues."""

    def __init__(self, data: dict[str, Any], source: SourceMap) -> None:
        self.data = data
        self.source = source
        self.issues: list[SpecIssue] = []
        self.routes = {r["id"] for _, r in _items(data, "routes") if isinstance(r.get("id"), str)}
        self.rules = {r["id"] for _, r in _items(data, "rules") if isinstance(r.get("id"), str)}
        elicitations = data.get("elicitations")
        self.elicitations = set(elicitations) if isinstance(elicitations, dict) else set()
        tables = [data[k] for k in ACTION_SECTIONS if k in data]
        self.actions: set[str] | None = None
        if tables:
            self.actions = {str(key) for t in tables if isinstance(t, dict) for key in t}
        states = data.get("states")
        self.states = {str(k) for k in states} if isinstance(states, dict) else None

    def add(self, path: YamlPath, reason: str) -> None:
        self.issues.append(self.source.issue(path, reason))

    def where(self, path: YamlPath) -> str:
        return describe(path, self.data)

    def run(self) -> None:
        for key in ("schema", "id", "title", "description"):
            value = self.data.get(key)
            if isinstance(value, str) and not value.strip():
                self.add((key,), f"The top-level {key!r} must not be empty.")
        self.identifier(("id",), self.data.get("id"), "skill id")
        self.check_routes()
        self.check_rules()
        self.check_elicitations()
        self.check_tests()

    def identifier(self, path: YamlPath, value: Any, what: str) -> None:
        if isinstance(value, str) and value.strip() and not IDENTIFIER.fullmatch(value):
            self.add(
                path,
                f"The {what} {value!r} is not a SkillSpec identifier "
                "(a lowercase letter, then lowercase letters, digits, '_', '-' or '.').",
            )

    def unique(self, path: YamlPath, value: Any, seen: dict[str, int], what: str) -> None:
        if not isinstance(value, str):
            return
        if value in seen:
            first = seen[value]
            self.add(path, f"Duplicate {what} {value!r} (first declared on line {first}).")
        else:
            seen[value] = self.source.line(path)

    def known(self, path: YamlPath, value: Any, ids: set[str] | None, what: str) -> None:
        if ids is None or not isinstance(value, str) or value in ids:
            return
        have = ", ".join(sorted(ids)) or "none"
        field = path[:-1] if isinstance(path[-1], int) else path
        self.add(
            path,
            f"The field {self.where(field)} names an unknown {what} {value!r} (declared: {have}).",
        )

    def known_all(self, path: YamlPath, values: Any, ids: set[str] | None, what: str) -> None:
        if isinstance(values, list):
            for index, value in enumerate(values):
                self.known((*path, index), value, ids, what)

    def check_routes(self) -> None:
        seen: dict[str, int] = {}
        for index, route in _items(self.data, "routes"):
            path: YamlPath = ("routes", index)
            self.identifier((*path, "id"), route.get("id"), "route id")
            self.unique((*path, "id"), route.get("id"), seen, "route id")
            plan = route.get("execution_plan")
            if isinstance(plan, dict):
                self.check_plan((*path, "execution_plan"), plan)

    def check_plan(self, path: YamlPath, plan: dict[str, Any]) -> None:
        phases = [(i, p) for i, p in _items(plan, "phases")]
        ids = {p["id"] for _, p in phases if isinstance(p.get("id"), str)}
        seen: dict[str, int] = {}
        for index, phase in phases:
            at: YamlPath = (*path, "phases", index)
            self.unique((*at, "id"), phase.get("id"), seen, "phase id")
            self.known((*at, "route"), phase.get("route"), self.routes, "route")
            for j, jump in _items(phase, "jumps"):
                self.known((*at, "jumps", j, "to_phase"), jump.get("to_phase"), ids, "phase")

    def check_rules(self) -> None:
        seen: dict[str, int] = {}
        for index, rule in _items(self.data, "rules"):
            path: YamlPath = ("rules", index)
            self.identifier((*path, "id"), rule.get("id"), "rule id")
            self.unique((*path, "id"), rule.get("id"), seen, "rule id")
            self.known((*path, "prefer"), rule.get("prefer"), self.routes, "route")
            self.known_all((*path, "route_order"), rule.get("route_order"), self.routes, "route")
            self.known_all((*path, "elicit"), rule.get("elicit"), self.elicitations, "elicitation")
            self.known_all(
                (*path, "after_success"),
                rule.get("after_success"),
                self.actions,
                "command or closure",
            )

    def check_elicitations(self) -> None:
        table = self.data.get("elicitations")
        if not isinstance(table, dict):
            return
        for key, item in table.items():
            path: YamlPath = ("elicitations", str(key))
            self.identifier(path, key, "elicitation id")
            if not isinstance(item, dict):
                continue
            question = item.get("question")
            if isinstance(question, str) and not question.strip():
                self.add((*path, "question"), f"Elicitation {key!r} has an empty question.")
            if item.get("choices") == []:
                self.add((*path, "choices"), f"Elicitation {key!r} declares no choices.")
            seen: dict[str, int] = {}
            for index, choice in _items(item, "choices"):
                at: YamlPath = (*path, "choices", index)
                self.identifier((*at, "id"), choice.get("id"), "choice id")
                self.unique((*at, "id"), choice.get("id"), seen, "choice id")
                self.known((*at, "route"), choice.get("route"), self.routes, "route")
                self.known((*at, "next"), choice.get("next"), self.states, "state")
            default = item.get("default")
            if isinstance(default, str) and seen and default not in seen:
                choices = ", ".join(seen)
                self.add(
                    (*path, "default"),
                    f"The default {default!r} of elicitation {key!r} "
                    f"is not one of its choices ({choices}).",
                )
            for index, condition in _items(item, "required_when"):
                at = (*path, "required_when", index, "route")
                self.known(at, condition.get("route"), self.routes, "route")

    def check_tests(self) -> None:
        seen: dict[str, int] = {}
        for index, test in _items(self.data, "tests"):
            path: YamlPath = ("tests", index)
            self.unique((*path, "name"), test.get("name"), seen, "test name")
            expect = test.get("expect")
            empty = expect is None or (isinstance(expect, dict) and not _asserts(expect))
            if "expect" in test and empty:
                name = test.get("name", f"#{index + 1}")
                self.add(
                    (*path, "expect"),
                    f"Test {name!r} has an empty expect; add at least one assertion.",
                )
            if not isinstance(expect, dict):
                continue
            at: YamlPath = (*path, "expect")
            self.known((*at, "route"), expect.get("route"), self.routes, "route")
            self.known_all((*at, "route_order"), expect.get("route_order"), self.routes, "route")
            for key in ("elicit", "elicit_exact", "not_elicit"):
                self.known_all((*at, key), expect.get(key), self.elicitations, "elicitation")
            for key in ("after_success", "after_success_exact", "not_after_success"):
                self.known_all((*at, key), expect.get(key), self.actions, "command or closure")
            for key in ("matched_rules", "matched_rules_exact", "not_matched_rules"):
                self.known_all((*at, key), expect.get(key), self.rules, "rule")


def _asserts(expect: dict[str, Any]) -> bool:
    """Whether an ``expect`` mapping holds at least one assertion."""
    for key, value in expect.items():
        if key not in _ASSERTIONS:
            return True  # an unknown key: the model reports it
        if value not in (None, [], "") or (key.endswith("_exact") and value is not None):
            return True
    return False


def _items(data: Any, key: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(index, item)`` for each mapping item of the list ``data[key]``."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item
