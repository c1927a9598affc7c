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

import weakref
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ruleweave.errors import ConfigError
from ruleweave.steering.algebra import compile_spec, evaluate
from ruleweave.steering.decision import (
    ChoiceView,
    Decision,
    ElicitRequest,
    RouteSelection,
    RuleReason,
    TraceEvent,
)
from ruleweave.steering.facts import FactBook, Heuristic
from ruleweave.steering.model import SkillSpec

_Model = TypeVar("_Model", Decision, RouteSelection, RuleReason, TraceEvent)

_MISSING_RANK = 2**63 - 1  # the reference sorts a missing rank as i64::MAX

# Each spec is compiled once (specs are frozen); an entry leaves with its spec, so a
# recycled id() never finds another spec's rules.
_COMPILED: dict[int, dict[str, Any]] = {}

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


def compiled(spec: SkillSpec) -> dict[str, Any]:
    """The spec as :mod:`ruleweave.steering.algebra` reads it, compiled once per spec.

    Args:
        spec: A validated document.

    Returns:
        What ``compile_spec(spec, plans=False)`` returns (do not modify it).
    """
    key = id(spec)
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = compile_spec(spec, plans=False)
        weakref.finalize(spec, _COMPILED.pop, key, None)
    return found


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

    def fact(name: str) -> tuple[bool, str] | None:
        found = book.get(name)
        return (found.value, found.source) if found is not None else None

    result = evaluate(compiled(spec), user_text, fact, predicates or {})
    selection = result["selection"]
    route = spec.route(result["route"])
    # Built without re-validation: every value comes from a validated spec or the algebra.
    return _trusted(Decision, {
        "skill": spec.id,
        "input": user_text,
        "route": result["route"],
        "route_selection": _trusted(RouteSelection, {
            "route": selection["route"], "basis": selection["basis"],
            "rule_id": selection["rule_id"], "reason": selection["reason"],
        }) if selection else None,
        "route_order": tuple(result["order"]),
        "forbid": tuple(result["forbid"]),
        "allow": result["allow"],
        "elicit": tuple(_question(spec, item) for item in result["elicit"]),
        "after_success": tuple(result["after_success"]),
        "matched_rules": tuple(result["matched"]),
        "reasons": tuple(_trusted(RuleReason, {"rule": r, "reason": why}) for r, why in result["reasons"]),
        "plan": route.execution_plan if route is not None else None,
        "facts": {name: item.value for name, item in book.resolved().items()},
        "forbidden_by": result["forbidden_by"],
        "trace": tuple(
            _trusted(TraceEvent, {"event": event, "rule": rule, "data": data, "detail": detail})
            for event, rule, data, detail in result["trace"]
        ),
    })


def _trusted(cls: type[_Model], values: dict[str, Any]) -> _Model:
    """``cls.model_construct(**values)`` for ``values`` naming every field, in declaration order.

    The same object (these models have no aliases, extras or post-init), without pydantic's
    per-field loop: a decision builds a dozen trace events, and that loop was a third of it.
    """
    made = cls.__new__(cls)
    object.__setattr__(made, "__dict__", values)
    object.__setattr__(made, "__pydantic_fields_set__", set(values))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def _question(spec: SkillSpec, elicitation_id: str) -> ElicitRequest:
    found = spec.elicitations.get(elicitation_id)
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
