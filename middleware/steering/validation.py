"""Cross-reference checks of a SkillSpec document: the reference's verdicts, every problem listed.

Run on the parsed YAML (not the models) so that reference problems are listed
together with shape problems; items of the wrong shape are skipped here (the
models report them). The reference implementation stops at its first
problem; ruleweave lists them all, each with its line.

Checked here (the steering core):

- identifiers (``[a-z][a-z0-9_.-]*``) of the skill, routes, rules,
  elicitations, choices and ``required_when.missing``; duplicate route, rule
  and choice ids; the header fields are not blank;
- ``prefer`` and ``route_order`` name routes; ``elicit`` names elicitations;
  ``after_success`` names a command, recipe, code block or closure (checked
  always, as the reference does: with none declared, any entry is unknown);
- an elicitation has a question and choices, each choice a label; its
  ``default`` is one of them; choice and ``required_when`` routes exist;
  choice ``next`` names a state;
- every scenario test has at least one assertion, and the routes,
  elicitations, actions and rules it names exist.

ruleweave's own checks, beyond the reference: duplicate phase ids and test
names, a phase's route exists, plan jumps go to a phase of the same plan.
The other sections are checked by :mod:`ruleweave.steering.crossrefs`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ruleweave.steering.issue import SpecIssue
from ruleweave.steering.shapes import SHAPES
from ruleweave.steering.source import SourceMap, YamlPath, describe
from ruleweave.steering.yamldoc import scalar_text

IDENTIFIER = re.compile(r"[a-z][a-z0-9_.\-]*")
"""SkillSpec identifiers: a lowercase letter, then lowercase letters, digits, ``_ - .``."""

ACTION_SECTIONS: tuple[str, ...] = ("commands", "recipes", "code", "closures")
"""Top-level sections whose keys ``after_success`` may reference."""

# Expectation's fields, from the grammar's table: these checks run on ``spec decide``'s first call,
# which builds no pydantic model.
_ASSERTIONS = frozenset(field[0] for field in SHAPES["Expectation"]["fields"])


def text(value: Any) -> str | None:
    """A scalar as text (numbers read as their source text), else None."""
    value = scalar_text(value)
    return value if isinstance(value, str) else None


def items(data: Any, key: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(index, item)`` for each mapping item of the list ``data[key]``."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield index, item


def table(data: Any, key: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(id, entry)`` for each mapping entry of the mapping ``data[key]``."""
    value = data.get(key) if isinstance(data, dict) else None
    if isinstance(value, dict):
        for name, entry in value.items():
            if isinstance(entry, dict):
                yield str(name), entry


def keys(data: Any, *sections: str) -> set[str]:
    """The keys of the mapping sections ``data[section]``, together."""
    found: set[str] = set()
    for section in sections:
        value = data.get(section) if isinstance(data, dict) else None
        if isinstance(value, dict):
            found.update(str(name) for name in value)
    return found


class Checker:
    """One pass over a document, collecting issues.

    Args:
        data: The parsed document.
        source: Lines of the document.
    """

    def __init__(self, data: dict[str, Any], source: SourceMap) -> None:
        self.data = data
        self.source = source
        self.issues: list[SpecIssue] = []
        self.routes = {i for _, r in items(data, "routes") if (i := text(r.get("id"))) is not None}
        self.rules = {i for _, r in items(data, "rules") if (i := text(r.get("id"))) is not None}
        self.elicitations = keys(data, "elicitations")
        self.actions = keys(data, *ACTION_SECTIONS)
        self.states = keys(data, "states")

    def add(self, path: YamlPath, reason: str) -> None:
        """Record a problem at ``path``."""
        self.issues.append(self.source.issue(path, reason))

    def where(self, path: YamlPath) -> str:
        """A readable name for ``path``."""
        return describe(path, self.data)

    def run(self) -> None:
        """Check the header, routes, rules, elicitations and tests."""
        for key in ("schema", "id", "title", "description"):
            value = text(self.data.get(key))
            if value is not None and not value.strip():
                self.add((key,), f"The top-level {key!r} must not be empty.")
        self.identifier(("id",), self.data.get("id"), "skill id")
        self.check_routes()
        self.check_rules()
        self.check_elicitations()
        self.check_tests()

    def identifier(self, path: YamlPath, value: Any, what: str) -> None:
        """Flag ``value`` when it is text but not a SkillSpec identifier."""
        value = text(value)
        if value is not None and not IDENTIFIER.fullmatch(value) and (value.strip() or what != "skill id"):
            self.add(
                path,
                f"The {what} {value!r} is not a SkillSpec identifier "
                "(a lowercase letter, then lowercase letters, digits, '_', '-' or '.').",
            )

    def unique(self, path: YamlPath, value: Any, seen: dict[str, int], what: str) -> None:
        """Flag a repeated ``value``."""
        value = text(value)
        if value is None:
            return
        if value in seen:
            self.add(path, f"Duplicate {what} {value!r} (first declared on line {seen[value]}).")
        else:
            seen[value] = self.source.line(path)

    def blank(self, path: YamlPath, value: Any, what: str, *, strip: bool = True) -> None:
        """Flag text that is empty (or only spaces, with ``strip``)."""
        value = text(value)
        if value is not None and not (value.strip() if strip else value):
            self.add(path, f"The {what} must not be empty.")

    def known(self, path: YamlPath, value: Any, ids: Iterable[str], what: str) -> None:
        """Flag ``value`` when it is text that is not one of ``ids``."""
        value = text(value)
        ids = set(ids)
        if value is None or value in ids:
            return
        have = ", ".join(sorted(ids)) or "none"
        field = path[:-1] if isinstance(path[-1], int) else path
        self.add(
            path,
            f"The field {self.where(field)} names an unknown {what} {value!r} (declared: {have}).",
        )

    def known_all(self, path: YamlPath, values: Any, ids: Iterable[str], what: str) -> None:
        """:meth:`known` for each item of a list."""
        if isinstance(values, list):
            ids = set(ids)
            for index, value in enumerate(values):
                self.known((*path, index), value, ids, what)

    def check_routes(self) -> None:
        seen: dict[str, int] = {}
        for index, route in items(self.data, "routes"):
            path: YamlPath = ("routes", index)
            self.identifier((*path, "id"), route.get("id"), "route id")
            self.unique((*path, "id"), route.get("id"), seen, "route id")
            plan = route.get("execution_plan")
            if isinstance(plan, dict):
                self.check_plan((*path, "execution_plan"), plan)

    def check_plan(self, path: YamlPath, plan: dict[str, Any]) -> None:
        phases = list(items(plan, "phases"))
        ids = {i for _, p in phases if (i := text(p.get("id"))) is not None}
        seen: dict[str, int] = {}
        for index, phase in phases:
            at: YamlPath = (*path, "phases", index)
            self.unique((*at, "id"), phase.get("id"), seen, "phase id")
            self.known((*at, "route"), phase.get("route"), self.routes, "route")
            for j, jump in items(phase, "jumps"):
                self.known((*at, "jumps", j, "to_phase"), jump.get("to_phase"), ids, "phase")

    def check_rules(self) -> None:
        seen: dict[str, int] = {}
        for index, rule in items(self.data, "rules"):
            path: YamlPath = ("rules", index)
            self.identifier((*path, "id"), rule.get("id"), "rule id")
            self.unique((*path, "id"), rule.get("id"), seen, "rule id")
            self.known((*path, "prefer"), rule.get("prefer"), self.routes, "route")
            self.known_all((*path, "route_order"), rule.get("route_order"), self.routes, "route")
            self.known_all((*path, "elicit"), rule.get("elicit"), self.elicitations, "elicitation")
            self.known_all(
                (*path, "after_success"), rule.get("after_success"), self.actions, "command or closure"
            )

    def check_elicitations(self) -> None:
        for key, item in table(self.data, "elicitations"):
            path: YamlPath = ("elicitations", key)
            self.identifier(path, key, "elicitation id")
            question = text(item.get("question"))
            if question is not None and not question.strip():
                self.add((*path, "question"), f"Elicitation {key!r} has an empty question.")
            if item.get("choices") == []:
                self.add((*path, "choices"), f"Elicitation {key!r} declares no choices.")
            seen: dict[str, int] = {}
            for index, choice in items(item, "choices"):
                at: YamlPath = (*path, "choices", index)
                self.identifier((*at, "id"), choice.get("id"), "choice id")
                self.unique((*at, "id"), choice.get("id"), seen, "choice id")
                self.blank((*at, "label"), choice.get("label"), f"label of choice {text(choice.get('id'))!r}")
                self.known((*at, "route"), choice.get("route"), self.routes, "route")
                self.known((*at, "next"), choice.get("next"), self.states, "state")
            default = text(item.get("default"))
            if default is not None and default not in seen:
                choices = ", ".join(seen) or "none"
                self.add(
                    (*path, "default"),
                    f"The default {default!r} of elicitation {key!r} is not one of its choices ({choices}).",
                )
            for index, condition in items(item, "required_when"):
                at = (*path, "required_when", index)
                self.known((*at, "route"), condition.get("route"), self.routes, "route")
                self.identifier((*at, "missing"), condition.get("missing"), "missing fact")

    def check_tests(self) -> None:
        seen: dict[str, int] = {}
        for index, test in items(self.data, "tests"):
            path: YamlPath = ("tests", index)
            self.unique((*path, "name"), test.get("name"), seen, "test name")
            expect = test.get("expect")
            empty = expect is None or (isinstance(expect, dict) and not _asserts(expect))
            if "expect" in test and empty:
                name = text(test.get("name")) or f"#{index + 1}"
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
