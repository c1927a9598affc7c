"""Turn a user's text into a :class:`Decision` (the SkillSpec v0 rule algebra).

Rules are evaluated once each, in file order. A rule matches when it has at
least one predicate and every predicate present matches (AND; inside
``user_says_any`` any phrase will do). For each matching rule:

- ``prefer`` sets the route (a later match overrides an earlier one);
- ``route_order`` replaces the route order;
- ``forbid``, ``elicit`` and ``after_success`` are appended, and de-duplicated
  at the end keeping the first occurrence;
- ``allow`` is merged into the allow map (a later key wins);
- ``reason`` is recorded; the rule joins ``matched_rules``.

The order starts as the routes sorted by ``rank`` (a missing rank last, ties
in file order). When no matching rule has ``prefer``, the route is the first
of the final order: the lowest-rank route, or the head of an order a rule
set (as the reference implementation does). The decision's ``reason`` is the
last matched rule's reason, and each event is recorded with the reference's
payload (see :class:`~ruleweave.steering.decision.TraceEvent`). An ``x-`` predicate is decided
by the caller's function for that name, else by a boolean ``x-`` fact the
caller passed; with neither it is false, never silently true.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ruleweave.errors import ConfigError
from ruleweave.steering.decision import (
    DEFAULT_ROUTE_REASON,
    ChoiceView,
    Decision,
    ElicitRequest,
    RouteSelection,
    RuleReason,
    TraceEvent,
)
from ruleweave.steering.facts import FactBook, Heuristic, says_any
from ruleweave.steering.model import TASK_FACTS, Predicate, SkillSpec, SpecRule

_MISSING_RANK = 2**63 - 1  # the reference sorts a missing rank as i64::MAX

ExtensionPredicate = Callable[[str, Any], bool]
"""Decides an ``x-`` predicate: called with the user's text and the value the
rule declares for it; the predicate matches when it returns True."""


def default_route_order(spec: SkillSpec) -> tuple[str, ...]:
    """Route ids sorted by rank; a missing rank sorts last, ties keep file order.

    Args:
        spec: The document.

    Returns:
        The route ids.
    """
    ranked = sorted(spec.routes, key=lambda r: _MISSING_RANK if r.rank is None else r.rank)
    return tuple(route.id for route in ranked)


def decide(
    spec: SkillSpec,
    user_text: str,
    facts: Mapping[str, bool] | None = None,
    *,
    predicates: Mapping[str, ExtensionPredicate] | None = None,
    heuristics: Mapping[str, Heuristic] | None = None,
) -> Decision:
    """Evaluate the spec's rules against one user turn.

    Args:
        spec: A validated document.
        user_text: What the user said.
        facts: Task facts the caller knows (they win over heuristics), and
            optionally boolean ``x-`` facts for ``x-`` predicates.
        predicates: Functions deciding ``x-`` predicates, by name.
        heuristics: Replacements for the keyword heuristics, by task fact.

    Returns:
        The decision, with its trace.

    Raises:
        ConfigError: An unknown fact, heuristic or predicate name, or a
            non-boolean fact.
    """
    for name in predicates or {}:
        if not name.startswith("x-"):
            raise ConfigError(f"Predicate functions are for x- predicates only, not {name!r}.")
    book = FactBook(user_text, facts, heuristics)
    state = _State(spec, user_text)
    for rule in spec.rules:
        matched, checks = _match(rule.when, user_text, book, predicates or {})
        state.trace.append(
            TraceEvent(
                event="rule_evaluated",
                rule=rule.id,
                data={"rule_id": rule.id, "matched": matched},
                detail={"checks": checks},
            )
        )
        if matched:
            state.apply(rule)
    return state.finish(book)


def _match(
    when: Predicate,
    text: str,
    book: FactBook,
    predicates: Mapping[str, ExtensionPredicate],
) -> tuple[bool, dict[str, Any]]:
    """Whether a predicate matches, and each check made (stopping at the first miss)."""
    checks: dict[str, Any] = {}
    if when.is_empty():
        return False, checks
    if when.user_says_any:
        phrase = says_any(text, when.user_says_any)
        checks["user_says_any"] = phrase
        if phrase is None:
            return False, checks
    if when.user_says_all_groups:
        hits = [says_any(text, group) for group in when.user_says_all_groups]
        checks["user_says_all_groups"] = hits
        if any(hit is None for hit in hits):
            return False, checks
    for name in TASK_FACTS:
        expected = getattr(when, name)
        if expected is None:
            continue
        fact = book.get(name)
        value = fact.value if fact is not None else False
        checks[name] = {
            "expected": expected,
            "value": value,
            "source": fact.source if fact else None,
        }
        if value != expected:
            return False, checks
    for name, declared in when.extensions.items():
        result = _extension(name, declared, text, book, predicates)
        checks[name] = result
        if not result:
            return False, checks
    return True, checks


def _extension(
    name: str,
    declared: Any,
    text: str,
    book: FactBook,
    predicates: Mapping[str, ExtensionPredicate],
) -> bool:
    function = predicates.get(name)
    if function is not None:
        return function(text, declared) is True
    fact = book.get(name)
    return fact is not None and isinstance(declared, bool) and fact.value == declared


class _State:
    """The decision being built while rules are applied."""

    def __init__(self, spec: SkillSpec, text: str) -> None:
        self.spec = spec
        self.text = text
        self.route: str | None = None
        self.selection: RouteSelection | None = None
        self.order = default_route_order(spec)
        self.order_rule: SpecRule | None = None
        self.forbid: list[str] = []
        self.forbidden_by: dict[str, str] = {}
        self.allow: dict[str, Any] = {}
        self.elicit: list[str] = []
        self.after_success: list[str] = []
        self.matched: list[str] = []
        self.reasons: list[RuleReason] = []
        self.trace: list[TraceEvent] = [
            TraceEvent(event="input_received", data={"input": text}),
            TraceEvent(event="spec_loaded", data={"skill_id": spec.id, "schema": spec.schema_}),
        ]

    def event(self, event: str, rule: str | None, **data: Any) -> None:
        self.trace.append(TraceEvent(event=event, rule=rule, data=data))

    def select(self, selection: RouteSelection) -> None:
        self.route, self.selection = selection.route, selection
        self.event("route_selected", selection.rule_id, **selection.model_dump())

    def apply(self, rule: SpecRule) -> None:
        self.event("rule_matched", rule.id, rule_id=rule.id, reason=rule.reason)
        self.matched.append(rule.id)
        if rule.reason is not None:
            self.reasons.append(RuleReason(rule=rule.id, reason=rule.reason))
        if rule.prefer is not None:
            self.select(
                RouteSelection(route=rule.prefer, basis="rule_prefer", rule_id=rule.id, reason=rule.reason)
            )
        if rule.route_order:
            self.order, self.order_rule = tuple(rule.route_order), rule
            self.event("route_order_set", rule.id, route_order=list(rule.route_order))
        if rule.forbid:
            self.forbid.extend(rule.forbid)
            for item in rule.forbid:
                self.forbidden_by.setdefault(item, rule.id)
            self.event("forbid_added", rule.id, forbid=list(rule.forbid))
        if rule.allow:
            self.allow.update(rule.allow)
            self.event("allow_added", rule.id, allow=dict(sorted(rule.allow.items())))
        if rule.elicit:
            self.elicit.extend(rule.elicit)
            self.event("elicitation_requested", rule.id, elicit=list(rule.elicit))
        if rule.after_success:
            self.after_success.extend(rule.after_success)
            self.event("after_success_scheduled", rule.id, after_success=list(rule.after_success))

    def finish(self, book: FactBook) -> Decision:
        if self.route is None and self.order:
            if self.order_rule is not None:
                rule = self.order_rule
                self.select(
                    RouteSelection(
                        route=self.order[0],
                        basis="route_order_default",
                        rule_id=rule.id,
                        reason=rule.reason,
                    )
                )
            else:
                first = self.order[0]
                self.select(
                    RouteSelection(route=first, basis="default_route_order", reason=DEFAULT_ROUTE_REASON)
                )
        route = self.spec.route(self.route)
        selection = self.selection.model_dump() if self.selection else None
        matched = list(self.matched)
        self.event(
            "outcome_recorded", None, route=self.route, route_selection=selection, matched_rules=matched
        )
        return Decision(
            skill=self.spec.id,
            input=self.text,
            route=self.route,
            route_selection=self.selection,
            route_order=self.order,
            forbid=_unique(self.forbid),
            allow=self.allow,
            elicit=tuple(self._question(item) for item in _unique(self.elicit)),
            after_success=_unique(self.after_success),
            matched_rules=tuple(self.matched),
            reasons=tuple(self.reasons),
            plan=route.execution_plan if route is not None else None,
            facts={name: fact.value for name, fact in book.resolved().items()},
            forbidden_by=self.forbidden_by,
            trace=tuple(self.trace),
        )

    def _question(self, elicitation_id: str) -> ElicitRequest:
        found = self.spec.elicitations.get(elicitation_id)
        if found is None:  # a spec built without validation
            return ElicitRequest(id=elicitation_id, question="")
        return ElicitRequest(
            id=elicitation_id,
            question=found.question,
            choices=tuple(
                ChoiceView(id=c.id, label=c.label, description=c.description) for c in found.choices
            ),
            default=found.default,
        )


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
